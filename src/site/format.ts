import { DateTime } from "luxon";
import { count } from "../metrics.ts";
import {
  eventWallTimes,
  sameWallDay,
  validEventTimes,
  type WallTime,
  wallTime,
} from "../model/event-times.ts";
import { offsetText } from "../model/offset-times.ts";
import { PerEvent } from "../model/per-event.ts";
import { timeZone as zoneNamed } from "../model/time-zone.ts";
import type { CalendarEvent } from "../model/types.ts";
import { weekRules } from "./when/week-rules.ts";

/**
 * Human-readable dates and times, always in the event's own time zone and
 * formatted with Intl for the site language, so the output never depends on
 * the build machine's zone.
 */

const dayFormat = { weekday: "long", day: "numeric", month: "long", year: "numeric" } as const;
const timeFormat = { hour: "2-digit", minute: "2-digit" } as const;

// Building an Intl.DateTimeFormat costs far more than using one; a site build
// formats thousands of dates with a handful of option sets.
const formatters = new Map<string, Intl.DateTimeFormat>();

/** An Intl date format, made once per language, zone and options. */
export function formatter(lang: string, timeZone: string, options: Intl.DateTimeFormatOptions) {
  const key = `${lang}|${timeZone}|${JSON.stringify(options)}`;
  let format = formatters.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(lang, { ...options, timeZone });
    formatters.set(key, format);
  }
  return format;
}

/** "Sunday 29 March 2026" in the given zone. */
export function formatDay(iso: string, lang: string, timeZone: string): string {
  return formatter(lang, timeZone, dayFormat).format(new Date(iso));
}

// Every list page, month cell and card labels its days; a site has a few
// hundred distinct days, each labelled many times.
const dayLabels = new Map<string, string>();

/** "Sunday 29 March 2026" for a local date (yyyy-mm-dd) of the given zone. */
export function formatLocalDay(isoDate: string, lang: string, timeZone: string): string {
  const key = `${lang}|${timeZone}|${isoDate}`;
  let label = dayLabels.get(key);
  if (label === undefined) {
    const instant = DateTime.fromISO(isoDate, { zone: zoneNamed(timeZone) }).toISO() ?? isoDate;
    label = formatDay(instant, lang, timeZone);
    dayLabels.set(key, label);
  }
  return label;
}

// A zone's short name follows its offset (CET/CEST, EST/EDT): one Intl call per zone and offset.
const abbreviations = new Map<string, string>();

/** Short zone name at that instant ("CET", "CEST", "GMT-4"). */
function zoneAbbreviation(time: WallTime, lang: string): string {
  const key = `${lang}|${time.zone}|${time.offset}`;
  let name = abbreviations.get(key);
  if (name === undefined) {
    const parts = formatter(lang, time.zone, { timeZoneName: "short" }).formatToParts(time.ms);
    name = parts.find((p) => p.type === "timeZoneName")?.value ?? offsetText(time.offset);
    abbreviations.set(key, name);
  }
  return name;
}

/**
 * The full "when" line of an event page, e.g.
 * "Sunday 29 March 2026, 10:00–13:00 CEST" or "Friday 15 May – Sunday 17 May 2026".
 * An event across a DST change names both offsets, because one zone label for
 * the whole range (what Intl's formatRange does) misstates the start.
 */
export function formatWhen(event: CalendarEvent, lang: string): string {
  return whens.get(event, lang, () => whenOf(event, lang));
}

// An event's "when" line is on its page, its card and, as its link's text, on
// every "when" page that lists it (today, this weekend, the next seven days...).
const whens = new PerEvent<string>();

