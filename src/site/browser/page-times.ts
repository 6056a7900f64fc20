import { formatter } from "../../browser/formatter.ts";
import { zoneAbbreviation, zoneCity } from "../../browser/zones.ts";

/*
 * Times as the pages write them (src/site/format.ts), for the scripts that
 * add the visitor's own: an added time reads like the built one.
 */

/** The page's language, for Intl (the site's SITE_LANG, e.g. en-GB). */
export function pageLang(): string {
  return document.documentElement.lang || "en";
}

/** A zone as a reader names it: its exemplar city, else Intl's short name for it ("UTC", "GMT+3"). */
export function zoneLabel(zone: string, lang: string, at: Date): string {
  return zoneCity(zone) ?? (zoneAbbreviation(zone, lang, at) || zone);
}

const TIME: Intl.DateTimeFormatOptions = { hour: "2-digit", minute: "2-digit" };

export const FORMATS = {
  time: TIME,
  dayAndTime: { weekday: "short", day: "numeric", month: "short", ...TIME },
  dayMonthAndTime: { day: "numeric", month: "short", ...TIME },
  when: { weekday: "long", day: "numeric", month: "long", year: "numeric", ...TIME },
} as const satisfies Record<string, Intl.DateTimeFormatOptions>;

/** One time, or a range, in a zone. */
export function formatSpan(
  lang: string,
  timeZone: string,
  options: Intl.DateTimeFormatOptions,
  start: Date,
  end: Date,
): string {
  const format = formatter(lang, timeZone, options);
  return end > start ? format.formatRange(start, end) : format.format(start);
}
