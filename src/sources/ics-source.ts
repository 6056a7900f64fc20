import { createHash } from "node:crypto";
import ICAL from "ical.js";
import { ApiUnavailableError, formatMs } from "../api/errors.ts";
import { ResponseCache } from "../api/response-cache.ts";
import type { IcsSourceConfig } from "../config/sources.ts";
import { isValidZone } from "../model/dates.ts";
import { EMPTY_FIELD_MAP } from "../model/field-map.ts";
import { normalizeSnapshot } from "../model/normalize-snapshot.ts";
import type { PortalSnapshot } from "../model/types.ts";
import type { WireRecord } from "../model/wire.ts";
import type { FetchedPortal } from "../snapshot/load-snapshot.ts";
import type { ProgressSink } from "../snapshot/progress.ts";
import { type FeedResponse, type FeedValidators, fetchFeed } from "./feed-fetch.ts";

/**
 * A partner without a portal: its iCalendar feed (RFC 5545) read as one
 * calendar of its source (docs/sources.md, "iCalendar partners"). Each
 * VEVENT, and each date of a recurring one within the site's window, becomes
 * a wire record that the normalizer reads as it reads a portal's, so every
 * limit of a record (src/model/record-limits.ts) and every sanitizing step
 * holds for feeds too.
 *
 * - Recurrence (RRULE, RDATE, EXDATE) is expanded by ical.js on the wall
 *   clock of DTSTART's zone, so "every Thursday 19:30" stays 19:30 across a
 *   clock change; the zone is the TZID when it is an IANA name, else the
 *   X-LIC-LOCATION of its VTIMEZONE, else the site's zone (with a warning).
 * - A date moved or changed on its own (a VEVENT with the same UID and a
 *   RECURRENCE-ID) replaces the date it names, and keeps its id: the id of a
 *   date is its UID and its RECURRENCE-ID, so the site's page and UID of a
 *   moved date stay where they were.
 * - STATUS:CANCELLED (of the whole event or of one date) publishes it as
 *   cancelled, so subscribers' calendars are told; an EXDATE removes a date.
 * - Bounded: the feed's size (EVENT_API_MAX_RESPONSE_SIZE), its VEVENTs
 *   (MAX_COMPONENTS) and the dates of one series and of the feed.
 */

export interface IcsLoadOptions {
  readonly defaultTimeZone: string;
  readonly now: Date;
  readonly sink: ProgressSink | null;
  readonly signal?: AbortSignal;
  /** SITE_PAST_DAYS: how far back dates are published. */
  readonly pastDays?: number;
}

/** How far ahead recurring events are expanded: a year, as far as anyone plans a weekly date. */
export const ICS_HORIZON_DAYS = 366;
const MAX_COMPONENTS = 5_000;
const MAX_DATES_PER_SERIES = 1_000;
const MAX_DATES = 20_000;
const DAY_MS = 86_400_000;
/** The one calendar a feed is: its source's namespace makes it `<source>~events`. */
export const ICS_CALENDAR_ID = "events";

/** A feed as fetched, with the validators the build state records (null: its last good data). */
export interface FetchedFeed extends FetchedPortal {
  readonly feed: FeedValidators | null;
}

