import { formatter } from "./formatter.ts";

/*
 * Days as the site keys them, "2026-04-04": a day of a zone, and the
 * arithmetic on such keys, done in UTC, where every day has 24 hours.
 */

export const DAY_MS = 86_400_000;

const DAY_KEY: Intl.DateTimeFormatOptions = { year: "numeric", month: "2-digit", day: "2-digit" };

/** The day at an instant in `timeZone` (undefined: the visitor's zone). */
export function dayKey(date: Date, timeZone: string | undefined): string {
  const parts = formatter("en-CA", timeZone, DAY_KEY).formatToParts(date);
  const get = (type: Intl.DateTimeFormatPartTypes) =>
    parts.find((part) => part.type === type)?.value || "";
  return `${get("year")}-${get("month")}-${get("day")}`;
}

/** The UTC midnight of a day, in milliseconds. */
export function dayKeyMs(day: string): number {
  return Date.UTC(Number(day.slice(0, 4)), Number(day.slice(5, 7)) - 1, Number(day.slice(8, 10)));
}

/** The day of a UTC instant in milliseconds. */
export function msDayKey(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** The day `count` days after `day` (before it, when negative). */
export function addDays(day: string, count: number): string {
  return msDayKey(dayKeyMs(day) + count * DAY_MS);
}
