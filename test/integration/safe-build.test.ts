import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningPortal, startPortal } from "../../src/portal/index.ts";
import { NOW } from "../helpers/clock.ts";
import { type CommandRun as BuildRun, buildSite } from "../helpers/demo-build.ts";
import { demoPart, firstOfEachCalendar } from "../helpers/demo-parts.ts";

/**
 * The real build into `output`, reading the portal this test runs; about
 * what is published or kept, not the pictures links share as: without
 * share cards.
 */
const runBuild = (env: Record<string, string>, output: string, cacheDir: string) =>
  buildSite({ SHARE_CARDS: "off", ...env, EVENT_API_CACHE_DIR: cacheDir }, output);

/** Every file below `dir` with the SHA-256 of its bytes, keyed by relative path. */
function hashTree(dir: string): Record<string, string> {
  const hashes: Record<string, string> = {};
  for (const name of readdirSync(dir, { recursive: true, encoding: "utf8" }).sort()) {
    const path = join(dir, name);
    if (statSync(path).isFile())
      hashes[name] = createHash("sha256").update(readFileSync(path)).digest("hex");
  }
  return hashes;
}

const manifestEvents = (output: string): number =>
  (
    JSON.parse(readFileSync(join(output, "api", "manifest.json"), "utf8")) as {
      totals: { events: number };
    }
  ).totals.events;

const logOf = (run: BuildRun) => `${run.stdout}${run.stderr}`;

/**
 * What the builds read: the demo's first sixteen events of each calendar,
 * enough for a shrink to show, few enough for the many builds here to be
 * quick (what is kept or refused does not depend on the count).
 */
const PORTAL = demoPart(firstOfEachCalendar(16));

/** A failed build: exit 1, exactly one `error:` line, no stack trace. Returns that line. */
function failureLine(run: BuildRun): string {
  expect(run.status, logOf(run)).toBe(1);
  const errors = run.stderr.split(/\r?\n/).filter((line) => line.startsWith("error:"));
  expect(errors, run.stderr).toHaveLength(1);
  expect(logOf(run)).not.toMatch(/^\s+at .*(:\d+:\d+\)?|<anonymous>)$/m);
  expect(logOf(run)).not.toMatch(/\b(TypeError|ReferenceError|Unhandled|uncaught)\b/i);
  return errors[0] ?? "";
}