export async function loadIcsSource(
  source: IcsSourceConfig,
  options: IcsLoadOptions,
): Promise<FetchedFeed> {
  const started = performance.now();
  const cacheUsed = new Set<string>();
  const store = new ResponseCache(source.cacheDir, (text) => text, { used: cacheUsed });
  const key = `ics snapshot ${createHash("sha256").update(source.url).digest("hex")} ${options.defaultTimeZone}`;
  const summary = (snapshot: PortalSnapshot, stale: boolean) => {
    const line = `Feed: ${snapshot.events.length} events, ${snapshot.warnings.length} warnings${stale ? ", last good data" : ""}`;
    options.sink?.write(`${source.id}: ${line}\n`);
    return {
      line,
      requests: 1,
      retries: 0,
      notModified: 0,
      cacheHits: 0,
      detailsReused: 0,
      elapsedMs: performance.now() - started,
      stale,
    };
  };
  let fetched: Extract<FeedResponse, { notModified: false }>;
  try {
    // Asked without validators, the feed always sends its body.
    fetched = (await fetchFeed(source, { signal: options.signal })) as typeof fetched;
  } catch (error) {
    if (!(error instanceof ApiUnavailableError) || source.allowStaleMs === null) throw error;
    const stored = store.get<PortalSnapshot>(key);
    const named = `source ${source.id} (${source.name})`;
    if (!stored || stored.ageMs > source.allowStaleMs) {
      throw new ApiUnavailableError(`${named}: ${error.message} There is no recent data to use.`);
    }
    const notice = `${named}: ${error.message.replace(/\.$/, "")}; using its data from ${stored.value.fetchedAt} (${formatMs(stored.ageMs)} ago).`;
    options.sink?.write(`\n!!! ${notice}\n`);
    const snapshot = { ...stored.value, warnings: [...stored.value.warnings, notice] };
    return { snapshot, lists: null, feed: null, summary: summary(snapshot, true), cacheUsed: null };
  }
  const { text } = fetched;
  const warnings: string[] = [];
  const records = feedRecords(text, options, (message) => warnings.push(message));
  const snapshot = normalizeSnapshot(
    {
      source: `ics:${source.id}`,
      fetchedAt: options.now.toISOString(),
      calendars: [
        {
          record: { id: ICS_CALENDAR_ID, name: source.name, timeZone: options.defaultTimeZone },
          events: records.map((listed) => ({ listed, details: null })),
        },
      ],
      warnings,
    },
    { fieldMap: EMPTY_FIELD_MAP, defaultTimeZone: options.defaultTimeZone },
  );
  await store.set(key, snapshot);
  return {
    snapshot,
    lists: null,
    feed: fetched.validators,
    summary: summary(snapshot, false),
    cacheUsed,
  };
}

/** Each VEVENT, and each date of a recurring one in the window, as a wire record. */
export function feedRecords(
  text: string,
  options: Pick<IcsLoadOptions, "defaultTimeZone" | "now" | "pastDays">,
  warn: (message: string) => void,
): WireRecord[] {
  let calendar: ICAL.Component;
  try {
    calendar = new ICAL.Component(ICAL.parse(text) as unknown[]);
  } catch {
    throw new ApiUnavailableError("the feed is not an iCalendar file.");
  }
  const zones = zoneNames(calendar);
  const components = calendar.getAllSubcomponents("vevent");
  if (components.length > MAX_COMPONENTS) {
    warn(`the feed has ${components.length} events; the first ${MAX_COMPONENTS} are read`);
  }
  const from = options.now.getTime() - (options.pastDays ?? 90) * DAY_MS;
  const until = options.now.getTime() + ICS_HORIZON_DAYS * DAY_MS;
  // Dates changed on their own: UID -> RECURRENCE-ID (local) -> the component.
  const overrides = new Map<string, Map<string, ICAL.Component>>();
  const masters: ICAL.Component[] = [];
  for (const component of components.slice(0, MAX_COMPONENTS)) {
    const uid = String(component.getFirstPropertyValue("uid") ?? "");
    if (!uid) {
      warn("an event without a UID: skipped");
      continue;
    }
    const recurrenceId = component.getFirstPropertyValue("recurrence-id");
    if (recurrenceId instanceof ICAL.Time) {
      const list = overrides.get(uid) ?? new Map<string, ICAL.Component>();
      list.set(localKey(recurrenceId), component);
      overrides.set(uid, list);
    } else masters.push(component);
  }
  const records: WireRecord[] = [];
  for (const master of masters) {
    const uid = String(master.getFirstPropertyValue("uid"));
    const zone = zoneOf(master, zones, options.defaultTimeZone, warn);
    const own = overrides.get(uid);
    if (!master.hasProperty("rrule") && !master.hasProperty("rdate")) {
      records.push(record(master, uid, null, zone));
      continue;
    }
    const event = new ICAL.Event(master);
    const iterator = event.iterator();
    let dates = 0;
    for (let next = iterator.next(); next; next = iterator.next()) {
      const instant = roughMillis(next);
      if (instant > until) break;
      if (++dates > MAX_DATES_PER_SERIES) {
        warn(`event "${uid}": more than ${MAX_DATES_PER_SERIES} dates; the rest are left out`);
        break;
      }
      if (instant < from) continue;
      const key = localKey(next);
      const changed = own?.get(key);
      own?.delete(key);
      const base = changed ?? master;
      records.push(record(base, `${uid}_${key}`, changed ? null : next, zone));
      if (records.length >= MAX_DATES) break;
    }
    // A changed date whose RECURRENCE-ID the rule does not produce is an extra date.
    for (const [key, changed] of own ?? [])
      records.push(record(changed, `${uid}_${key}`, null, zone));
    if (records.length >= MAX_DATES) {
      warn(`the feed gives more than ${MAX_DATES} dates; the rest are left out`);
      break;
    }
  }
  return records;
}

