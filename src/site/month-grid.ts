/**
 * A month's grid as the month pages lay it out: whole weeks from the
 * locale's first day, each day a civil date (yyyy-mm-dd). Dates only, so
 * counted without a zone's rules: Luxon's day steps (a DateTime made,
 * shifted and written per day of 90 months) took 0.35 s of `views` where
 * these take 0.26 s in an edited 10,000-event build (docs/performance.md,
 * What changed, item 48).
 *
 * Counted in UTC milliseconds rather than with the "when" pages' date
 * strings (src/site/when/ranges.ts), which read four-digit years only: a
 * portal may date an event in any year the model holds (±yyyyyy), and its
 * month is laid out as Luxon wrote it.
 */

const DAY_MS = 86_400_000;

export interface GridDay {
  /** yyyy-mm-dd */
  readonly date: string;
  /** Whether the day is in the month, not one of the weeks' days around it. */
  readonly inMonth: boolean;
}

/**
 * The weeks that hold `month` of `year` (1-12), from `firstDay` (ISO
 * weekday: 1 Monday ... 7 Sunday) to the day before it.
 */
export function monthGrid(year: number, month: number, firstDay: number): GridDay[][] {
  const first = civilDay(year, month, 1);
  const last = civilDay(year, month + 1, 0);
  const start = first - ((isoWeekday(first) - firstDay + 7) % 7) * DAY_MS;
  const end = last + ((firstDay + 6 - isoWeekday(last)) % 7) * DAY_MS;
  const weeks: GridDay[][] = [];
  for (let day = start; day <= end; day += DAY_MS) {
    if (isoWeekday(day) === firstDay) weeks.push([]);
    weeks[weeks.length - 1]?.push({ date: isoDate(day), inMonth: day >= first && day <= last });
  }
  return weeks;
}

/** The date `days` days from the first (negative: before) or the last day of the month. */
export function dayAround(
  year: number,
  month: number,
  edge: "first" | "last",
  days: number,
): string {
  const from = edge === "first" ? civilDay(year, month, 1) : civilDay(year, month + 1, 0);
  return isoDate(from + days * DAY_MS);
}

/** The UTC midnight of a civil date, month and day past their ends counted on. */
function civilDay(year: number, month: number, day: number): number {
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return date.getTime();
}

function isoWeekday(ms: number): number {
  return ((new Date(ms).getUTCDay() + 6) % 7) + 1;
}

function isoDate(ms: number): string {
  const date = new Date(ms);
  const year = date.getUTCFullYear();
  const text = date.toISOString();
  // Four-digit years as yyyy-mm-dd; others as ISO 8601 writes them (±yyyyyy-mm-dd).
  return year >= 0 && year <= 9999 ? text.slice(0, 10) : text.slice(0, text.indexOf("T"));
}