describe("safe builds", () => {
  let work: string;
  let output: string;
  let cacheDir: string;
  let portal: RunningPortal;
  let closedUrl: string;
  let baselineEvents: number;
  const api = () => ({ EVENT_API_URL: portal.url, EVENT_API_TOKEN: portal.token });

  /** The published folder is unchanged and no staging or previous folder is left beside it. */
  async function expectUntouched(run: Promise<BuildRun>): Promise<BuildRun> {
    const before = hashTree(output);
    const result = await run;
    expect(hashTree(output)).toEqual(before);
    expect(readdirSync(join(work, "out"))).toEqual(["_site"]);
    return result;
  }

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), "ecp-safe-build-"));
    output = join(work, "out", "_site");
    cacheDir = join(work, "cache");
    mkdirSync(join(work, "out"));
    const closed = await startPortal({ host: "127.0.0.1", port: 0 });
    closedUrl = closed.url;
    await closed.close();
    portal = await startPortal({ host: "127.0.0.1", port: 0, now: NOW, dataset: PORTAL });
    const first = await runBuild(api(), output, cacheDir);
    if (first.status !== 0) throw new Error(`The first build failed:\n${logOf(first)}`);
    baselineEvents = manifestEvents(output);
  });

  afterAll(async () => {
    await portal?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it("should keep the published site when the portal is unreachable", async () => {
    expect(baselineEvents).toBeGreaterThan(50);
    const run = await expectUntouched(
      runBuild({ EVENT_API_URL: closedUrl, EVENT_API_TOKEN: portal.token }, output, cacheDir),
    );
    const line = failureLine(run);
    expect(line).toContain(new URL(closedUrl).host);
    expect(line).toMatch(/reach|refused|unreachable/i);
  });

  it("should keep the published site when the portal rejects the token", async () => {
    const run = await expectUntouched(
      runBuild({ EVENT_API_URL: portal.url, EVENT_API_TOKEN: "wrong" }, output, cacheDir),
    );
    const line = failureLine(run);
    expect(line).toMatch(/rejected the token/i);
    expect(line).toContain("EVENT_API_TOKEN");
  });

  it("should stop on bad configuration with one line naming the variable", async () => {
    const cases: [Record<string, string>, string][] = [
      [{ ...api(), EVENT_API_URL: "not-a-url" }, "EVENT_API_URL"],
      [{ ...api(), EVENT_API_AUTH: "bogus" }, "EVENT_API_AUTH"],
      [{ ...api(), SITE_TIMEZONE: "Mars/Base" }, "SITE_TIMEZONE"],
    ];
    for (const [env, variable] of cases) {
      const run = await expectUntouched(runBuild(env, output, cacheDir));
      expect(failureLine(run), variable).toMatch(new RegExp(`^error: ${variable}\\b`));
    }
  });

  it("should refuse to publish a site that lost most of its events unless ALLOW_SHRINK is set", async () => {
    const demo = PORTAL;
    // Keep one event in five: every calendar keeps some, the site loses about 80%.
    const shrunk = await startPortal({
      host: "127.0.0.1",
      port: 0,
      now: NOW,
      dataset: { ...demo, events: demo.events.filter((_, index) => index % 5 === 0) },
    });
    try {
      const env = { EVENT_API_URL: shrunk.url, EVENT_API_TOKEN: shrunk.token };
      const refused = await expectUntouched(runBuild(env, output, cacheDir));
      expect(refused.status, logOf(refused)).toBe(1);
      const message =
        /^error: Shrink guard: not publishing, events would drop from (\d+) to (\d+) \(-(\d+)/m.exec(
          refused.stderr,
        );
      expect(message, refused.stderr).not.toBeNull();
      const [from, to, dropped] = [message?.[1], message?.[2], message?.[3]].map(Number);
      expect(from).toBe(baselineEvents);
      expect(dropped).toBe((from ?? 0) - (to ?? 0));
      expect(to).toBeLessThan(baselineEvents / 2);
      expect(refused.stderr).toContain("ALLOW_SHRINK=1");

      const allowed = await runBuild({ ...env, ALLOW_SHRINK: "1" }, output, cacheDir);
      expect(allowed.status, logOf(allowed)).toBe(0);
      expect(logOf(allowed)).toMatch(/shrink allowed for this build/);
      expect(manifestEvents(output)).toBe(to);
      expect(readdirSync(join(work, "out"))).toEqual(["_site"]);
    } finally {
      await shrunk.close();
    }

    // Growing back needs no permission.
    const grown = await runBuild(api(), output, cacheDir);
    expect(grown.status, logOf(grown)).toBe(0);
    expect(manifestEvents(output)).toBe(baselineEvents);
  });

  // Last: it stops the portal the earlier builds read.
  it("should build from cached data with EVENT_API_ALLOW_STALE while the portal is down, and fail without it", async () => {
    const url = portal.url;
    await portal.close();
    const env = { EVENT_API_URL: url, EVENT_API_TOKEN: portal.token };

    const refused = await expectUntouched(runBuild(env, output, cacheDir));
    expect(failureLine(refused)).toContain(new URL(url).host);

    const stale = await runBuild({ ...env, EVENT_API_ALLOW_STALE: "1h" }, output, cacheDir);
    expect(stale.status, logOf(stale)).toBe(0);
    expect(stale.stderr).toMatch(/STALE DATA: the portal is unavailable/);
    expect(stale.stderr).toMatch(/EVENT_API_ALLOW_STALE/);
    // The warning is repeated in the build report, where a site owner looks first.
    expect(stale.stdout).toMatch(/warnings\s+\d+[\s\S]*STALE DATA/);
    expect(manifestEvents(output)).toBe(baselineEvents);
    expect(readdirSync(join(work, "out"))).toEqual(["_site"]);
  });
});
