import { formatter } from "../site/format.ts";

/**
 * A digest's dates as its readers see them, in the site's language: a day
 * ("Monday 23 March") and a week ("23–29 March", "30 March – 5 April").
 * They are dates, not instants: formatted at noon UTC, so no zone moves
 * them (as src/site/when/labels.ts writes the "when" pages' days). The year
 * is left out: a digest is about the days just ahead.
 */

const noon = (date: string) => new Date(`${date}T12:00:00Z`);

/** "Monday 23 March" for a date (yyyy-mm-dd). */
export function digestDayLabel(date: string, lang: string): string {
  return formatter(lang, "UTC", { weekday: "long", day: "numeric", month: "long" }).format(
    noon(date),
  );
}

/** "23–29 March": a week's first and last dates, as the subject names the week. */
export function digestWeekLabel(first: string, last: string, lang: string): string {
  return formatter(lang, "UTC", { day: "numeric", month: "long" }).formatRange(
    noon(first),
    noon(last),
  );
}
