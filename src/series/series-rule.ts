import type { CalendarEvent } from "../model/types.ts";

/**
 * The rule a series' dates follow, when one simple rule fits every date
 * (docs/site.md, "Series"): every week or every other week on one weekday,
 * or one weekday of every month (the first to fourth, or the last), at one
 * local start time (or all day). Anything else (a skipped week, a changed
 * time, two dates only) has no rule, and the series page just lists the dates.
 *
 * Read from the events' local start (their ISO strings are written in their
 * own zone: src/model/types.ts), so no zone rules are needed and a series
 * that crosses a daylight-saving change keeps its 19:30.
 */

export type SeriesRule =
  | {
      readonly kind: "weekly";
      /** 1: every week; 2: every other week. */
      readonly interval: 1 | 2;
      /** ISO weekday, 1 (Monday) to 7 (Sunday). */
      readonly weekday: number;
      /** Local start "HH:mm", or null for all-day events. */
      readonly time: string | null;
    }
  | {
      readonly kind: "monthly";
      /** 1 to 4: the first to fourth such weekday of the month; -1: the last. */
      readonly ordinal: 1 | 2 | 3 | 4 | -1;
      readonly weekday: number;
      readonly time: string | null;
    };

/** A rule needs this many dates: two dates fit any interval. */
export const MIN_DATES_FOR_RULE = 3;

type Dated = Pick<CalendarEvent, "start" | "allDay" | "timeZone">;

/** The rule of `events` (in start order), or null when none fits all of them. */
export function detectSeriesRule(events: readonly Dated[]): SeriesRule | null {
  const first = events[0];
  if (!first || events.length < MIN_DATES_FOR_RULE) return null;
  const time = first.allDay ? null : localTime(first.start);
  const dates: number[] = [];
  for (const event of events) {
    if (event.allDay !== first.allDay || event.timeZone !== first.timeZone) return null;
    if (!event.allDay && localTime(event.start) !== time) return null;
    const day = dayNumber(event.start);
    if (Number.isNaN(day)) return null;
    dates.push(day);
  }
  const weekday = isoWeekday(dates[0] as number);
  if (dates.some((day) => isoWeekday(day) !== weekday)) return null;
  const gap = (dates[1] as number) - (dates[0] as number);
  if (
    (gap === 7 || gap === 14) &&
    dates.every((day, i) => i === 0 || day - (dates[i - 1] as number) === gap)
  ) {
    return { kind: "weekly", interval: gap === 7 ? 1 : 2, weekday, time };
  }
  const ordinal = monthlyOrdinal(dates);
  return ordinal === null ? null : { kind: "monthly", ordinal, weekday, time };
}

/** The shared place of the weekday in consecutive months, or null. */
function monthlyOrdinal(days: readonly number[]): 1 | 2 | 3 | 4 | -1 | null {
  const parts = days.map((day) => {
    const date = new Date(day * DAY_MS);
    const dayOfMonth = date.getUTCDate();
    const monthLength = new Date(
      Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0),
    ).getUTCDate();
    return {
      month: date.getUTCFullYear() * 12 + date.getUTCMonth(),
      nth: Math.ceil(dayOfMonth / 7),
      last: dayOfMonth + 7 > monthLength,
    };
  });
  if (parts.some((part, i) => i > 0 && part.month !== (parts[i - 1]?.month ?? 0) + 1)) return null;
  const nth = parts[0]?.nth ?? 0;
  if (nth <= 4 && parts.every((part) => part.nth === nth)) return nth as 1 | 2 | 3 | 4;
  if (parts.every((part) => part.last)) return -1;
  return null;
}

const DAY_MS = 86_400_000;

/** "19:30" from "2026-03-26T19:30:00+01:00". */
function localTime(iso: string): string {
  return iso.slice(11, 16);
}

/** Days since 1970-01-01 of the local date an ISO string starts with. */
function dayNumber(iso: string): number {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(iso);
  if (!match) return Number.NaN;
  return Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) / DAY_MS;
}

/** ISO weekday (Monday 1 ... Sunday 7) of a day number; 1970-01-01 was a Thursday. */
function isoWeekday(day: number): number {
  return ((((day + 3) % 7) + 7) % 7) + 1;
}
