import { constants, PerformanceObserver } from "node:perf_hooks";
import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import type { ChangeReport, ReportItem } from "../../src/changes/detect-changes.ts";
import { heapSizer, type RebuildReach, rebuildReach } from "../../src/cli/render-site.ts";

/*
 * From 25,000 events on, the build tells V8 to collect sooner, and collects
 * once there and then: V8 takes the setting only at a full collection, and
 * the limit its last one set let a 100,000-event build's heap grow by a
 * gigabyte while the data was made (docs/performance.md, What changed, item
 * 32). The full collections are counted, as Node reports them. A large
 * site rendered whole (nothing published to keep, or published under other
 * code) also puts V8 in its memory-saving mode, which lowered a cold
 * 100,000-event build's peak by about 200 MB in as much time but slowed the
 * rebuilds that keep most files (What changed, item 77), and has it collect
 * at a tenth over what is live, for a lower peak at a tenth more time (item
 * 80). A rebuild in which a hundredth of the events changed gets the same
 * (item 82); one whose day turned since the last publish gets the
 * collection at a tenth only, which took a tenth and a quarter off its
 * time in two builds, for a peak still under 1.2 GB (item 88); one that
 * renders little keeps V8's defaults. The flags are recorded, not set: the
 * test's own process keeps V8's defaults.
 */

/** The full collections that began while `act` ran. */
async function fullCollectionsDuring(act: () => void): Promise<number> {
  const seen: PerformanceEntry[] = [];
  const observer = new PerformanceObserver((list) => seen.push(...list.getEntries()));
  observer.observe({ entryTypes: ["gc"] });
  const start = performance.now();
  act();
  const end = performance.now();
  // Node hands a collection's entry over on a later turn of the event loop, not after a time.
  for (let turn = 0; turn < 3; turn++) await new Promise((done) => setImmediate(done));
  seen.push(...observer.takeRecords());
  observer.disconnect();
  return seen.filter(
    (entry) =>
      (entry as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind ===
        constants.NODE_PERFORMANCE_GC_MAJOR &&
      entry.startTime >= start &&
      entry.startTime <= end,
  ).length;
}

describe("heapSizer", () => {
  it("should collect the heap once when a large site is listed, and not again, nor for a small one", async () => {
    const flags: string[] = [];
    const size = heapSizer((flag) => flags.push(flag));
    expect(await fullCollectionsDuring(() => size.listed(24_999))).toBe(0);
    expect(flags).toEqual([]);
    expect(await fullCollectionsDuring(() => size.listed(25_000))).toBe(1);
    expect(flags).toEqual(["--heap-growing-percent=20"]);
    // Told once: a second large count (the site's data after the lists) changes nothing.
    expect(await fullCollectionsDuring(() => size.listed(100_000))).toBe(0);
    expect(flags).toEqual(["--heap-growing-percent=20"]);
    // The collector is taken from a context of its own: the build's global has none.
    expect((globalThis as { gc?: unknown }).gc).toBeUndefined();
  });

  it("should favour memory over speed only for a large site rendering much, and less so the day after", () => {
    const small: string[] = [];
    const smallSite = heapSizer((flag) => small.push(flag));
    smallSite.listed(24_999);
    smallSite.rendering("all");
    expect(small).toEqual([]);

    const told = (reach: "all" | RebuildReach) => {
      const flags: string[] = [];
      const largeSite = heapSizer((flag) => flags.push(flag));
      largeSite.listed(100_000);
      largeSite.rendering(reach);
      return flags.slice(1);
    };
    const memorySaving = ["--optimize-for-size", "--heap-growing-percent=10"];
    expect(told("all")).toEqual(memorySaving);
    expect(told("many")).toEqual(memorySaving);
    expect(told("day")).toEqual(["--heap-growing-percent=10"]);
    expect(told("little")).toEqual([]);
  });
});

describe("rebuildReach", () => {
  const item: ReportItem = { title: "An event", detail: null };
  const report = (since: string, changed = 0, cancelled = 0): ChangeReport => ({
    since,
    added: [],
    changed: Array.from({ length: changed }, () => item),
    moved: [],
    cancelled: Array.from({ length: cancelled }, () => item),
    postponed: [],
    reinstated: [],
    deleted: [],
  });
  // 00:30 in Amsterdam on 23 November, still the 22nd in UTC.
  const now = DateTime.fromISO("2026-11-22T23:30:00Z", { zone: "Europe/Amsterdam" });

  it("should say the day once the site's day has turned since the last publish, in the site's zone", () => {
    // 23:30 on the 22nd in Amsterdam: the same UTC day, another day of the site.
    expect(rebuildReach(report("2026-11-22T22:30:00.000Z"), 100_000, now)).toBe("day");
    // 00:15 on the 23rd in Amsterdam: the same day of the site.
    expect(rebuildReach(report("2026-11-22T23:15:00.000Z"), 100_000, now)).toBe("little");
  });

  it("should say many from a hundredth of the events changed, of any kind, the day turned or not", () => {
    const since = "2026-11-22T23:15:00.000Z";
    expect(rebuildReach(report(since, 999), 100_000, now)).toBe("little");
    expect(rebuildReach(report(since, 999, 1), 100_000, now)).toBe("many");
    expect(rebuildReach(report(since, 1), 100, now)).toBe("many");
    expect(rebuildReach(report(since), 100, now)).toBe("little");
    expect(rebuildReach(report("2026-11-22T22:30:00.000Z", 1_000), 100_000, now)).toBe("many");
    expect(rebuildReach(report("2026-11-22T22:30:00.000Z", 999), 100_000, now)).toBe("day");
  });

  it("should say little without a last publish to compare with", () => {
    expect(rebuildReach(null, 100_000, now)).toBe("little");
  });
});
