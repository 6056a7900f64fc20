import type { Zone } from "luxon";

/**
 * The form portals send their times in most, ISO 8601 with an offset
 * ("2026-03-01T09:00:00+01:00", "2026-03-01T08:00Z"), read and written
 * without Luxon. Luxon's ISO parser and formatter were most of normalizing
 * an event (four times a record: start, end, created, updated), on the
 * build's thread while the portal is read (docs/performance.md, What
 * changed, item 43).
 *
 * Only a time whose every field is in range is read here, in years from
 * 1900 (older ones may fall in a zone's local mean time, with offsets in
 * seconds): anything else returns null, for Luxon to read or refuse as
 * before. test/model/offset-times.test.ts holds the answers to Luxon's.
 */
const OFFSET_TIME =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(?:Z|([+-])(\d{2}):(\d{2}))$/;

/** The instant (epoch ms) of a time in that form, or null. */
export function offsetInstant(text: string): number | null {
  const match = OFFSET_TIME.exec(text);
  if (!match) return null;
  const [, year, month, day, hour, minute, second, fraction, sign, offsetHours, offsetMinutes] =
    match;
  const [y, mo, d, h, mi, s] = [year, month, day, hour, minute, second ?? "0"].map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (y < 1900 || mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo)) return null;
  if (h > 23 || mi > 59 || s > 59) return null;
  let offset = 0;
  if (sign) {
    const oh = Number(offsetHours);
    const om = Number(offsetMinutes);
    if (oh > 23 || om > 59) return null;
    offset = (sign === "-" ? -1 : 1) * (oh * 60 + om);
  }
  // As Luxon reads a fraction of a second: whole milliseconds, rounded down.
  const ms = fraction ? Math.floor(Number.parseFloat(`0.${fraction}`) * 1000) : 0;
  return Date.UTC(y, mo - 1, d, h, mi, s, ms) - offset * 60_000;
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
  const size = Math.abs(offset);
  const hours = String(Math.floor(size / 60)).padStart(2, "0");
  const minutes = String(size % 60).padStart(2, "0");
  return `${wall}${offset < 0 ? "-" : "+"}${hours}:${minutes}`;
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}
