import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { RunningPortal } from "../../src/portal/index.ts";
import { NOW } from "../helpers/clock.ts";
import { fileBytesSync } from "../helpers/files.ts";
import { type BuildMetrics, counter, meteredBuild } from "../helpers/metered-build.ts";
import { startSyntheticPortal } from "../helpers/synthetic-portal.ts";
import { tempDir } from "../helpers/temp-dir.ts";
import { useForTests } from "../helpers/use-for-tests.ts";

/*
 * A build whose inputs are as the last publish recorded them renders
 * nothing (src/publish/unchanged-build.ts): it rests on the next
 * date-relative moment that publish recorded. Here the clock steps to just
 * before each of a site's next moments, where the build keeps everything,
 * and the kept site is compared with one built from scratch at that clock;
 * then to the moment itself, where the build renders again.
 */

const STEPS = 2;
const work = tempDir("ecp-unchanged-");
const portal = useForTests(
  "a small portal",
  () => startSyntheticPortal(3, 40, { seed: 5 }),
  (running) => running.close(),
);

interface UnchangedMetrics extends BuildMetrics {
  readonly unchanged?: boolean;
  readonly filesChanged: number | null;
}

let builds = 0;
async function build(
  output: string,
  now: string,
  cacheDir = join(work, "cache"),
): Promise<UnchangedMetrics> {
  return (await meteredBuild(output, {
    portal: portal() as RunningPortal,
    cacheDir,
    metricsFile: join(work, `metrics-${++builds}.json`),
    env: { SITE_NOW: now, SHARE_CARDS: "off" },
  })) as UnchangedMetrics;
}

/** The published build state's next moment and why. */
function nextChange(site: string): { readonly at: number; readonly reason: string } {
  const state = JSON.parse(readFileSync(join(site, "api", "build-state.json"), "utf8")) as {
    nextChange: { at: string; reason: string } | null;
  };
  if (!state.nextChange) throw new Error("the build recorded no next change");
  return { at: Date.parse(state.nextChange.at), reason: state.nextChange.reason };
}

/** The site's files; the manifest without what only says what this build changed against the last. */
function publishedTree(site: string): Map<string, string> {
  const tree = fileBytesSync(site);
  const manifest = JSON.parse(readFileSync(join(site, "api", "manifest.json"), "utf8"));
  delete manifest.feedsChanged;
  delete manifest.pagesChanged;
  delete manifest.pagesChangedCount;
  tree.set("api/manifest.json", JSON.stringify(manifest));
  return tree;
}

describe("a build that finds nothing changed", () => {
  it("should keep the site just before each next date-relative moment as a build from scratch writes it, and render at the moment", async () => {
    const site = join(work, "site");
    const first = await build(site, NOW);
    expect(first.unchanged).toBeUndefined();
    const reasons: string[] = [];
    for (let step = 0; step < STEPS; step++) {
      const next = nextChange(site);
      reasons.push(next.reason);
      const before = new Date(next.at - 1).toISOString();
      const kept = await build(site, before);
      expect(kept.unchanged, `${before}: ${next.reason}`).toBe(true);
      // Nothing rendered: no page, feed or calendar counted.
      expect(Object.keys(kept.counters).filter((name) => name.startsWith("rendered."))).toEqual([]);
      expect(counter(kept, "files.statted")).toBe(kept.files);
      expect(kept.filesKept).toBe(kept.files - (kept.filesChanged ?? 0));

      const fresh = join(work, `fresh-${step}`);
      const scratch = await build(fresh, before, join(work, `fresh-cache-${step}`));
      expect(scratch.filesKept).toBe(0);
      const a = publishedTree(site);
      const b = publishedTree(fresh);
      const differ = [...new Set([...a.keys(), ...b.keys()])].filter((p) => a.get(p) !== b.get(p));
      expect(differ, `kept at ${before}, before ${next.reason}`).toEqual([]);
      rmSync(fresh, { recursive: true, force: true });

      const at = new Date(next.at).toISOString();
      const moved = await build(site, at);
      expect(moved.unchanged, `${at}: ${next.reason}`).toBeUndefined();
    }
    // The steps crossed a day and events' own moments.
    expect(
      reasons.some((reason) => reason.startsWith("the day changes")),
      reasons.join("\n"),
    ).toBe(true);
    expect(
      reasons.some((reason) => reason.startsWith("event ")),
      reasons.join("\n"),
    ).toBe(true);
  });

  it("should render again when a published file is gone, and put it back", async () => {
    const site = join(work, "site-kept");
    const cacheDir = join(work, "cache-kept");
    await build(site, NOW, cacheDir);
    const before = fileBytesSync(site);
    const again = await build(site, NOW, cacheDir);
    expect(again.unchanged).toBe(true);
    rmSync(join(site, "calendar.ics"));
    const repaired = await build(site, NOW, cacheDir);
    expect(repaired.unchanged).toBeUndefined();
    expect(fileBytesSync(site).get("calendar.ics")).toBe(before.get("calendar.ics"));
  });
});
