import type { WeekRules } from "./week-rules.ts";

/**
 * The days each "when" page covers, worked out on calendar dates
 * (yyyy-mm-dd) in the page's zone: "today" is a date there, and every range
 * is a run of whole days from it. Dates carry no clock, so a day of 23 or 25
 * hours (a daylight-saving change) is one day like any other; only the
 * instants at which a day starts depend on the zone (src/site/when/when-views.ts).
 *
 * Every range starts today or later: a visitor asks what is on, not what was.
 * "This weekend" on a Saturday is what is left of it, "This week" the rest of
 * the week, "This month" the rest of the month.
 */

export const WHEN_KEYS = ["today", "tomorrow", "weekend", "week", "next-week", "month"] as const;

export type WhenKey = (typeof WHEN_KEYS)[number];

/** Inclusive first and last date (yyyy-mm-dd). */
export interface DayRange {
  readonly first: string;
  readonly last: string;
}

export function isWhenKey(value: string): value is WhenKey {
  return (WHEN_KEYS as readonly string[]).includes(value);
}

/** The days `key` covers when `today` is the date in the page's zone. */
export function whenRange(key: WhenKey, today: string, rules: WeekRules): DayRange {
  switch (key) {
    case "today":
      return { first: today, last: today };
    case "tomorrow": {
      const tomorrow = addDays(today, 1);
      return { first: tomorrow, last: tomorrow };
    }
    case "weekend":
      return weekendFrom(today, rules.weekend);
    case "week":
      return { first: today, last: addDays(nextWeekStart(today, rules.firstDay), -1) };
    case "next-week": {
      const first = nextWeekStart(today, rules.firstDay);
      return { first, last: addDays(first, 6) };
    }
    case "month":
      return { first: today, last: lastOfMonth(today) };
  }
}

/**
 * The weekend that is on or next: when today is a weekend day, from today to
 * the end of its run of weekend days; otherwise the next run. A run is
 * consecutive weekend days (Saturday-Sunday, Friday-Saturday, or a single
 * day such as Friday), also across the end of the week (a Sunday-Monday
 * weekend is one run).
 */
function weekendFrom(today: string, weekend: readonly number[]): DayRange {
  const isWeekend = (date: string) => weekend.includes(isoWeekday(date));
  let first = today;
  for (let i = 0; i < 7 && !isWeekend(first); i++) first = addDays(first, 1);
  let last = first;
  for (let i = 0; i < 6 && isWeekend(addDays(last, 1)); i++) last = addDays(last, 1);
  return { first, last };
}

/** The first day of the week after today's. */
function nextWeekStart(today: string, firstDay: number): string {
  const ahead = (firstDay - isoWeekday(today) + 7) % 7;
  return addDays(today, ahead === 0 ? 7 : ahead);
}

/** ISO weekday of a date: 1 Monday ... 7 Sunday. */
export function isoWeekday(date: string): number {
  return ((utcDate(date).getUTCDay() + 6) % 7) + 1;
}

export function addDays(date: string, days: number): string {
  const value = utcDate(date);
  value.setUTCDate(value.getUTCDate() + days);
  return value.toISOString().slice(0, 10);
}

function lastOfMonth(date: string): string {
  const value = utcDate(date);
  value.setUTCMonth(value.getUTCMonth() + 1, 0);
  return value.toISOString().slice(0, 10);
}

function utcDate(date: string): Date {
  return new Date(`${date.slice(0, 10)}T00:00:00Z`);
}
