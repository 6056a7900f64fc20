import { DateTime, IANAZone } from "luxon";
import { isPlainObject } from "./field-map.ts";
import { excerpt } from "./field-reader.ts";
import { formatInZone, formatUtc, offsetInstant } from "./offset-times.ts";
import { timeZone } from "./time-zone.ts";

/** A wire time: the instant (in the requested zone) and whether only a date was given. */
export interface WireTime {
  readonly value: DateTime;
  readonly dateOnly: boolean;
}

export interface EventTimes {
  readonly start: string;
  readonly end: string;
  readonly allDay: boolean;
}

const DATE_ONLY = /^\d{4}-?\d{2}-?\d{2}$/;
const EPOCH = /^-?\d{9,}$/;
/** Below this an epoch number is seconds, above it milliseconds (1e11 s is the year 5138). */
const EPOCH_MS_THRESHOLD = 1e11;

const zoneValidity = new Map<string, boolean>();

/** Luxon builds an Intl.DateTimeFormat per check; a build asks about the same few zones thousands of times. */
export function isValidZone(zone: string): boolean {
  let valid = zoneValidity.get(zone);
  if (valid === undefined) {
    valid = IANAZone.isValidZone(zone);
    if (zoneValidity.size < 1000) zoneValidity.set(zone, valid);
  }
  return valid;
}

/**
 * Parses the date forms portals use: ISO 8601 with an offset (an instant),
 * without one (wall-clock time in `zone`), a date only (all-day), SQL-style
 * "2026-05-01 10:00", RFC 2822, epoch seconds or milliseconds (number or
 * digit string), and `{ dateTime | date, timeZone }` objects (Google style).
 */
export function parseWireTime(raw: unknown, zone: string): WireTime | null {
  if (typeof raw === "number") return fromEpoch(raw, zone);
  if (isPlainObject(raw)) {
    const inner = raw.dateTime ?? raw.date_time ?? raw.date ?? raw.value;
    const innerZone = raw.timeZone ?? raw.timezone;
    const useZone = typeof innerZone === "string" && isValidZone(innerZone) ? innerZone : zone;
    const parsed = parseWireTime(inner, useZone);
    return parsed ? { ...parsed, value: parsed.value.setZone(timeZone(zone)) } : null;
  }
  if (typeof raw !== "string") return null;
  const text = raw.trim();
  if (text === "") return null;
  if (EPOCH.test(text)) return fromEpoch(Number(text), zone);
  if (DATE_ONLY.test(text)) {
    const value = DateTime.fromISO(text, { zone: timeZone(zone) });
    return value.isValid ? { value: value.startOf("day"), dateOnly: true } : null;
  }
  for (const parse of [DateTime.fromISO, DateTime.fromSQL, DateTime.fromRFC2822]) {
    const value = parse(text, { zone: timeZone(zone) });
    if (value.isValid) return { value, dateOnly: false };
  }
  return null;
}

function fromEpoch(epoch: number, zone: string): WireTime | null {
  if (!Number.isFinite(epoch)) return null;
  const ms = Math.abs(epoch) < EPOCH_MS_THRESHOLD ? epoch * 1000 : epoch;
  const value = DateTime.fromMillis(ms, { zone: timeZone(zone) });
  return value.isValid ? { value, dateOnly: false } : null;
}

/** An instant as ISO 8601 UTC ("2026-03-01T08:00:00Z"), or null when absent or unreadable. */
export function parseInstant(raw: unknown): string | null {
  const instant = typeof raw === "string" ? offsetInstant(raw.trim()) : null;
  if (instant !== null) return formatUtc(instant);
  const parsed = parseWireTime(raw, "UTC");
  return parsed ? formatTime(parsed.value.toUTC()) : null;
}

export function formatTime(value: DateTime): string {
  return value.toISO({ suppressMilliseconds: true }) ?? "";
}

