import { constants, PerformanceObserver } from "node:perf_hooks";
import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import type { ChangeReport, ReportItem } from "../../src/changes/detect-changes.ts";
import { heapSizer, rendersMuchAgain } from "../../src/cli/render-site.ts";

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
 * 80). A rebuild that renders much of the site again (the day turned since
 * the last publish, or a hundredth of the events changed) gets the same
 * (item 82); one that renders little keeps V8's defaults. The flags are
 * recorded, not set: the test's own process keeps V8's defaults.
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

  it("should favour memory over speed only for a large site rendering much", () => {
    const small: string[] = [];
    const smallSite = heapSizer((flag) => small.push(flag));
    smallSite.listed(24_999);
    smallSite.renderingMuch();
    expect(small).toEqual([]);

    const large: string[] = [];
    const largeSite = heapSizer((flag) => large.push(flag));
    largeSite.listed(100_000);
    largeSite.renderingMuch();
    expect(large).toEqual([
      "--heap-growing-percent=20",
      "--optimize-for-size",
      "--heap-growing-percent=10",
    ]);
  });
});

describe("rendersMuchAgain", () => {
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

  it("should say so once the site's day has turned since the last publish, in the site's zone", () => {
    // 23:30 on the 22nd in Amsterdam: the same UTC day, another day of the site.
    expect(rendersMuchAgain(report("2026-11-22T22:30:00.000Z"), 100_000, now)).toBe(true);
    // 00:15 on the 23rd in Amsterdam: the same day of the site.
    expect(rendersMuchAgain(report("2026-11-22T23:15:00.000Z"), 100_000, now)).toBe(false);
  });

  it("should say so from a hundredth of the events changed, of any kind", () => {
    const since = "2026-11-22T23:15:00.000Z";
    expect(rendersMuchAgain(report(since, 999), 100_000, now)).toBe(false);
    expect(rendersMuchAgain(report(since, 999, 1), 100_000, now)).toBe(true);
    expect(rendersMuchAgain(report(since, 1), 100, now)).toBe(true);
    expect(rendersMuchAgain(report(since), 100, now)).toBe(false);
  });

  it("should not say so without a last publish to compare with", () => {
    expect(rendersMuchAgain(null, 100_000, now)).toBe(false);
  });
});
