import type { PortalLists } from "../api/list-recorder.ts";
import type { SourceConfig, SourcesConfig } from "../config/sources.ts";
import { timedAsync } from "../metrics.ts";
import { byName } from "../model/normalize-snapshot.ts";
import { sortedByStart } from "../model/order.ts";
import type { Calendar, CalendarEvent, PortalSnapshot } from "../model/types.ts";
import { sourceCalendarId } from "../model/url-scheme.ts";
import {
  type FetchedPortal,
  type LoadSnapshotOptions,
  loadSnapshot,
} from "../snapshot/load-snapshot.ts";
import { loadIcsSource } from "./ics-source.ts";
import { sameEvents } from "./same-events.ts";
import type { SourceRead } from "./source-read.ts";

/**
 * A site of several sources (EVENT_SOURCES_FILE, docs/sources.md): each
 * source fetched as a site of one portal fetches it (its own last good data,
 * its own warnings), its calendars put in its namespace, then the sources
 * joined into the one snapshot every later stage reads, each event that two
 * organizations publish once (same-events.ts).
 */

export interface LoadSourcesOptions extends Omit<LoadSnapshotOptions, "config" | "source"> {
  readonly sources: SourcesConfig;
  /** SITE_PAST_DAYS: how far back a feed's recurring events are expanded. */
  readonly pastDays?: number;
}

/** What one source gave, for the build state, the report and the shrink guard. */
export interface SourceOutcome {
  readonly id: string;
  readonly name: string;
  readonly kind: SourceConfig["kind"];
  /** Its list pages as read (null: its last good data, or a feed). */
  readonly lists: PortalLists | null;
  /** Built from its last good data. */
  readonly stale: boolean;
  /** When its data was fetched. */
  readonly fetchedAt: string;
  readonly events: number;
  /** The summary line of its fetch. */
  readonly line: string;
  /** What the build state records of it (src/rebuild/build-state.ts). */
  readonly read: SourceRead;
}

export interface FetchedSources extends FetchedPortal {
  readonly sources: readonly SourceOutcome[];
  /** One line per event merged into another source's (also among the snapshot's warnings). */
  readonly merged: readonly string[];
}

export async function loadSources(options: LoadSourcesOptions): Promise<FetchedSources> {
  const { sources } = options.sources;
  let listed = 0;
  const listedBy = new Map<string, number>();
  const fetched = await Promise.all(
    sources.map(async (source) => {
      const namespace = namespacer(source);
      const onEvent = options.onEvent;
      const loaded =
        source.kind === "ics"
          ? await loadIcsSource(source, {
              defaultTimeZone: options.defaultTimeZone,
              now: options.now,
              sink: options.sink,
              signal: options.signal,
              pastDays: options.pastDays,
            })
          : {
              feed: null,
              ...(await loadSnapshot({
                ...options,
                config: source.api,
                source: { id: source.id, name: source.name },
                onEvent:
                  onEvent &&
                  ((event, calendars) =>
                    onEvent(namespace.event(event), calendars.map(namespace.calendar))),
                onListed: (events) => {
                  listed += events - (listedBy.get(source.id) ?? 0);
                  listedBy.set(source.id, events);
                  options.onListed?.(listed);
                },
              })),
            };
      return { source, namespace, loaded };
    }),
  );
  return timedAsync("normalize", async () => {
    const calendars = new Map<string, Calendar>();
    const events: CalendarEvent[] = [];
    const warnings: string[] = [];
    const outcomes: SourceOutcome[] = [];
    for (const { source, namespace, loaded } of fetched) {
      const { snapshot } = loaded;
      for (const calendar of snapshot.calendars.map(namespace.calendar)) {
        // Only a primary source's own id can look like another source's namespace.
        if (calendars.has(calendar.id)) {
          warnings.push(
            `source ${source.id} (${source.name}), calendar "${calendar.id}": skipped (another source's calendar has its address)`,
          );
          continue;
        }
        calendars.set(calendar.id, calendar);
      }
      for (const event of snapshot.events) {
        const own = namespace.event(event);
        if (calendars.get(own.calendarId)?.source === source.id) events.push(own);
      }
      warnings.push(...snapshot.warnings.map((warning) => `source ${source.id}: ${warning}`));
      outcomes.push({
        id: source.id,
        name: source.name,
        kind: source.kind,
        lists: loaded.lists,
        stale: loaded.summary.stale,
        fetchedAt: snapshot.fetchedAt,
        events: snapshot.events.length,
        line: loaded.summary.line,
        read:
          source.kind === "ics"
            ? { id: source.id, kind: "ics", url: source.url, feed: loaded.feed }
            : { id: source.id, kind: "portal", config: source.api, lists: loaded.lists },
      });
    }
    const joined = sameEvents(sortedByStart(events), sources, (warning) => warnings.push(warning));
    const fetchedAt = options.now.toISOString();
    const snapshot: PortalSnapshot = Object.freeze({
      source: options.sources.file,
      fetchedAt,
      calendars: Object.freeze([...calendars.values()].sort(byName)),
      events: Object.freeze(joined.events),
      warnings: Object.freeze([...warnings, ...joined.warnings]),
      sources: Object.freeze(sources.map((source) => ({ id: source.id, name: source.name }))),
    });
    const summaries = fetched.map(({ loaded }) => loaded.summary);
    return {
      snapshot,
      lists: null,
      cacheUsed: cacheUsedByAll(fetched.map(({ loaded }) => loaded.cacheUsed)),
      sources: outcomes,
      merged: joined.warnings,
      summary: {
        line: outcomes.map((outcome) => `${outcome.id}: ${outcome.line}`).join("\n"),
        requests: sum(summaries.map((s) => s.requests)),
        retries: sum(summaries.map((s) => s.retries)),
        notModified: sum(summaries.map((s) => s.notModified)),
        cacheHits: sum(summaries.map((s) => s.cacheHits)),
        detailsReused: sum(summaries.map((s) => s.detailsReused)),
        elapsedMs: Math.max(0, ...summaries.map((s) => s.elapsedMs)),
        stale: summaries.some((s) => s.stale),
      },
    };
  });
}

const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);

/**
 * The cache files every source used, for the build to prune the others; null
 * when any source was built from its last good data: the sources share one
 * cache folder, and what that source did not touch is what it needs next.
 */
function cacheUsedByAll(used: readonly (ReadonlySet<string> | null)[]): ReadonlySet<string> | null {
  if (used.some((names) => names === null)) return null;
  return new Set(used.flatMap((names) => [...(names ?? [])]));
}

/** A source's calendars and events in its namespace, with the source named. */
function namespacer(source: SourceConfig) {
  const id = (calendarId: string) =>
    source.primary ? calendarId : sourceCalendarId(source.id, calendarId);
  return {
    calendar: (calendar: Calendar): Calendar => ({
      ...calendar,
      id: id(calendar.id),
      source: source.id,
    }),
    event: (event: CalendarEvent): CalendarEvent => ({
      ...event,
      calendarId: id(event.calendarId),
      source: source.id,
    }),
  };
}
