import type { CalendarEvent } from "./types.ts";

/**
 * Events under each of their keys (an event in two calendars is in both
 * groups), each group in the events' order.
 */
export function groupEvents(
  events: readonly CalendarEvent[],
  keysOf: (event: CalendarEvent) => Iterable<string>,
): Map<string, CalendarEvent[]> {
  const groups = new Map<string, CalendarEvent[]>();
  for (const event of events) {
    for (const key of keysOf(event)) {
      const group = groups.get(key);
      if (group) group.push(event);
      else groups.set(key, [event]);
    }
  }
  return groups;
}
