import { rmSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { startPortal } from "../src/portal/index.ts";
import { type LoadSummary, loadSnapshot, resetSnapshotCache } from "../src/snapshot/index.ts";

export interface SnapshotBenchOptions {
  readonly calendars?: number;
  readonly eventsPerCalendar?: number;
  /** Simulated server latency per request, in milliseconds. */
  readonly latencyMs?: number;
  readonly concurrency?: number;
  /** Where the cache folder goes: the disk costs ~0.5 ms per small file, /dev/shm isolates the client. */
  readonly cacheRoot?: string;
}

export interface SnapshotLoadFigures {
  readonly ms: number;
  readonly requests: number;
  readonly notModified: number;
  readonly detailsReused: number;
  readonly eventsPerSecond: number;
}

export interface SnapshotBenchResult {
  readonly name: "snapshot";
  readonly calendars: number;
  readonly events: number;
  readonly latencyMs: number;
  readonly concurrency: number;
  readonly cacheRoot: string;
  /** Empty cache: every list and every details record fetched. */
  readonly cold: SnapshotLoadFigures;
  /** Same cache again: lists revalidated (304), unchanged details reused. */
  readonly warm: SnapshotLoadFigures;
}

/**
 * A full snapshot load against the reference portal serving a synthetic
 * dataset, with a cold and then a warm cache. Bounded: one portal, two loads.
 */
export async function benchSnapshot(
  options: SnapshotBenchOptions = {},
): Promise<SnapshotBenchResult> {
  const calendars = options.calendars ?? 10;
  const eventsPerCalendar = options.eventsPerCalendar ?? 200;
  const latencyMs = options.latencyMs ?? 2;
  const concurrency = options.concurrency ?? 8;
  const portal = await startPortal({
    port: 0,
    now: "2026-03-20T12:00:00Z",
    synthetic: { calendars, eventsPerCalendar },
    latencyMs,
  });
  const cacheRoot = options.cacheRoot ?? tmpdir();
  const cacheDir = await mkdtemp(path.join(cacheRoot, "bench-snapshot-"));
  const env = {
    EVENT_API_URL: portal.url,
    EVENT_API_TOKEN: portal.token,
    EVENT_API_CACHE_DIR: cacheDir,
    EVENT_API_CONCURRENCY: String(concurrency),
    SITE_NOW: "2026-03-20T12:00:00Z",
  };
  const run = async (): Promise<{ figures: SnapshotLoadFigures; events: number }> => {
    resetSnapshotCache();
    let summary: LoadSummary | undefined;
    const snapshot = await loadSnapshot({ env, progress: false, onSummary: (s) => (summary = s) });
    if (!summary) throw new Error("the loader gave no summary");
    return {
      events: snapshot.events.length,
      figures: {
        ms: Math.round(summary.elapsedMs),
        requests: summary.requests,
        notModified: summary.notModified,
        detailsReused: summary.detailsReused,
        eventsPerSecond: Math.round((snapshot.events.length / summary.elapsedMs) * 1000),
      },
    };
  };
  try {
    const cold = await run();
    const warm = await run();
    return {
      name: "snapshot",
      calendars,
      events: cold.events,
      latencyMs,
      concurrency,
      cacheRoot,
      cold: cold.figures,
      warm: warm.figures,
    };
  } finally {
    resetSnapshotCache();
    await portal.close();
    rmSync(cacheDir, { recursive: true, force: true });
  }
}
