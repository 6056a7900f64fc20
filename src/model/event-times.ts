import { DateTime, type Zone } from "luxon";
import { count } from "../metrics.ts";
import { type OffsetTime, offsetInstant, offsetTime } from "./offset-times.ts";
import { timeZone } from "./time-zone.ts";
import type { CalendarEvent } from "./types.ts";

/**
 * An event's start and end as Luxon times in the event's own zone: the one
 * parsing every output shares, so pages, feeds and calendars agree on when an
 * event happens whatever the build machine's zone.
 */
export interface EventTimes {
  readonly start: DateTime;
  /** Exclusive end (RFC 5545 DTEND semantics), never before start. */
  readonly end: DateTime;
  /** The last local day the event occupies (for all-day events: the day before `end`). */
  readonly lastDay: DateTime;
}

type TimedFields = Pick<CalendarEvent, "start" | "end" | "allDay" | "timeZone">;

// Parsing in an IANA zone costs Luxon several Intl offset look-ups; every
// event is asked for by pages, views, feeds and calendars, so each event
// object is parsed once per build. Snapshot events are immutable.
const parsed = new WeakMap<TimedFields, EventTimes | null>();

/** Null when start or end is not a valid ISO instant (the caller skips the event with a warning). */
export function eventTimes(event: TimedFields): EventTimes | null {
  let times = parsed.get(event);
  if (times === undefined) {
    times = parseEventTimes(event);
    parsed.set(event, times);
  }
  return times;
}

function parseEventTimes(event: TimedFields): EventTimes | null {
  count("eventTimesParsed");
  const zone = timeZone(event.timeZone);
  if (!zone.isValid) return null;
  // As snapshots write times (types.ts): with their offset, read without Luxon.
  const startMs = offsetInstant(event.start);
  const endMs = offsetInstant(event.end);
  let start: DateTime;
  let end: DateTime;
  if (startMs !== null && endMs !== null) {
    start = atInstant(zone, startMs);
    end = endMs > startMs ? start.plus(endMs - startMs) : start;
  } else {
    // Another form (no offset: a local time in the event's zone): Luxon reads it.
    start = DateTime.fromISO(event.start, { zone });
    const parsedEnd = DateTime.fromISO(event.end, { zone });
    if (!start.isValid || !parsedEnd.isValid) return null;
    end = DateTime.max(start, parsedEnd);
  }
  const lastDay = event.allDay ? end.minus({ days: 1 }).startOf("day") : end.startOf("day");
  return { start, end, lastDay: DateTime.max(start.startOf("day"), lastDay) };
}

/*
 * Every DateTime that a Luxon factory makes (fromISO, fromMillis) gets a
 * Locale object of its own, about 500 bytes with its caches, kept as long as
 * the DateTime; one derived from another (plus, startOf) shares its
 * Locale. An event's times are kept for the whole build, so they are all
 * derived from one DateTime per zone: at 100,000 events that is about
 * 90 MB less held (docs/performance.md, "Memory at 100,000 events").
 */
const origins = new Map<Zone, DateTime>();

/** The DateTime of an instant in `zone`, sharing the zone's one Locale. */
function atInstant(zone: Zone, ms: number): DateTime {
  let origin = origins.get(zone);
  if (!origin) {
    origin = DateTime.fromMillis(0, { zone });
    origins.set(zone, origin);
  }
  return origin.plus(ms);
}

/*
 * Instants and local dates read from the ISO strings themselves. A snapshot
 * writes each time with its offset, in the event's own zone (types.ts), so
 * the instant and the local date need no zone rules: windows and day lists
 * over every event of a large site cost no Luxon parse at all, and only the
 * events a page, feed or calendar file shows are parsed (once, above).
 */

/** The start instant (epoch ms). */
export function startMillis(event: Pick<CalendarEvent, "start">): number {
  return Date.parse(event.start);
}

/**
 * Each event's end instant, read once: the windows, lists and change
 * checks ask for it of every event, many times a build (about 0.9 s of one
 * edited build at 100,000 events went to parsing the two strings again).
 * Keyed by the event itself, as the parsed times are.
 */
const endsMs = new WeakMap<object, number>();

/** The exclusive end instant (epoch ms), never before the start. */
export function endMillis(event: Pick<CalendarEvent, "start" | "end">): number {
  let end = endsMs.get(event);
  if (end === undefined) {
    end = Math.max(Date.parse(event.start), Date.parse(event.end));
    endsMs.set(event, end);
  }
  return end;
}

