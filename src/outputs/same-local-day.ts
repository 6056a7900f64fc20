import type { DateTime } from "luxon";

/**
 * Whether two times in the same zone fall on the same local calendar day.
 * Luxon's `hasSame(other, "day")` answers the same question through a zone
 * change and two day boundaries (three offset look-ups in Intl); comparing
 * the local fields is enough when both times are already in one zone, as an
 * event's start and end are (src/model/event-times.ts).
 */
export function sameLocalDay(a: DateTime, b: DateTime): boolean {
  if (a.zoneName !== b.zoneName) return a.hasSame(b, "day");
  return a.day === b.day && a.month === b.month && a.year === b.year;
}
