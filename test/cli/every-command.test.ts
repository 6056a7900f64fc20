import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { Semaphore } from "../../src/api/semaphore.ts";
import { type CommandRun, runScript } from "../helpers/demo-build.ts";
import { tempDir } from "../helpers/temp-dir.ts";

/*
 * Every entry point explains itself (docs/commands.md): `--help` prints its
 * usage, options and settings and does nothing else; a mistyped option is one
 * line naming it, exit 2, never a stack trace. Run as the npm scripts run
 * them, in a child process. A new npm script without a row here fails.
 */

const ROOT = resolve(import.meta.dirname, "../..");

interface Entry {
  /** How a user starts it, as its usage and errors name it. */
  readonly command: string;
  readonly script: string;
  /** Arguments before the options: a subcommand. */
  readonly words?: readonly string[];
  readonly options: readonly string[];
  /** A setting its help names; null: it reads none. */
  readonly setting: string | null;
  /** Takes --output: the folder must not appear when asked for help. */
  readonly output?: boolean;
}

const ENTRIES: readonly Entry[] = [
  {
    command: "npm run build",
    script: "src/cli/build.ts",
    options: ["--output", "--metrics", "--shard", "--target", "--verbose"],
    setting: "EVENT_API_URL",
    output: true,
  },
  {
    command: "npm run merge-shards",
    script: "src/cli/merge-shards.ts",
    options: ["--output"],
    setting: "SHRINK_GUARD_MAX_DROP",
    output: true,
  },
  {
    command: "npm start",
    script: "src/cli/serve.ts",
    options: ["--port", "--output"],
    setting: "SITE_URL",
    output: true,
  },
  {
    command: "npm run preview",
    script: "src/cli/preview.ts",
    options: ["--dir", "--port", "--host"],
    setting: "MAP_TILES_URL",
  },
  {
    command: "npm run portal",
    script: "src/cli/portal.ts",
    options: ["--port", "--data", "--synthetic", "--paging", "--tokens", "--empty-lists"],
    setting: "ENV_FILE",
  },
  {
    command: "npm run portal -- token",
    script: "src/cli/portal.ts",
    words: ["token"],
    options: ["--org", "--json", "--tokens"],
    setting: "ENV_FILE",
  },
  {
    command: "npm run portal -- token",
    script: "src/cli/portal.ts",
    words: ["token", "issue"],
    options: ["--org", "--json", "--tokens"],
    setting: "ENV_FILE",
  },
  {
    command: "npm run check-api",
    script: "src/cli/check-api.ts",
    options: [],
    setting: "EVENT_API_FIELD_MAP",
  },
  {
    command: "npm run rebuild-if-changed",
    script: "src/cli/rebuild-if-changed.ts",
    options: ["--published"],
    setting: "BUILD_HOOK_URL",
  },
  {
    command: "npm run publish-on-change",
    script: "src/cli/publish-on-change.ts",
    options: ["--every", "--output", "--copy"],
    setting: "EVENT_API_URL",
    output: true,
  },
  {
    command: "npm run ping-hub",
    script: "src/cli/ping-hub.ts",
    options: ["--published"],
    setting: "WEBSUB_HUB",
  },
  {
    command: "npm run send-digest",
    script: "src/cli/send-digest.ts",
    options: ["--site", "--calendar", "--category", "--scheduled"],
    setting: "SMTP_URL",
  },
  {
    command: "npm run ping-search-engines",
    script: "src/cli/ping-search-engines.ts",
    options: ["--published"],
    setting: "INDEXNOW_KEY",
  },
  {
    command: "npm run headers",
    script: "src/cli/headers.ts",
    options: ["--format", "--root", "--listen", "--server-name"],
    setting: "SITE_URL",
  },
  {
    command: "npm run bench",
    script: "bench/run.ts",
    options: ["--size", "--repeat", "--no-search", "--share-cards", "--shards"],
    setting: null,
  },
  {
    command: "node --import tsx bench/cards.ts",
    script: "bench/cards.ts",
    options: ["--count", "--library"],
    setting: null,
  },
  {
    command: "node --import tsx bench/search-index.ts",
    script: "bench/search-index.ts",
    options: ["--calendars", "--events-per-calendar"],
    setting: null,
  },
  {
    command: "node --import tsx bench/rebuild-check.ts",
    script: "bench/rebuild-check.ts",
    options: [],
    setting: null,
  },
  {
    command: "node --import tsx bench/hostile-images.ts",
    script: "bench/hostile-images.ts",
    options: [],
    setting: null,
  },
  {
    command: "node --import tsx bench/messages.ts",
    script: "bench/messages.ts",
    options: [],
    setting: null,
  },
  {
    command: "npm run screenshots",
    script: "tools/screenshots.ts",
    options: ["--dir", "--out", "--chromium"],
    setting: "CHROMIUM_PATH",
  },
];

