import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { type BuildWarnings, buildWarningsPath } from "../../src/publish/build-warnings.ts";
import { type CommandRun, DEMO_SITE_URL, runScript } from "../helpers/demo-build.ts";
import { listFiles } from "../helpers/files.ts";
import { tempDir } from "../helpers/temp-dir.ts";

/*
 * `npm run build`'s warnings, all of them reachable: a build of the demo
 * portal read with a field map that takes each event's summary for its
 * status warns once per event (well over the ten the report lists).
 */

const FIELD_MAP = JSON.stringify({ event: { status: "summary" } });

/** The report's warning lines ("    - ..."), and the line after them. */
function reportedWarnings(run: CommandRun): { listed: string[]; more: string | null } {
  const report = run.stdout.slice(run.stdout.indexOf("Build report"));
  const listed = [...report.matchAll(/^ {4}- (.*)$/gm)].map((match) => match[1] ?? "");
  const more = /^ {4}… and .*$/m.exec(report)?.[0] ?? null;
  return { listed, more };
}

describe("build", () => {
  let work: string;
  let output: string;
  let cache: string;
  const build = (args: readonly string[] = []) =>
    runScript("src/cli/build.ts", ["--output", output, ...args], {
      EVENT_API_URL: "demo",
      EVENT_API_CACHE_DIR: cache,
      EVENT_API_FIELD_MAP: FIELD_MAP,
      SHARE_CARDS: "off",
      // A complete accessibility statement: its warning is not one of those counted here.
      ACCESSIBILITY_CONTACT: "access@example.org",
      ACCESSIBILITY_STATEMENT_DATE: "2026-03-01",
    });
  const warningsFile = () =>
    JSON.parse(
      readFileSync(buildWarningsPath(cache, output, DEMO_SITE_URL), "utf8"),
    ) as BuildWarnings;

  let first: CommandRun;
  let verbose: CommandRun;

  beforeAll(async () => {
    work = tempDir("ecp-build-warnings-");
    output = join(work, "_site");
    cache = join(work, ".cache");
    first = await build();
    if (first.status !== 0) throw new Error(`build failed:\n${first.log}`);
    verbose = await build(["--verbose"]);
    if (verbose.status !== 0) throw new Error(`verbose build failed:\n${verbose.log}`);
  }, 180_000);

  it("should keep the report short, and say where every warning is", () => {
    const { warnings } = warningsFile();
    expect(warnings.length).toBeGreaterThan(10);
    expect(warnings.every((warning) => warning.includes("unknown status"))).toBe(true);
    const { listed, more } = reportedWarnings(first);
    expect(listed).toEqual(warnings.slice(0, 10));
    expect(first.stdout).toContain(`  warnings   ${warnings.length}\n`);
    const path = buildWarningsPath(cache, output, DEMO_SITE_URL);
    expect(more).toBe(
      `    … and ${warnings.length - 10} more: all ${warnings.length} in ${path}, and listed here with --verbose`,
    );
  });

  it("should list every warning with --verbose", () => {
    const { warnings } = warningsFile();
    const { listed, more } = reportedWarnings(verbose);
    expect(listed).toEqual(warnings);
    expect(more).toBeNull();
    expect(warningsFile()).toMatchObject({ version: 1, siteUrl: DEMO_SITE_URL, output });
  });

  it("should keep the warnings out of the published site", async () => {
    // A warning names what the portal sent wrong: the organization's, not the visitors'.
    const files = await listFiles(output);
    expect(files.filter((file) => file.includes("warning"))).toEqual([]);
    const text = files
      .filter((file) => /\.(json|html|xml|txt)$/.test(file))
      .some((file) => readFileSync(join(output, file), "utf8").includes("unknown status"));
    expect(text).toBe(false);
  });
});
