import type { CalendarEvent } from "./types.ts";

/**
 * What a page shows of an event again and again (its time range in a list,
 * its days in a zone), worked out once per event and key: the same answer
 * costs Luxon zone math and Intl formatting each time. Keyed by the event
 * object, so an answer belongs to one build's data; a memo whose use ends
 * before the build's does (the entries of the feeds, once they are written)
 * is cleared then, or lets an event's answers go once its last use is past
 * (the feed entries: feed-entry-lifetimes.ts).
 *
 * Nearly every event is asked with one key only (the site's language, its
 * zone), so an event's first answer is kept beside its key, and a map is made
 * only for a second key; and each key's text is kept once, however many
 * events it was made for. A map for each event and memo, and a copy of the
 * key in each, held 24 MB more, sampled while a 100,000-event build wrote its
 * feeds and calendars (docs/performance.md, "Memory at 100,000 events").
 */
export class PerEvent<T> {
  #values = new WeakMap<CalendarEvent, Answer<T> | Map<string, T>>();
  #keys = new Map<string, string>();
  #held = 0;

  /** How many events have answers: a WeakMap cannot say. */
  get held(): number {
    return this.#held;
  }

  get(event: CalendarEvent, key: string, compute: () => T): T {
    const known = this.#values.get(event);
    if (known instanceof Map) {
      const value = known.get(key);
      if (value !== undefined) return value;
      const computed = compute();
      known.set(this.#key(key), computed);
      return computed;
    }
    if (known?.key === key) return known.value;
    const computed = compute();
    if (!known) {
      this.#values.set(event, { key: this.#key(key), value: computed });
      this.#held++;
    } else {
      const byKey = new Map([[known.key, known.value]]);
      byKey.set(this.#key(key), computed);
      this.#values.set(event, byKey);
    }
    return computed;
  }

  /** Forgets an event's answers, for every key. */
  forget(event: CalendarEvent): void {
    if (this.#values.delete(event)) this.#held--;
  }

  /** Forgets every answer. */
  clear(): void {
    this.#values = new WeakMap();
    this.#keys = new Map();
    this.#held = 0;
  }

  /** The one copy of a key's text. */
  #key(key: string): string {
    const kept = this.#keys.get(key);
    if (kept !== undefined) return kept;
    this.#keys.set(key, key);
    return key;
  }
}

interface Answer<T> {
  readonly key: string;
  readonly value: T;
}