/**
 * Two entry points at a time, one per core of the machines the tests target:
 * more would only slow down the test files running beside this one.
 */
const slots = new Semaphore(2);

async function runEntry(script: string, args: readonly string[]): Promise<CommandRun> {
  const release = await slots.acquire();
  try {
    return await runScript(script, args);
  } finally {
    release();
  }
}

/** npm scripts that run other projects' tools, which explain themselves. */
const TOOLS = new Set(["test", "test:unit", "typecheck", "lint", "format"]);

const DOCS = readFileSync(join(ROOT, "docs/configuration.md"), "utf8");

/** The text of docs/configuration.md under a `## ` heading (its `###` included). */
function docsSection(title: string): string {
  const sections = DOCS.split(/^## /m).map((text) => ({
    heading: text.slice(0, text.indexOf("\n")).replaceAll("`", ""),
    text,
  }));
  return sections.find((section) => section.heading === title)?.text ?? "";
}

/** The settings a help names, by the section of docs/configuration.md it names them under. */
function settingsNamed(help: string): { section: string; name: string }[] {
  const lines = help.slice(help.indexOf("Settings it reads")).split("\n").slice(1);
  let section = "";
  return lines.flatMap((line) => {
    const match = /^ {2}(\S.*?)\s{2,}(.*)$/.exec(line);
    if (match) section = match[1] ?? "";
    const names = (match ? (match[2] ?? "") : line).split(",").map((name) => name.trim());
    return names.filter(Boolean).map((name) => ({ section, name }));
  });
}

/** Each row with what it runs, to name its tests. */
const ROWS = ENTRIES.map((entry) => ({
  ...entry,
  line: [entry.script, ...(entry.words ?? [])].join(" "),
}));

// Each row starts Node twice; the rows run side by side.
describe.concurrent("every entry point", () => {
  it.each(ROWS)("$line should print its usage for --help and do nothing else", async (entry) => {
    const output = join(tempDir("ecp-help-"), "site");
    const run = await runEntry(entry.script, [
      ...(entry.words ?? []),
      ...(entry.output ? ["--output", output] : []),
      "--help",
    ]);
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(run.stdout.startsWith(`Usage: ${entry.command} `)).toBe(true);
    for (const option of [...entry.options, "--help"]) {
      expect(run.stdout).toMatch(new RegExp(`^ +(-h, )?${option}\\b`, "m"));
    }
    const settings = settingsNamed(run.stdout);
    if (entry.setting === null) expect(run.stdout).toContain("Settings it reads: none.");
    else {
      expect(run.stdout).toContain("docs/configuration.md");
      expect(settings.map((s) => s.name)).toContain(entry.setting);
    }
    for (const { section, name } of settings) {
      expect(docsSection(section), `${name} in "${section}"`).toContain(`\`${name}\``);
    }
    // What the entry point's own code reads from the environment is in its help too.
    const source = readFileSync(join(ROOT, entry.script), "utf8");
    for (const [, name] of source.matchAll(/process\.env\.([A-Z][A-Z0-9_]*)/g)) {
      expect(settings.map((s) => s.name)).toContain(name);
    }
    if (entry.output) expect(existsSync(output)).toBe(false);
  });

  it.each(ROWS)("$line should name a mistyped option in one line and exit 2", async (entry) => {
    const run = await runEntry(entry.script, [...(entry.words ?? []), "--ouput", "x"]);
    expect(run.status).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).not.toContain("    at ");
    const lines = run.stderr.trimEnd().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^error: unknown option --ouput\b/);
    const hint = (form: string) => `(${form} --help lists the options)`;
    expect([hint(entry.command), hint(`${entry.command} --`)]).toContain(
      lines[0]?.slice(lines[0].indexOf(" (") + 1),
    );
  });
});

describe("the entry points", () => {
  it("should have a row above for every npm script", () => {
    const scripts = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).scripts as Record<
      string,
      string
    >;
    const missing = Object.entries(scripts)
      .filter(([name]) => !TOOLS.has(name))
      .filter(([, line]) => !ENTRIES.some((entry) => line.endsWith(` ${entry.script}`)));
    expect(missing).toEqual([]);
  });

  it("should say what is missing or unexpected on a command line in one line too", async () => {
    const [noValue, extra, badShard] = await Promise.all([
      runEntry("src/cli/build.ts", ["--output"]),
      runEntry("src/cli/build.ts", ["extra"]),
      runEntry("src/cli/build.ts", ["--shard", "2/4"]),
    ]);
    expect(noValue.stderr).toBe(
      "error: option --output needs a value (npm run build -- --help lists the options)\n",
    );
    expect(extra.stderr).toBe(
      'error: unexpected argument "extra" (npm run build -- --help lists the options)\n',
    );
    expect(badShard.stderr).toMatch(/^error: --shard needs --output <dir>.*\n$/);
    for (const run of [noValue, extra, badShard]) expect(run.status).toBe(2);
  });
});
