import { ApiUnavailableError, formatMs } from "../api/errors.ts";
import { PortalClient } from "../api/portal-client.ts";
import { ResponseCache } from "../api/response-cache.ts";
import type { ApiConfig } from "../config/api.ts";
import { count, timedAsync } from "../metrics.ts";
import { normalizeSnapshot } from "../model/normalize-snapshot.ts";
import type { PortalSnapshot } from "../model/types.ts";
import { ListRecorder, rememberPortalLists } from "../rebuild/list-recorder.ts";
import { lastGoodKey } from "./last-good-key.ts";
import { NormalizeMemo } from "./normalize-memo.ts";
import { ProgressReporter, type ProgressSink } from "./progress.ts";

export interface LoadFromApiOptions {
  readonly config: ApiConfig;
  /** Site default zone (SITE_TIMEZONE). */
  readonly defaultTimeZone: string;
  /** Becomes `fetchedAt`. */
  readonly now: Date;
  readonly sink: ProgressSink | null;
  readonly signal?: AbortSignal;
  /** Receives the summary figures (for benchmarks and check-api). */
  readonly onSummary?: (summary: LoadSummary) => void;
}

export interface LoadSummary {
  readonly line: string;
  readonly requests: number;
  readonly retries: number;
  readonly notModified: number;
  readonly cacheHits: number;
  readonly detailsReused: number;
  readonly elapsedMs: number;
  readonly stale: boolean;
}

/**
 * Fetches and normalizes one snapshot. On success it is also stored as the
 * last good snapshot; when the portal is unavailable and EVENT_API_ALLOW_STALE
 * is set, a stored snapshot younger than that is used instead, loudly.
 */
export async function loadSnapshotFromApi(options: LoadFromApiOptions): Promise<PortalSnapshot> {
  const { config } = options;
  const started = performance.now();
  const reporter = new ProgressReporter(options.sink);
  const warnings: string[] = [];
  const warn = (message: string): void => {
    warnings.push(message);
    reporter.warn(message);
  };
  const lists = new ListRecorder(config);
  const client = new PortalClient(config, {
    signal: options.signal,
    onProgress: (progress) => reporter.update(progress),
    onWarning: warn,
    onListPage: lists.record,
  });
  const store = new ResponseCache(config.cacheDir, client.http.redact);
  const key = lastGoodKey(config, options.defaultTimeZone);
  const summarize = (snapshot: PortalSnapshot, stale: boolean): void => {
    const elapsedMs = performance.now() - started;
    const line = reporter.summary({
      calendars: snapshot.calendars.length,
      events: snapshot.events.length,
      warnings: snapshot.warnings.length,
      stats: client.stats,
      elapsedMs,
    });
    for (const [name, value] of Object.entries(client.stats)) count(`fetch.${name}`, value);
    options.onSummary?.({ line, ...client.stats, elapsedMs, stale });
  };

  try {
    const wire = await timedAsync("fetch", () => client.fetchAll());
    const settings = { fieldMap: config.fieldMap, defaultTimeZone: options.defaultTimeZone };
    const snapshot = await timedAsync("normalize", async () => {
      const memo = NormalizeMemo.load(store, settings);
      const normalized = normalizeSnapshot(
        { source: config.baseUrl, fetchedAt: options.now.toISOString(), calendars: wire, warnings },
        {
          ...settings,
          onWarning: (message) => reporter.warn(message),
          normalizeEvent: memo.normalizeEvent,
        },
      );
      await memo.save();
      return normalized;
    });
    rememberPortalLists(snapshot, lists.result(client));
    await timedAsync("fetch", () => store.set(key, snapshot));
    summarize(snapshot, false);
    return snapshot;
  } catch (error) {
    if (!(error instanceof ApiUnavailableError) || config.allowStaleMs === null) throw error;
    const stored = store.get<PortalSnapshot>(key);
    if (!stored || stored.ageMs > config.allowStaleMs) {
      const why = stored
        ? `the cached data is ${formatMs(stored.ageMs)} old`
        : "there is no cached data";
      throw new ApiUnavailableError(
        `${error.message} EVENT_API_ALLOW_STALE=${formatMs(config.allowStaleMs)} cannot help: ${why}.`,
        error.status,
        { cause: error },
      );
    }
    const notice = `STALE DATA: the portal is unavailable (${error.message}) Building from cached data fetched ${stored.value.fetchedAt} (${formatMs(stored.ageMs)} ago), allowed by EVENT_API_ALLOW_STALE.`;
    reporter.alert(notice);
    const snapshot: PortalSnapshot = Object.freeze({
      ...stored.value,
      warnings: Object.freeze([...stored.value.warnings, notice]),
    });
    summarize(snapshot, true);
    return snapshot;
  } finally {
    await client.close();
  }
}
