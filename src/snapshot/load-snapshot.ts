import { ApiUnavailableError, formatMs } from "../api/errors.ts";
import { ListRecorder, type PortalLists } from "../api/list-recorder.ts";
import { PortalClient } from "../api/portal-client.ts";
import { ResponseCache } from "../api/response-cache.ts";
import type { ApiConfig } from "../config/api.ts";
import { count, timedAsync } from "../metrics.ts";
import { normalizeSnapshot } from "../model/normalize-snapshot.ts";
import type { PortalSnapshot } from "../model/types.ts";
import { lastGoodKey } from "./last-good-key.ts";
import { NormalizeMemo } from "./normalize-memo.ts";
import { ProgressReporter, type ProgressSink } from "./progress.ts";

export interface LoadSnapshotOptions {
  readonly config: ApiConfig;
  /** Site default zone (SITE_TIMEZONE). */
  readonly defaultTimeZone: string;
  /** Becomes `fetchedAt`: the build's clock. */
  readonly now: Date;
  /** Progress and warnings (stderr for a build); null: silent. */
  readonly sink: ProgressSink | null;
  readonly signal?: AbortSignal;
}

/** What the build fetched: the snapshot, the lists it was read from, the summary figures. */
export interface FetchedPortal {
  readonly snapshot: PortalSnapshot;
  /** Every list page as read, for the build state (src/rebuild); null from the stale cache. */
  readonly lists: PortalLists | null;
  readonly summary: LoadSummary;
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
 * The organization's portal as one immutable snapshot: fetched and
 * normalized. On success it is also stored as the last good snapshot; when
 * the portal is unavailable and EVENT_API_ALLOW_STALE is set, a stored
 * snapshot younger than that is used instead, loudly.
 */
export async function loadSnapshot(options: LoadSnapshotOptions): Promise<FetchedPortal> {
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
  const summarize = (snapshot: PortalSnapshot, stale: boolean): LoadSummary => {
    const elapsedMs = performance.now() - started;
    const line = reporter.summary({
      calendars: snapshot.calendars.length,
      events: snapshot.events.length,
      warnings: snapshot.warnings.length,
      stats: client.stats,
      elapsedMs,
    });
    for (const [name, value] of Object.entries(client.stats)) count(`fetch.${name}`, value);
    return { line, ...client.stats, elapsedMs, stale };
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
    await timedAsync("fetch", () => store.set(key, snapshot));
    return { snapshot, lists: lists.result(client), summary: summarize(snapshot, false) };
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
    return { snapshot, lists: null, summary: summarize(snapshot, true) };
  } finally {
    await client.close();
  }
}
