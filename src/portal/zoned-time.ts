import { DateTime } from "luxon";

/**
 * Date math in an event's own zone, through Luxon. Local wall-clock times are
 * what organizers enter; the offset follows from the zone (and changes at DST),
 * so a weekly 19:00 meetup is +01:00 in winter and +02:00 in summer.
 */

export function parseInstant(value: string | Date): DateTime {
  const dt =
    value instanceof Date ? DateTime.fromJSDate(value) : DateTime.fromISO(value, { setZone: true });
  if (!dt.isValid) throw new RangeError(`not a valid date-time: ${String(value)}`);
  return dt.toUTC();
}

/** ISO 8601 with the zone's offset, seconds precision: 2026-03-29T10:00:00+02:00. */
export function formatLocal(dt: DateTime): string {
  return dt.toISO({ suppressMilliseconds: true, includeOffset: true }) ?? "";
}

/** ISO 8601 in UTC with a Z, seconds precision: 2026-03-01T08:00:00Z. */
export function formatUtc(dt: DateTime): string {
  return dt.toUTC().toISO({ suppressMilliseconds: true }) ?? "";
}

/**
 * Local wall time -> ISO with offset. Luxon resolves the offset once per zone
 * and day; on the few days where the offset changes (DST) every time goes
 * through Luxon. Synthetic datasets format 200,000 times with it, so the
 * per-day shortcut is what keeps their load time in the hundreds of ms.
 */
export function createLocalFormatter(zone: string): (date: string, time: string) => string {
  const offsets = new Map<string, string | null>();
  return (date, time) => {
    let offset = offsets.get(date);
    if (offset === undefined) {
      const midnight = DateTime.fromISO(date, { zone });
      const stable = midnight.offset === midnight.endOf("day").offset;
      offset = stable ? midnight.toFormat("ZZ") : null;
      offsets.set(date, offset);
    }
    if (offset !== null) return `${date}T${time}:00${offset}`;
    return formatLocal(DateTime.fromISO(`${date}T${time}`, { zone }));
  };
}

/**
 * Instants in [from, to) where the zone's UTC offset changes (DST), found by
 * day-by-day comparison and narrowed to the hour.
 */
export function offsetChanges(zone: string, from: DateTime, to: DateTime): DateTime[] {
  const changes: DateTime[] = [];
  let day = from.setZone(zone).startOf("day");
  while (day < to) {
    const next = day.plus({ days: 1 });
    if (next.offset !== day.offset) {
      let hour = day;
      while (hour.plus({ hours: 1 }).offset === day.offset) hour = hour.plus({ hours: 1 });
      changes.push(hour.plus({ hours: 1 }));
    }
    day = next;
  }
  return changes;
}
