import { ApiUnavailableError, formatMs } from "../api/errors.ts";
import { ListRecorder, type PortalLists } from "../api/list-recorder.ts";
import { PortalClient } from "../api/portal-client.ts";
import { ResponseCache } from "../api/response-cache.ts";
import type { ApiConfig } from "../config/api.ts";
import { ApiError } from "../errors.ts";
import { count, timedAsync } from "../metrics.ts";
import type { KeptReads } from "../model/kept-reads.ts";
import type { Normalized, NormalizeOptions } from "../model/normalize-calendar.ts";
import { normalizeSnapshot } from "../model/normalize-snapshot.ts";
import type { Calendar, CalendarEvent, PortalSnapshot } from "../model/types.ts";
import type { WireEvent, WireRecord } from "../model/wire.ts";
import { lastGoodKey } from "./last-good-key.ts";
import { NormalizeAside } from "./normalize-aside.ts";
import { type KeptSnapshot, NormalizeMemo } from "./normalize-memo.ts";
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
  /**
   * Each event normalized as soon as its details are in, with the calendars
   * as the snapshot lists them, while the rest are still being fetched: work
   * that needs one event only can start while the build waits on the portal
   * (src/cards). The snapshot is the one answer: an event seen here may still
   * be left out of it (a duplicate, a calendar that fails).
   */
  readonly onEvent?: (event: CalendarEvent, calendars: readonly Calendar[]) => void;
  /** How many events the lists have named so far, as they come in. */
  readonly onListed?: (events: number) => void;
  /**
   * The source this portal is, in a site of several (docs/sources.md): its
   * trouble is its own, so a rejected token falls back on its last good
   * data as an unreachable portal does, and the warning names it.
   */
  readonly source?: { readonly id: string; readonly name: string };
  /** The kept files a build started ahead read (src/ready); read now when absent. */
  readonly reads?: KeptReads;
}

/** What the build fetched: the snapshot, the lists it was read from, the summary figures. */
export interface FetchedPortal {
  readonly snapshot: PortalSnapshot;
  /** Every list page as read, for the build state (src/rebuild); null from the stale cache. */
  readonly lists: PortalLists | null;
  readonly summary: LoadSummary;
  /**
   * The response-cache files this fetch read or wrote, by name, for the
   * build to prune the others once published (pruneResponseCache); null
   * when built from the last good data, which leaves the cache as it was.
   */
  readonly cacheUsed: ReadonlySet<string> | null;
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
  const settings = { fieldMap: config.fieldMap, defaultTimeZone: options.defaultTimeZone };
  const source = { source: config.baseUrl, fetchedAt: options.now.toISOString() };
  let early: EarlyEvents | null = null;
  const cacheUsed = new Set<string>();
  const client = new PortalClient(config, {
    signal: options.signal,
    cacheUsed,
    onProgress: (progress) => {
      reporter.update(progress);
      if (progress.phase === "details") options.onListed?.(progress.total);
    },
    onWarning: warn,
    onListPage: lists.record,
    onCalendars: (records) => early?.calendars(records),
    onEvent: (calendarId, event) => early?.event(calendarId, event),
  });
  const store = new ResponseCache(config.cacheDir, client.http.redact, { used: cacheUsed });
  const memo = NormalizeMemo.load(
    config.cacheDir,
    settings,
    client.http.redact,
    options.source?.id,
    options.reads,
  );
  if (options.onEvent) early = earlyEvents(source, settings, memo, options.onEvent);
  const key = lastGoodKey(config, options.defaultTimeZone);
  // A fetch that fails before it is needed must not leave it unhandled.
  key.catch(() => {});
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
    const snapshot = await timedAsync("normalize", async () => {
      // Every event has been given to onEvent before the snapshot is returned.
      await early?.finish();
      const normalized = normalizeSnapshot(
        { ...source, calendars: wire, warnings },
        {
          ...settings,
          onWarning: (message) => reporter.warn(message),
          normalizeEvent: memo.normalizeEvent,
        },
      );
      memo.save();
      return normalized;
    });
    const lastGood = await key;
    // Its events are the memo's, just saved: kept by their keys, not written a second time.
    const kept = memo.keep(snapshot);
    if (kept) await timedAsync("fetch", () => store.set(lastGood, kept));
    return {
      snapshot,
      lists: lists.result(client),
      summary: summarize(snapshot, false),
      cacheUsed,
    };
  } catch (error) {
    const { source } = options;
    const fallsBack = source ? error instanceof ApiError : error instanceof ApiUnavailableError;
    if (!fallsBack || !(error instanceof ApiError) || config.allowStaleMs === null) throw error;
    const stored = store.get<KeptSnapshot | PortalSnapshot>(await key);
    const keptSnapshot = stored && lastGoodSnapshot(stored.value, memo);
    const named = source ? `source ${source.id} (${source.name}): ` : "";
    if (!stored || !keptSnapshot || stored.ageMs > config.allowStaleMs) {
      const why = !stored
        ? "there is no cached data"
        : !keptSnapshot
          ? "the cached data is incomplete (its events were not kept)"
          : `the cached data is ${formatMs(stored.ageMs)} old`;
      throw new ApiUnavailableError(
        `${named}${error.message} EVENT_API_ALLOW_STALE=${formatMs(config.allowStaleMs)} cannot help: ${why}.`,
        error.status,
        { cause: error },
      );
    }
    const notice = source
      ? `${named}${error.message.replace(/\.$/, "")}; using its data from ${keptSnapshot.fetchedAt} (${formatMs(stored.ageMs)} ago).`
      : `STALE DATA: the portal is unavailable (${error.message}) Building from cached data fetched ${keptSnapshot.fetchedAt} (${formatMs(stored.ageMs)} ago), allowed by EVENT_API_ALLOW_STALE.`;
    reporter.alert(notice);
    const snapshot: PortalSnapshot = Object.freeze({
      ...keptSnapshot,
      warnings: Object.freeze([...keptSnapshot.warnings, notice]),
    });
    return { snapshot, lists: null, summary: summarize(snapshot, true), cacheUsed: null };
  } finally {
    await Promise.all([client.close(), early?.close()]);
  }
}

