import type { CalendarEvent } from "../model/types.ts";

/**
 * What a page shows of an event again and again (its time range in a list,
 * its days in a zone), worked out once per event and key: the same answer
 * costs Luxon zone math and Intl formatting each time. Keyed by the event
 * object, so an answer belongs to one build's data.
 */
export class PerEvent<T> {
  readonly #values = new WeakMap<CalendarEvent, Map<string, T>>();

  get(event: CalendarEvent, key: string, compute: () => T): T {
    let byKey = this.#values.get(event);
    if (!byKey) {
      byKey = new Map();
      this.#values.set(event, byKey);
    }
    let value = byKey.get(key);
    if (value === undefined) {
      value = compute();
      byKey.set(key, value);
    }
    return value;
  }
}
