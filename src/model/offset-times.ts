import { DateTime, type Zone } from "luxon";

/**
 * ISO 8601 with an offset ("2026-03-01T09:00:00+01:00", "2026-03-01T08:00Z"),
 * read and written without Luxon: the form portals send their times in most,
 * and the one the model writes every time in (types.ts). Luxon's ISO parser
 * and formatter were most of normalizing an event (four times a record:
 * start, end, created, updated), on the build's thread while the portal is
 * read (docs/performance.md, What changed, item 43): 6-8 µs a time
 * against about 0.5 µs here.
 *
 * Only a time whose every field is in range is read here, in years from
 * 1900 (older ones may fall in a zone's local mean time, with offsets in
 * seconds): anything else returns null, for Luxon to read or refuse as
 * before. test/model/offset-times.test.ts holds the answers to Luxon's.
 */
const OFFSET_TIME =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(?:Z|([+-])(\d{2}):(\d{2}))$/;

/** A time in that form: its wall clock as written, its offset and the instant they name. */
export interface OffsetTime {
  readonly year: number;
  readonly month: number;
  readonly day: number;
  readonly hour: number;
  readonly minute: number;
  /** Minutes east of UTC ("Z": 0). */
  readonly offset: number;
  /** Epoch ms. */
  readonly ms: number;
}

/** The instant (epoch ms) of a time in that form, or null. */
export function offsetInstant(text: string): number | null {
  return offsetTime(text)?.ms ?? null;
}

/** A time in that form, read whole, or null. */
export function offsetTime(text: string): OffsetTime | null {
  const match = OFFSET_TIME.exec(text);
  if (!match) return null;
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  const hour = Number(match[4]);
  const minute = Number(match[5]);
  const s = match[6] === undefined ? 0 : Number(match[6]);
  if (year < 1900 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) {
    return null;
  }
  if (hour > 23 || minute > 59 || s > 59) return null;
  let offset = 0;
  const sign = match[8];
  if (sign) {
    const oh = Number(match[9]);
    const om = Number(match[10]);
    if (oh > 23 || om > 59) return null;
    offset = (sign === "-" ? -1 : 1) * (oh * 60 + om);
  }
  // As Luxon reads a fraction of a second: whole milliseconds, rounded down.
  const fraction = match[7];
  const ms = fraction ? Math.floor(Number.parseFloat(`0.${fraction}`) * 1000) : 0;
  const instant = Date.UTC(year, month - 1, day, hour, minute, s, ms) - offset * 60_000;
  return { year, month, day, hour, minute, offset, ms: instant };
}

/**
 * The instant an ISO 8601 time names, as a Date, or null when it names
 * none: read here in the form above, by Luxon in any other (no offset: UTC).
 */
export function instantDate(iso: string | null | undefined): Date | null {
  if (!iso) return null;
  const ms = offsetInstant(iso);
  if (ms !== null) return new Date(ms);
  const parsed = DateTime.fromISO(iso, { zone: "utc" });
  return parsed.isValid ? parsed.toJSDate() : null;
}

/** An instant as Luxon's `toUTC().toISO({ suppressMilliseconds: true })` writes it. */
export function formatUtc(ms: number): string {
  const iso = new Date(ms).toISOString();
  return iso.endsWith(".000Z") ? `${iso.slice(0, 19)}Z` : iso;
}

/**
 * An instant in `zone` with its offset, as Luxon's `toISO({
 * suppressMilliseconds: true })` writes a time in an IANA zone ("+00:00",
 * never "Z"); null for an offset of a fraction of a minute.
 */
export function formatInZone(ms: number, zone: Zone): string | null {
  const offset = zone.offset(ms);
  if (!Number.isInteger(offset)) return null;
  const local = new Date(ms + offset * 60_000).toISOString();
  const wall = local.endsWith(".000Z") ? local.slice(0, 19) : local.slice(0, 23);
  return `${wall}${offsetText(offset)}`;
}

/** An offset in minutes as ISO 8601 writes it, and Luxon's "ZZ": "+05:30", "-04:00". */
export function offsetText(offset: number): string {
  const size = Math.abs(offset);
  const hours = String(Math.floor(size / 60)).padStart(2, "0");
  const minutes = String(size % 60).padStart(2, "0");
  return `${offset < 0 ? "-" : "+"}${hours}:${minutes}`;
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function daysInMonth(year: number, month: number): number {
  const leap = month === 2 && year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return leap ? 29 : (DAYS_IN_MONTH[month - 1] ?? 0);
}
