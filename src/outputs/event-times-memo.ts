import { type EventTimes, eventTimes } from "../model/event-times.ts";
import type { CalendarEvent } from "../model/types.ts";

/**
 * eventTimes() once per event object. Parsing in an IANA zone asks Intl for
 * the zone's offset several times, and a build reads each event's times from
 * many places (views, list rows, month cells, event page, feeds, calendars):
 * at 2,000 events that was a tenth of the build's CPU time. Luxon DateTimes
 * are immutable, so sharing them is safe.
 */
const memo = new WeakMap<CalendarEvent, EventTimes | null>();

export function memoEventTimes(event: CalendarEvent): EventTimes | null {
  let times = memo.get(event);
  if (times === undefined) {
    times = eventTimes(event);
    memo.set(event, times);
  }
  return times;
}

/** For events from the normalizer, whose times are valid by construction. */
export function memoValidEventTimes(event: CalendarEvent): EventTimes {
  const times = memoEventTimes(event);
  if (!times) throw new Error(`Event ${event.calendarId}/${event.id} has invalid times`);
  return times;
}