function whenOf(event: CalendarEvent, lang: string): string {
  count("whenLinesMade");
  const times = validEventTimes(event);
  const start = wallTime(times.start);
  if (event.allDay) {
    const lastDay = wallTime(times.lastDay);
    if (sameWallDay(lastDay, start)) return wallFormat(lang, "day", start);
    return wallFormat(lang, "day", start, lastDay);
  }
  const end = wallTime(times.end);
  const startZone = zoneAbbreviation(start, lang);
  const endZone = zoneAbbreviation(end, lang);
  if (end.ms === start.ms) return `${wallFormat(lang, "dayAndTime", start)} ${startZone}`;
  if (startZone !== endZone) {
    return `${wallFormat(lang, "dayAndTime", start)} ${startZone} – ${wallFormat(lang, "dayAndTime", end)} ${endZone}`;
  }
  return `${wallFormat(lang, "dayAndTime", start, end)} ${startZone}`;
}

const WALL_FORMATS = {
  day: dayFormat,
  dayAndTime: { ...dayFormat, ...timeFormat },
  dayMonthAndTime: { day: "numeric", month: "short", ...timeFormat },
  time: timeFormat,
} as const satisfies Record<string, Intl.DateTimeFormatOptions>;

// Intl's format and formatRange cost tens of microseconds each, and a site
// shows the same dates and times again and again ("19:30–21:00" on hundreds
// of events). Without a zone name, what they print depends only on the
// language and the wall-clock fields shown, so the text is kept by those.
const wallTexts = new Map<string, string>();

/** Intl text of one time, or a range (formatRange) in one zone, from its wall-clock fields. */
function wallFormat(
  lang: string,
  kind: keyof typeof WALL_FORMATS,
  start: WallTime,
  end?: WallTime,
): string {
  if (kind === "dayAndTime" && end && sameWallDay(start, end)) {
    const text = sameDayRange(lang, start, end);
    if (text !== undefined) return text;
  }
  const wall = (t: WallTime) =>
    kind === "time"
      ? `${t.hour}:${t.minute}`
      : `${t.year}-${t.month}-${t.day} ${t.hour}:${t.minute}`;
  const key = `${lang}|${kind}|${wall(start)}|${end ? wall(end) : ""}`;
  let text = wallTexts.get(key);
  if (text === undefined) {
    const format = formatter(lang, start.zone, WALL_FORMATS[kind]);
    text = end ? format.formatRange(start.ms, end.ms) : format.format(start.ms);
    wallTexts.set(key, text);
  }
  return text;
}

// An event page's "Sunday 29 March 2026, 10:00–13:00" is rarely the text of
// another event: the days differ. Its times' range pattern, the day's names
// left to fill in, is shared by many (a 10,000-event build asked formatRange
// 10,000 times for 0.55 s), and so is each day's names.
const DAY_FIELDS: ReadonlySet<string> = new Set(["weekday", "day", "month", "year"]);
const rangePatterns = new Map<string, readonly Intl.DateTimeRangeFormatPart[] | null>();
const dayNames = new Map<string, ReadonlyMap<string, string>>();

/**
 * formatRange's text of a range within one day, from the pattern of its
 * times (formatRangeToParts on a day of reference) with the day's own names
 * (formatToParts) in place of the reference day's: what formatRange writes,
 * since the fields are the same. Undefined when the pattern does not show the
 * day once for both ends, or a name is missing: the caller asks formatRange.
 */
function sameDayRange(lang: string, start: WallTime, end: WallTime): string | undefined {
  const times = `${lang}|${start.hour}:${start.minute}|${end.hour}:${end.minute}`;
  let pattern = rangePatterns.get(times);
  if (pattern === undefined) {
    const parts = formatter(lang, "UTC", WALL_FORMATS.dayAndTime).formatRangeToParts(
      utcWall(2026, 1, 5, start.hour, start.minute),
      utcWall(2026, 1, 5, end.hour, end.minute),
    );
    const shared = parts.every((part) => !DAY_FIELDS.has(part.type) || part.source === "shared");
    pattern = shared ? parts : null;
    rangePatterns.set(times, pattern);
  }
  if (!pattern) return undefined;
  const day = `${lang}|${start.year}-${start.month}-${start.day}`;
  let names = dayNames.get(day);
  if (!names) {
    const parts = formatter(lang, "UTC", dayFormat).formatToParts(
      utcWall(start.year, start.month, start.day, 12, 0),
    );
    names = new Map(
      parts.filter((part) => DAY_FIELDS.has(part.type)).map((part) => [part.type, part.value]),
    );
    dayNames.set(day, names);
  }
  let text = "";
  for (const part of pattern) {
    const value = DAY_FIELDS.has(part.type) ? names.get(part.type) : part.value;
    if (value === undefined) return undefined;
    text += value;
  }
  return text;
}