/** One wire record, at `date` (a recurring event's date) or at its own DTSTART. */
function record(
  component: ICAL.Component,
  id: string,
  date: ICAL.Time | null,
  zone: string,
): WireRecord {
  const start = (date ?? (component.getFirstPropertyValue("dtstart") as ICAL.Time)).clone();
  const own = component.getFirstPropertyValue("dtstart") as ICAL.Time;
  const endValue = component.getFirstPropertyValue("dtend");
  const duration =
    endValue instanceof ICAL.Time
      ? endValue.subtractDate(own)
      : (component.getFirstPropertyValue("duration") as ICAL.Duration | null);
  const end = start.clone();
  if (duration) end.addDuration(duration);
  const status = String(component.getFirstPropertyValue("status") ?? "").toUpperCase();
  const location = component.getFirstPropertyValue("location");
  const url = component.getFirstPropertyValue("url");
  return {
    // Ids are the portal's to keep short: a long UID is known by its hash.
    id: id.length > 200 ? createHash("sha256").update(id).digest("hex") : id,
    title: component.getFirstPropertyValue("summary") ?? "",
    description: component.getFirstPropertyValue("description") ?? "",
    start: wallClock(start),
    end: wallClock(end),
    allDay: start.isDate,
    timeZone: start.zone?.tzid === "UTC" ? "UTC" : zone,
    status: status === "CANCELLED" ? "cancelled" : "scheduled",
    location: typeof location === "string" && location.trim() ? { name: location } : null,
    registrationUrl: typeof url === "string" ? url : null,
    updatedAt: (component.getFirstPropertyValue("last-modified") as ICAL.Time | null)?.toString(),
    revision: component.getFirstPropertyValue("sequence") ?? undefined,
  };
}

/** A date's wall clock as the normalizer reads it in the event's zone: "2026-04-02T19:30:00" or "2026-04-02". */
function wallClock(time: ICAL.Time): string {
  const pad = (n: number, width = 2) => String(n).padStart(width, "0");
  const day = `${pad(time.year, 4)}-${pad(time.month)}-${pad(time.day)}`;
  return time.isDate ? day : `${day}T${pad(time.hour)}:${pad(time.minute)}:${pad(time.second)}`;
}

/** A date on its wall clock, compact, for ids and for matching a RECURRENCE-ID. */
function localKey(time: ICAL.Time): string {
  return wallClock(time).replace(/[-:]/g, "");
}

/** Roughly when a date is, for the window: its wall clock read as UTC is within a day of it. */
function roughMillis(time: ICAL.Time): number {
  return Date.UTC(time.year, time.month - 1, time.day, time.hour, time.minute, time.second);
}

/** Each VTIMEZONE's TZID -> the IANA zone it stands for, where it says (X-LIC-LOCATION) or is one. */
function zoneNames(calendar: ICAL.Component): Map<string, string> {
  const names = new Map<string, string>();
  for (const zone of calendar.getAllSubcomponents("vtimezone")) {
    const tzid = String(zone.getFirstPropertyValue("tzid") ?? "");
    const location = String(zone.getFirstPropertyValue("x-lic-location") ?? "");
    if (isValidZone(tzid)) names.set(tzid, tzid);
    else if (isValidZone(location)) names.set(tzid, location);
  }
  return names;
}

function zoneOf(
  component: ICAL.Component,
  zones: ReadonlyMap<string, string>,
  fallback: string,
  warn: (message: string) => void,
): string {
  const tzid = component.getFirstProperty("dtstart")?.getParameter("tzid");
  if (typeof tzid !== "string" || !tzid) return fallback;
  const zone = zones.get(tzid) ?? (isValidZone(tzid) ? tzid : null);
  if (zone) return zone;
  warn(
    `event "${component.getFirstPropertyValue("uid")}": time zone "${tzid.slice(0, 60)}" is not known; read in ${fallback}`,
  );
  return fallback;
}
