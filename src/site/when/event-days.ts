import { DateTime } from "luxon";
import { endMillis, localStartDate, startMillis } from "../../model/event-times.ts";
import { PerEvent } from "../../model/per-event.ts";
import { timeZone } from "../../model/time-zone.ts";
import type { CalendarEvent } from "../../model/types.ts";
import { addDays, type DayRange } from "./ranges.ts";

/**
 * When an event is "on" a day, the one rule of the "when" pages, their JSON
 * and the widget's `when` option:
 *
 * - a timed event is on every day of the page's zone that it overlaps: from
 *   the day it starts to the day of its last moment. The end is exclusive
 *   (RFC 5545), so an event ending at midnight is not on the day that
 *   midnight begins; an event without an end is on the day it starts;
 * - an all-day event is on its own dates, in any zone: a date is the same
 *   date everywhere (as the widget shows it), so a New York all-day event of
 *   23 November is on 23 November on an Amsterdam page, not on the 23rd and
 *   24th as its instants would say.
 *
 * An event is on a range of days when it is on any of them.
 */
export function eventDays(event: CalendarEvent, zone: string): DayRange {
  if (event.allDay || zone === event.timeZone) return ownDays(event);
  return memo.get(event, zone, () => daysInZone(event, zone));
}

const memo = new PerEvent<DayRange>();

export function isOn(days: DayRange, range: DayRange): boolean {
  return days.first <= range.last && days.last >= range.first;
}

/**
 * The event's dates read from its own ISO strings, which carry its zone's
 * offset (src/model/types.ts): no zone rules needed.
 */
function ownDays(event: CalendarEvent): DayRange {
  const first = localStartDate(event);
  if (!(Date.parse(event.end) > Date.parse(event.start))) return { first, last: first };
  const endDate = event.end.slice(0, 10);
  const endTime = event.end.slice(11).replace(/(?:Z|[+-]\d{2}:\d{2})$/, "");
  // All-day ends are the next day's midnight; a timed event ending at midnight ends there too.
  const last =
    event.allDay || /^00:00(?::00(?:\.0*)?)?$/.test(endTime) ? addDays(endDate, -1) : endDate;
  return { first, last: last < first ? first : last };
}

function daysInZone(event: CalendarEvent, zone: string): DayRange {
  const start = startMillis(event);
  const lastMoment = Math.max(start, endMillis(event) - 1);
  const inZone = timeZone(zone);
  const first = DateTime.fromMillis(start, { zone: inZone }).toISODate() ?? "";
  const last = DateTime.fromMillis(lastMoment, { zone: inZone }).toISODate() ?? first;
  return { first, last };
}
