import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { describe, expect, it } from "vitest";
import { procStat } from "../../src/proc-stat.ts";
import { runPagefind } from "../../src/search/pagefind-indexer.ts";
import type { SearchRecord } from "../../src/search/search-records.ts";

/**
 * What a build reports of its Pagefind process (src/search/pagefind-indexer.ts):
 * its peak memory and its CPU time, read from Linux's /proc while it runs,
 * for the build's metrics and the benchmark's CPU table (docs/performance.md,
 * "What is measured, and the floors"). Pagefind itself indexes the records.
 */

const linux = existsSync("/proc/self/stat");
const why = linux ? "" : " (skipped: it reads Linux's /proc, which this system lacks)";

const RECORDS = 1_000;

function record(i: number): SearchRecord {
  return {
    url: `/calendars/c${i % 4}/events/e${i}/`,
    content: `Workshop number ${i} about gardening, music and films in the library of town ${i % 37}`,
    language: "en",
    meta: { title: `Workshop ${i}`, day: "2026-03-21" },
    filters: { calendar: [`c${i % 4}`], day: ["2026-03-21"] },
    sort: { start: `2026-03-21T10:00:00Z ${String(i).padStart(6, "0")}` },
  };
}

describe.skipIf(!linux && process.env.CI !== "true")(`runPagefind's figures${why}`, () => {
  it("should report the CPU time and peak memory of Pagefind's process, no more than Linux charged to it", async () => {
    const records = Array.from({ length: RECORDS }, (_, i) => record(i));
    const waitedChildren = () => procStat("self")?.waitedChildrenCpuSeconds ?? 0;
    const childrenBefore = waitedChildren();
    const started = performance.now();
    const output = await runPagefind(records, "en");
    const wallSeconds = (performance.now() - started) / 1000;

    // An index of the records: a fragment for each of them.
    expect(output.files.filter((file) => file.path.includes("fragment/"))).toHaveLength(RECORDS);
    expect(output.peakMB).toBeGreaterThan(0);
    // Indexing a thousand records takes Pagefind more than a tick of CPU on any machine.
    expect(output.cpuSeconds).toBeGreaterThan(0.01);
    // At most what its threads could take in the time it ran.
    expect(output.cpuSeconds).toBeLessThanOrEqual(wallSeconds * availableParallelism() + 0.02);

    // Once the process has ended, Linux counts it among this process's
    // children: the figure read while it ran is at most that.
    let charged = waitedChildren() - childrenBefore;
    for (let tries = 0; tries < 50 && charged < (output.cpuSeconds ?? 0); tries++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      charged = waitedChildren() - childrenBefore;
    }
    expect(output.cpuSeconds).toBeLessThanOrEqual(charged + 0.02);
  });
});
