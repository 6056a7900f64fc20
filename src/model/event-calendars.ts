import type { CalendarEvent } from "./types.ts";

/**
 * The calendars an event is listed in: its own, then those of the copies
 * other sources publish of it, merged into it (docs/sources.md, "Each event
 * once"). Its page, UID and download stay in its own calendar; lists, feeds
 * and subscriptions of every one of these calendars carry it.
 */
export function calendarIdsOf(event: Pick<CalendarEvent, "calendarId" | "merged">): string[] {
  return event.merged
    ? [event.calendarId, ...event.merged.map((copy) => copy.calendarId)]
    : [event.calendarId];
}
