import type { DayRange, WhenKey } from "./ranges.ts";

/** The UI strings (src/i18n/locales) naming each "when" page and saying it is empty. */
export const WHEN_MESSAGE_KEYS: Readonly<Record<WhenKey, { name: string; empty: string }>> = {
  today: { name: "whenPageToday", empty: "whenEmptyToday" },
  tomorrow: { name: "whenPageTomorrow", empty: "whenEmptyTomorrow" },
  weekend: { name: "whenPageWeekend", empty: "whenEmptyWeekend" },
  week: { name: "whenPageWeek", empty: "whenEmptyWeek" },
  "next-week": { name: "whenPageNextWeek", empty: "whenEmptyNextWeek" },
  month: { name: "whenPageMonth", empty: "whenEmptyMonth" },
};

const DAY = { weekday: "long", day: "numeric", month: "long", year: "numeric" } as const;
const formats = new Map<string, Intl.DateTimeFormat>();
const labels = new Map<string, string>();

/**
 * A range's dates as the site's pages write days ("Friday 20 March 2026",
 * "Saturday 21 – Sunday 22 March 2026"). Dates are formatted as dates, at
 * noon UTC, so no zone can move them.
 */
export function formatDayRange(range: DayRange, lang: string): string {
  const key = `${lang}|${range.first}|${range.last}`;
  let label = labels.get(key);
  if (label === undefined) {
    let format = formats.get(lang);
    if (!format) {
      format = new Intl.DateTimeFormat(lang, { ...DAY, timeZone: "UTC" });
      formats.set(lang, format);
    }
    const noon = (date: string) => new Date(`${date}T12:00:00Z`);
    label =
      range.first === range.last
        ? format.format(noon(range.first))
        : format.formatRange(noon(range.first), noon(range.last));
    labels.set(key, label);
  }
  return label;
}
