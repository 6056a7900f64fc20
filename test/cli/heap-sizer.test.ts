import { constants, PerformanceObserver } from "node:perf_hooks";
import { describe, expect, it } from "vitest";
import { heapSizer } from "../../src/cli/render-site.ts";

/*
 * From 25,000 events on, the build tells V8 to collect sooner, and collects
 * once there and then: V8 takes the setting only at a full collection, and
 * the limit its last one set let a 100,000-event build's heap grow by a
 * gigabyte while the data was made (docs/performance.md, What changed, item
 * 32). The full collections are counted, as Node reports them.
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
    const size = heapSizer();
    expect(await fullCollectionsDuring(() => size(24_999))).toBe(0);
    expect(await fullCollectionsDuring(() => size(25_000))).toBe(1);
    // Told once: a second large count (the site's data after the lists) changes nothing.
    expect(await fullCollectionsDuring(() => size(100_000))).toBe(0);
    // The collector is taken from a context of its own: the build's global has none.
    expect((globalThis as { gc?: unknown }).gc).toBeUndefined();
  });
});
