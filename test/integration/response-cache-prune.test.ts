import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { UNUSED_DAYS } from "../../src/api/response-cache.ts";
import { NOW_MS } from "../helpers/clock.ts";
import { buildSite, type CommandRun } from "../helpers/demo-build.ts";
import { startSyntheticPortal } from "../helpers/synthetic-portal.ts";

/** The response cache's entries in the folder: eleventy-fetch's files, by name. */
const entries = (cacheDir: string) =>
  readdirSync(cacheDir)
    .filter((name) => name.startsWith("eleventy-fetch-"))
    .sort();

const logOf = (run: CommandRun) => `${run.stdout}${run.stderr}`;
const daysLater = (days: number) => new Date(NOW_MS + days * 86_400_000).toISOString();

/**
 * The API's response cache across builds (docs/deploy.md, "The caches"):
 * what no published build has used for UNUSED_DAYS goes, so that a portal
 * moved to another address, or a calendar gone, does not stay in the folder
 * a host restores every build; a build from the last good data removes
 * nothing. About the cache only: without share cards.
 */
describe("the response cache", () => {
  const work = mkdtempSync(join(tmpdir(), "ecp-cache-prune-"));
  const cacheDir = join(work, "cache");
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  // Each build into a folder of its own: a month later the site shows other events, which
  // the shrink guard would weigh against the last publish.
  const build = (folder: string, days: number, env: Record<string, string>) =>
    buildSite(
      {
        SHARE_CARDS: "off",
        EVENT_API_CACHE_DIR: cacheDir,
        SITE_NOW: daysLater(days),
        ...env,
      },
      join(work, folder, "_site"),
    );

  it("should remove a moved portal's answers once unused for 30 days, and nothing when it builds from its last good data", async () => {
    // The same events at three addresses, as a portal moved elsewhere, then again: each on
    // a loopback address of its own, since a free port may be the one a closed portal had.
    const at = async (host: string, folder: string, days: number) => {
      const portal = await startSyntheticPortal(2, 4, { host });
      const run = await build(folder, days, {
        EVENT_API_URL: portal.url,
        EVENT_API_TOKEN: portal.token,
      });
      await portal.close();
      expect(run.status, logOf(run)).toBe(0);
      return portal;
    };
    await at("127.0.0.1", "a", 0);
    const first = entries(cacheDir);
    // The calendar list, each calendar's list and details, the last good data: two files each.
    expect(first.length).toBeGreaterThanOrEqual(12);

    const second = await at("127.0.0.2", "b", 1);
    const both = entries(cacheDir);
    const secondOwn = both.filter((name) => !first.includes(name));
    expect(secondOwn).toHaveLength(first.length);
    // The first address's answers unused for a day: still there.
    expect(both).toEqual(expect.arrayContaining(first));

    // The second portal down, 30 days after the first address was last used: built from
    // the last good data, the cache left as it was.
    const stale = await build("b", 1 + UNUSED_DAYS, {
      EVENT_API_URL: second.url,
      EVENT_API_TOKEN: second.token,
      EVENT_API_ALLOW_STALE: "1h",
    });
    expect(stale.status, logOf(stale)).toBe(0);
    expect(stale.stderr).toMatch(/STALE DATA/);
    expect(entries(cacheDir)).toEqual(both);

    // A build that fetched afresh: the first address's answers go, the second's (unused for
    // less than 30 days) stay beside the third's.
    await at("127.0.0.3", "c", 2 + UNUSED_DAYS);
    const last = entries(cacheDir);
    expect(last.filter((name) => first.includes(name))).toEqual([]);
    expect(last).toEqual(expect.arrayContaining(secondOwn));
    expect(last).toHaveLength(2 * first.length);
  });
});
