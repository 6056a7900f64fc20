import { describe, expect, it } from "vitest";
import {
  defineCommand,
  parseCommandLine,
  usageErrorLine,
  usageText,
} from "../../src/cli/command-line.ts";
import { envSettings } from "../../src/config/env-settings.ts";
import { UsageError } from "../../src/errors.ts";

const COMMAND = defineCommand({
  run: "npm run example",
  summary: "Does what an example does.",
  options: {
    output: { type: "string", value: "<dir>", default: "_site", meaning: "where it goes" },
    format: { type: "string", value: "<kind>", choices: ["a", "b"], meaning: "which kind" },
    disk: { type: "boolean", meaning: "use the disk" },
    search: { type: "boolean", default: true, meaning: "leave out the search" },
  },
  settings: [
    ...envSettings("Site", ["SITE_URL", "SITE_NOW"]),
    ...envSettings("API", ["EVENT_API_URL"]),
    ...envSettings("Site", ["SITE_URL"]),
  ],
});

/** The message of the UsageError a command line throws. */
function usageError(args: readonly string[]): string {
  try {
    parseCommandLine(COMMAND, args);
  } catch (error) {
    if (error instanceof UsageError) return error.message;
    throw error;
  }
  throw new Error(`no usage error for ${args.join(" ")}`);
}

describe("parseCommandLine", () => {
  it("should read options with their defaults, and --no- for a boolean that defaults to true", () => {
    expect(parseCommandLine(COMMAND, [])).toEqual({
      values: { output: "_site", search: true },
      positionals: [],
    });
    expect(
      parseCommandLine(COMMAND, ["--output=x", "--format", "b", "--disk", "--no-search"]),
    ).toEqual({
      values: { output: "x", format: "b", disk: true, search: false },
      positionals: [],
    });
  });

  it("should answer help for --help or -h, whatever else is on the line", () => {
    expect(parseCommandLine(COMMAND, ["--help"])).toBe("help");
    expect(parseCommandLine(COMMAND, ["-h"])).toBe("help");
    expect(parseCommandLine(COMMAND, ["--ouput", "x", "--help"])).toBe("help");
  });

  it("should name an unknown option, and the one it most likely meant", () => {
    expect(usageError(["--ouput", "x"])).toBe("unknown option --ouput; did you mean --output?");
    expect(usageError(["--verbose"])).toBe("unknown option --verbose");
    expect(usageError(["-x"])).toBe("unknown option -x");
  });

  it("should name an option without its value, or with a value it does not take", () => {
    expect(usageError(["--output"])).toBe("option --output needs a value");
    expect(usageError(["--output", "--disk"])).toBe("option --output needs a value");
    expect(usageError(["--disk=yes"])).toBe("option --disk takes no value");
  });

  it("should name an unexpected argument, and a value outside an option's choices", () => {
    expect(usageError(["extra"])).toBe('unexpected argument "extra"');
    expect(usageError(["--format", "c"])).toBe('--format: expected a, b; got "c"');
  });

  it("should take arguments when the command does", () => {
    const merge = defineCommand({ ...COMMAND, positionals: true });
    expect(parseCommandLine(merge, ["one", "--disk", "two"])).toMatchObject({
      positionals: ["one", "two"],
    });
  });
});

describe("usageText", () => {
  const text = usageText(COMMAND);

  it("should give the command line, the summary and every option with its meaning", () => {
    expect(text).toMatch(/^Usage: npm run example -- \[options\]\n\nDoes what an example does\.\n/);
    expect(text).toMatch(/^ {2}--output <dir> +where it goes \(default _site\)$/m);
    expect(text).toMatch(/^ {2}--format <kind> +which kind: a, b$/m);
    expect(text).toMatch(/^ {2}--disk +use the disk$/m);
    expect(text).toMatch(/^ {2}--no-search +leave out the search$/m);
    expect(text).toMatch(/^ {2}-h, --help +print this help and exit$/m);
  });

  it("should name the settings by section of docs/configuration.md, each once", () => {
    expect(text).toContain("docs/configuration.md");
    expect(text).toMatch(/^ {2}API +EVENT_API_URL\n {2}Site +SITE_URL, SITE_NOW\n$/m);
  });

  it("should say so when a command reads no settings", () => {
    expect(usageText({ ...COMMAND, settings: [] })).toContain("Settings it reads: none.");
  });

  it("should keep its lines within 80 columns", () => {
    const long = usageText({ ...COMMAND, summary: "word ".repeat(60).trim() });
    expect(long.split("\n").filter((line) => line.length > 80)).toEqual([]);
  });
});

describe("usageErrorLine", () => {
  it("should say where the options are listed, in the form the command is run", () => {
    expect(usageErrorLine(COMMAND, "unknown option --x")).toBe(
      "error: unknown option --x (npm run example -- --help lists the options)",
    );
    expect(usageErrorLine({ ...COMMAND, run: "npm run portal -- token" }, "m")).toBe(
      "error: m (npm run portal -- token --help lists the options)",
    );
    expect(usageErrorLine({ ...COMMAND, run: "node --import tsx bench/cards.ts" }, "m")).toBe(
      "error: m (node --import tsx bench/cards.ts --help lists the options)",
    );
  });
});