/** The instant whose UTC wall clock is the given one (years before 100 included). */
function utcWall(year: number, month: number, day: number, hour: number, minute: number): Date {
  const date = new Date(Date.UTC(2000, month - 1, day, hour, minute));
  date.setUTCFullYear(year);
  return date;
}

// List rows, month cells, category and home pages show the same event's time
// again and again; computing it costs Luxon zone math plus Intl formatRange.
const timeRanges = new PerEvent<string>();

/** Time of day for list rows: "10:00–13:00", "10:00", or "" for all-day events. */
export function formatTimeRange(event: CalendarEvent, lang: string): string {
  if (event.allDay) return "";
  return timeRanges.get(event, lang, () => timeRangeOf(event, lang));
}

/**
 * A list row's time as lists show it on a page in `pageZone`: the range in
 * the event's own zone, with the zone's abbreviation when it is another one
 * than the page's (a viewer would misread it otherwise); "" for all-day events.
 */
export function formatListTime(event: CalendarEvent, lang: string, pageZone?: string): string {
  const range = formatTimeRange(event, lang);
  if (!range || !pageZone || pageZone === event.timeZone) return range;
  return `${range} ${zoneAbbreviation(eventWallTimes(event).start, lang)}`;
}

function timeRangeOf(event: CalendarEvent, lang: string): string {
  const { start, end } = eventWallTimes(event);
  if (end.ms === start.ms) return wallFormat(lang, "time", start);
  if (!sameWallDay(end, start)) return wallFormat(lang, "dayMonthAndTime", start, end);
  // Same day: the range shows times only, so the date is not part of the key.
  return wallFormat(lang, "time", start, end);
}

/** "March 2026" */
export function formatMonth(year: number, month: number, lang: string): string {
  return formatter(lang, "UTC", { month: "long", year: "numeric" }).format(
    Date.UTC(year, month - 1, 15),
  );
}

const displayNames = new Map<string, string>();

/** "Central European Time (Europe/Amsterdam)": the zone, not one of its offsets. */
export function zoneDisplayName(timeZone: string, lang: string): string {
  const key = `${lang}|${timeZone}`;
  let name = displayNames.get(key);
  if (name === undefined) {
    name = computeZoneDisplayName(timeZone, lang);
    displayNames.set(key, name);
  }
  return name;
}

function computeZoneDisplayName(timeZone: string, lang: string): string {
  const parts = formatter(lang, timeZone, { timeZoneName: "longGeneric" }).formatToParts(
    Date.UTC(2026, 0, 1),
  );
  const name = parts.find((p) => p.type === "timeZoneName")?.value;
  const id = timeZone.replace(/_/g, " ");
  return name && name !== id ? `${name} (${id})` : id;
}

/** A date-time for "last updated" notes, in the site's zone. */
export function formatDateTime(iso: string, lang: string, timeZone: string): string {
  return formatter(lang, timeZone, { dateStyle: "long", timeStyle: "short" }).format(new Date(iso));
}

/**
 * Weekday names in the order of the locale's week: from its CLDR first day
 * (Monday in most of Europe, Sunday in the US and Japan, Saturday in Egypt),
 * as the month grids lay their days out (src/site/views.ts).
 */
export function weekdayNames(lang: string, width: "short" | "long" = "short"): string[] {
  const format = formatter(lang, "UTC", { weekday: width });
  const { firstDay } = weekRules(lang);
  // 2024-01-01 was a Monday (ISO weekday 1).
  return Array.from({ length: 7 }, (_, i) =>
    format.format(Date.UTC(2024, 0, 1 + ((firstDay - 1 + i) % 7))),
  );
}