/**
 * Whether an event ended before `instantMs`; one ending exactly then has not.
 * The one rule behind every window: upcoming vs past on pages, the archive and
 * public JSON reach, feeds and subscriptions. A point-in-time event ends when
 * it starts.
 */
export function endedBefore(event: CalendarEvent, instantMs: number): boolean {
  return instantMs >= endedFrom(event);
}

/** The first instant (ms) at which `endedBefore` holds: the moment the event leaves "upcoming". */
export function endedFrom(event: CalendarEvent): number {
  const end = endMillis(event);
  // Unreadable times are a bug upstream: validEventTimes says which event.
  return (Number.isNaN(end) ? validEventTimes(event).end.toMillis() : end) + 1;
}

/** The local date (yyyy-mm-dd) an event starts on, in its own zone. */
export function localStartDate(event: Pick<CalendarEvent, "start">): string {
  return event.start.slice(0, 10);
}

/**
 * The local dates (yyyy-mm-dd) an event occupies in its own zone, at most a
 * year of them. The end is exclusive: an event ending at local midnight does
 * not occupy the day that midnight begins.
 */
export function localDays(event: Pick<CalendarEvent, "start" | "end">): string[] {
  const first = localStartDate(event);
  let last = first;
  if (Date.parse(event.end) > Date.parse(event.start)) {
    last = event.end.slice(0, 10);
    const time = event.end.slice(11).replace(/(?:Z|[+-]\d{2}:\d{2})$/, "");
    if (/^00:00:00(?:\.0*)?$/.test(time)) last = addDays(last, -1);
  }
  // Most events occupy one day: no date arithmetic for them (a tenth of the views' time).
  if (last <= first) return [first];
  const days = [first];
  for (let day = addDays(first, 1); day <= last && days.length < 366; day = addDays(day, 1)) {
    days.push(day);
  }
  return days;
}

function addDays(isoDate: string, days: number): string {
  const [year = 0, month = 1, day = 1] = isoDate.split("-").map(Number);
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day + days);
  return date.toISOString().slice(0, 10);
}

/** For events from the normalizer, whose times are valid by construction. */
export function validEventTimes(event: CalendarEvent): EventTimes {
  const times = eventTimes(event);
  if (!times) throw new Error(`Event ${event.calendarId}/${event.id} has invalid times`);
  return times;
}

/** A time as a date or time shows it: its wall clock and offset in the zone it is shown in. */
export interface WallTime extends OffsetTime {
  /** The zone, as Luxon names it. */
  readonly zone: string;
}

/** A Luxon time's wall clock. */
export function wallTime(time: DateTime): WallTime {
  const { year, month, day, hour, minute, offset } = time;
  return {
    year,
    month,
    day,
    hour,
    minute,
    zone: time.zoneName ?? "UTC",
    offset,
    ms: time.toMillis(),
  };
}

/**
 * An event's start and end as wall clocks of its own zone, the end never
 * before the start: what validEventTimes gives, read from the strings
 * themselves when each names its instant with the zone's own offset there
 * (as the model writes them, types.ts), so that no Luxon time is made. List
 * rows and search records show every event's time, and parsing it with
 * Luxon was most of that (docs/performance.md, What changed, item 93).
 */
export function eventWallTimes(event: CalendarEvent): { start: WallTime; end: WallTime } {
  const zone = timeZone(event.timeZone);
  const start = zone.isValid ? offsetTime(event.start) : null;
  const end = start && offsetTime(event.end);
  if (start && end && inZone(start, zone) && inZone(end, zone)) {
    const startWall = { ...start, zone: zone.name };
    return { start: startWall, end: end.ms > start.ms ? { ...end, zone: zone.name } : startWall };
  }
  const times = validEventTimes(event);
  return { start: wallTime(times.start), end: wallTime(times.end) };
}

/** Whether a time's offset is its zone's at its instant: then its wall clock is the zone's. */
function inZone(time: OffsetTime, zone: Zone): boolean {
  return zone.offset(time.ms) === time.offset;
}

/** Whether two wall clocks of one zone fall on the same day. */
export function sameWallDay(a: WallTime, b: WallTime): boolean {
  return a.day === b.day && a.month === b.month && a.year === b.year;
}

/**
 * Whether two times in the same zone fall on the same local calendar day.
 * Luxon's `hasSame(other, "day")` answers it through a zone change and two
 * day boundaries (three offset look-ups in Intl); comparing the local fields
 * is enough when both are in one zone, as an event's start and end are.
 */
export function sameLocalDay(a: DateTime, b: DateTime): boolean {
  if (a.zoneName !== b.zoneName) return a.hasSame(b, "day");
  return a.day === b.day && a.month === b.month && a.year === b.year;
}
