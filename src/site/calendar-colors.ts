import type { Calendar } from "../model/types.ts";
import { encodeIdSegment } from "../model/url-scheme.ts";

/**
 * Calendar colours as a generated stylesheet rather than style attributes, so
 * pages work under a Content-Security-Policy without 'unsafe-inline'.
 */

/** Used when the portal gives no colour (or an invalid one); all AA on white. */
const PALETTE = [
  "#0b7285",
  "#862e9c",
  "#c2255c",
  "#2b8a3e",
  "#d9480f",
  "#1864ab",
  "#5f3dc4",
  "#087f5b",
];

export function calendarClass(calendarId: string): string {
  return `cal-${encodeIdSegment(calendarId)}`;
}

/** A calendar's colour: the portal's, else the palette's by its place in the site's calendar list. */
export function calendarColor(calendar: Calendar, index: number): string {
  return calendar.color && /^#[0-9a-f]{6}$/i.test(calendar.color)
    ? calendar.color.toLowerCase()
    : (PALETTE[index % PALETTE.length] as string);
}

export function calendarColorsCss(calendars: readonly Calendar[]): string {
  return calendars
    .map(
      (calendar, index) =>
        `.${calendarClass(calendar.id)} { --calendar-color: ${calendarColor(calendar, index)}; }`,
    )
    .join("\n")
    .concat("\n");
}