/** The last good snapshot kept, or one an earlier version kept whole. */
function lastGoodSnapshot(
  kept: KeptSnapshot | PortalSnapshot,
  memo: NormalizeMemo,
): PortalSnapshot | null {
  if ("eventKeys" in kept && Array.isArray(kept.eventKeys)) return memo.keptSnapshot(kept);
  return "events" in kept && Array.isArray(kept.events) ? kept : null;
}

/**
 * What `onEvent` needs: the calendars normalized as the snapshot will list
 * them, and each event through the same memo the snapshot then reads, so no
 * event is normalized twice. Warnings are left to the snapshot's own pass.
 *
 * The events wait in a queue worked through between the event loop's turns
 * (setImmediate), a slice of EARLY_SLICE_MS at a time, rather than in the
 * answer's own callback: normalizing is about half a millisecond an event, and
 * done there it delayed every answer that arrived meanwhile, and with it the
 * next request of that slot. A cold build of 10,000 events (20 ms a request,
 * 16 at once) read the portal in 22 s that way, against 15 s without cards.
 * Even so, between the turns, it cost the fetch 2 s (docs/performance.md,
 * Known limits, "Share cards in a cold build"): an event the memo does not
 * know is now normalized on a thread of its own (NormalizeAside), and only
 * the memo's look-up and the hand-over stay on the build's thread.
 */
interface EarlyEvents {
  calendars(records: readonly WireRecord[]): void;
  event(calendarId: string, event: WireEvent): void;
  /** Works through the events still waiting, once the portal is read, and waits for those normalized aside. */
  finish(): Promise<void>;
  /** Stops the thread that normalizes them (NormalizeAside), however the fetch ended. */
  close(): Promise<void>;
}

function earlyEvents(
  source: { readonly source: string; readonly fetchedAt: string },
  settings: NormalizeOptions,
  memo: NormalizeMemo,
  onEvent: (event: CalendarEvent, calendars: readonly Calendar[]) => void,
): EarlyEvents {
  let calendars: readonly Calendar[] = [];
  const byId = new Map<string, Calendar>();
  // The events not worked through yet are queue[done...].
  const queue: [string, WireEvent][] = [];
  let done = 0;
  // A new event is normalized on a thread of its own; its cards are asked for when it is back.
  const aside = new NormalizeAside();
  // Only those not back yet: a 100,000-event build does not hold a promise per event.
  const away = new Set<Promise<void>>();
  return {
    calendars: (records: readonly WireRecord[]) => {
      const listed = normalizeSnapshot(
        { ...source, calendars: records.map((record) => ({ record, events: [] })) },
        settings,
      );
      calendars = listed.calendars;
      for (const calendar of calendars) byId.set(calendar.id, calendar);
    },
    event: (calendarId: string, wire: WireEvent) => {
      queue.push([calendarId, wire]);
      if (queue.length - done === 1) setImmediate(work);
    },
    finish: async () => {
      work(Number.POSITIVE_INFINITY);
      await Promise.all([...away]);
    },
    close: () => aside.close(),
  };

  function work(sliceMs = EARLY_SLICE_MS): void {
    const started = performance.now();
    while (done < queue.length && performance.now() - started < sliceMs) {
      const [calendarId, wire] = queue[done++] as [string, WireEvent];
      const calendar = byId.get(calendarId);
      if (!calendar) continue;
      try {
        const result = memo.normalizeAside(wire.listed, wire.details, calendar, settings, aside);
        if (result instanceof Promise) {
          const back: Promise<void> = result
            .then(handOn, () => {})
            .finally(() => away.delete(back));
          away.add(back);
        } else handOn(result);
      } catch {
        // Outside the fetch's promises, a throw would end the process: the
        // snapshot's own pass and the build's cards meet the same trouble
        // again, and report it there.
      }
    }
    if (done < queue.length) setImmediate(work);
    else queue.length = done = 0;
  }

  function handOn(result: Normalized<CalendarEvent> | null): void {
    try {
      if (result?.ok) onEvent(result.value, calendars);
    } catch {
      // As above: the build's cards meet it again.
    }
  }
}

/** The longest stretch of early events worked through before answers that came in are read. */
const EARLY_SLICE_MS = 4;
