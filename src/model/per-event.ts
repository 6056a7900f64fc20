import type { CalendarEvent } from "./types.ts";

/**
 * What a page shows of an event again and again (its time range in a list,
 * its days in a zone), worked out once per event and key: the same answer
 * costs Luxon zone math and Intl formatting each time. Keyed by the event
 * object, so an answer belongs to one build's data; a memo whose use ends
 * before the build's does (the entries of the feeds, once they are written)
 * is cleared then.
 */
export class PerEvent<T> {
  #values = new WeakMap<CalendarEvent, Map<string, T>>();

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

  /** Forgets every answer. */
  clear(): void {
    this.#values = new WeakMap();
  }
}
