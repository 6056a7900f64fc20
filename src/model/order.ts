/**
 * The site's one order of events: by start instant, then calendar id, then
 * event id. Ids are compared by code unit, not by locale, so the order (and
 * every file written in it) is the same on any build machine.
 */

export function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Events or records with ISO start times, in the site's order. */
export function byStart(
  a: { readonly start: string; readonly calendarId: string; readonly id: string },
  b: { readonly start: string; readonly calendarId: string; readonly id: string },
): number {
  return byStartMs(Date.parse(a.start), a, Date.parse(b.start), b);
}

/**
 * `items` in the site's order, each start read once rather than at every
 * comparison: sorting a whole site's events with `byStart` parsed their
 * starts some 3.4 million times at 100,000 events.
 */
export function sortedByStart<
  T extends { readonly start: string; readonly calendarId: string; readonly id: string },
>(items: Iterable<T>): T[] {
  const keyed = Array.from(items, (item) => ({ item, ms: Date.parse(item.start) }));
  keyed.sort((a, b) => byStartMs(a.ms, a.item, b.ms, b.item));
  return keyed.map((entry) => entry.item);
}

/** The same order, with the start instants already read (ms). */
export function byStartMs(
  aMs: number,
  a: { readonly calendarId: string; readonly id: string },
  bMs: number,
  b: { readonly calendarId: string; readonly id: string },
): number {
  return aMs - bMs || compareCodeUnits(a.calendarId, b.calendarId) || compareCodeUnits(a.id, b.id);
}