/**
 * Start, exclusive end and all-day flag in the event's zone, or the reason the
 * record is unusable.
 *
 * All-day events follow RFC 5545 section 3.6.1: DTEND is the exclusive day
 * after the last one. A date-only end equal to the start is read as an
 * inclusive one-day event (portals that store inclusive end dates), and a
 * timed end on an all-day event covers the day it falls on. A timed event
 * without an end ends when it starts (types.ts).
 */
export function resolveEventTimes(
  rawStart: unknown,
  rawEnd: unknown,
  rawAllDay: unknown,
  zone: string,
): EventTimes | { readonly error: string } {
  if (rawStart === undefined) return { error: "no start date" };
  const timed = offsetTimes(rawStart, rawEnd, rawAllDay, zone);
  if (timed) return timed;
  const start = parseWireTime(rawStart, zone);
  if (!start) return { error: `unparseable start date ${describe(rawStart)}` };
  const end = rawEnd === undefined ? null : parseWireTime(rawEnd, zone);
  if (rawEnd !== undefined && !end) return { error: `unparseable end date ${describe(rawEnd)}` };
  const allDay = readBoolean(rawAllDay) ?? start.dateOnly;

  if (allDay) {
    const first = start.value.setZone(timeZone(zone)).startOf("day");
    let after = first.plus({ days: 1 });
    if (end) {
      const local = end.value.setZone(timeZone(zone));
      const endDay = local.startOf("day");
      if (endDay < first) return { error: "end before start" };
      if (end.dateOnly || local.equals(endDay)) {
        after = endDay > first ? endDay : first.plus({ days: 1 });
      } else {
        after = endDay.plus({ days: 1 });
      }
    }
    return { start: formatTime(first), end: formatTime(after), allDay: true };
  }

  const from = start.value.setZone(timeZone(zone));
  const until = end ? end.value.setZone(timeZone(zone)) : from;
  if (until < from) return { error: "end before start" };
  return { start: formatTime(from), end: formatTime(until), allDay: false };
}

/**
 * resolveEventTimes for a timed event whose times are ISO 8601 with an
 * offset (src/model/offset-times.ts), read without Luxon; null for any other
 * record, which Luxon reads.
 */
function offsetTimes(
  rawStart: unknown,
  rawEnd: unknown,
  rawAllDay: unknown,
  zone: string,
): EventTimes | { readonly error: string } | null {
  if (typeof rawStart !== "string" || (rawEnd !== undefined && typeof rawEnd !== "string")) {
    return null;
  }
  if (readBoolean(rawAllDay) === true) return null;
  const start = offsetInstant(rawStart.trim());
  const end = rawEnd === undefined ? start : offsetInstant(rawEnd.trim());
  if (start === null || end === null) return null;
  const eventZone = timeZone(zone);
  if (!eventZone.isValid) return null;
  if (end < start) return { error: "end before start" };
  const from = formatInZone(start, eventZone);
  const until = formatInZone(end, eventZone);
  return from && until ? { start: from, end: until, allDay: false } : null;
}

export function readBoolean(raw: unknown): boolean | null {
  if (typeof raw === "boolean") return raw;
  if (raw === 1 || raw === 0) return raw === 1;
  if (typeof raw === "string") {
    const text = raw.trim().toLowerCase();
    if (["true", "yes", "1", "y"].includes(text)) return true;
    if (["false", "no", "0", "n"].includes(text)) return false;
  }
  return null;
}

/**
 * A value as a warning quotes it: a string's start, one line, well-formed; a
 * list or an object by its kind only (serialized, it could be megabytes, or
 * nested deeper than JSON.stringify's stack reaches).
 */
function describe(raw: unknown): string {
  if (typeof raw === "string") return `"${excerpt(raw, 60)}"`;
  if (Array.isArray(raw)) return "(a list)";
  if (typeof raw === "object" && raw !== null) return "(an object)";
  return String(raw);
}
