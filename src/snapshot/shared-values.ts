import { count } from "../metrics.ts";
import type { CalendarEvent } from "../model/types.ts";

/**
 * Equal parts of many events held once. A portal sends each event's place,
 * organizer, categories and image, and texts such as its calendar's id, its
 * zone or a series' description, as a copy of their own in every record
 * (JSON gives each value its own object), and a build holds every event
 * from the portal's answers to its last file. At 100,000 events of the
 * reference portal's synthetic calendars, the normalized events took 132.8 MB
 * of heap as read back, and 58.7 MB with their equal parts held once
 * (docs/performance.md, What changed, item 66).
 *
 * Equal means the same fields in the same order with equal values, so a
 * shared part writes out exactly as each copy did. Events are never changed
 * once made (src/model/types.ts), so one object serves them all. A SharedValues
 * lives for one read of the portal (NormalizeMemo): its maps, which name
 * each distinct part once, go with it.
 */
export class SharedValues {
  /** Each distinct text, by its place in #textsByPlace. */
  readonly #texts = new Map<string, number>();
  readonly #textsByPlace: string[] = [];
  /** Each distinct part's place in #partsByPlace, by its fields (see #partPlace), and by itself. */
  readonly #parts = new Map<string, number>();
  readonly #partPlaces = new Map<object, number>();
  readonly #partsByPlace: object[] = [];
  /** Parts found held already: what the build's counters report. */
  #found = 0;

  /**
   * The event with its shareable fields (SHARED_FIELDS) replaced, in place,
   * by the parts already held: for an event the caller has made or read and
   * handed to no one yet.
   */
  shareParts(event: CalendarEvent): void {
    const fields = event as unknown as Record<string, unknown>;
    const found = this.#found;
    for (const name of SHARED_FIELDS) {
      const value = fields[name];
      if (typeof value === "string") fields[name] = this.#textsByPlace[this.#textPlace(value)];
      else if (typeof value === "object" && value !== null) {
        fields[name] = this.#partsByPlace[this.#partPlace(value)];
      }
    }
    if (this.#found > found) count("normalize.partsShared", this.#found - found);
  }

  /** The place of the part equal to `value`, held from now on if it is the first. */
  #partPlace(value: object): number {
    const known = this.#partPlaces.get(value);
    if (known !== undefined) return known;
    // A part someone else made and froze cannot take shared fields: kept whole, as a part of its own.
    if (Object.isFrozen(value)) return this.#hold(value, null);
    // The part's fields, each shared first, named by their places: equal parts have equal keys.
    const fields = value as Record<string, unknown>;
    let key = Array.isArray(value) ? "[" : "{";
    for (const name in fields) {
      const field = fields[name];
      let token: string;
      if (typeof field === "string") {
        const place = this.#textPlace(field);
        fields[name] = this.#textsByPlace[place];
        token = `s${place}`;
      } else if (typeof field === "object" && field !== null) {
        const place = this.#partPlace(field);
        fields[name] = this.#partsByPlace[place];
        token = `o${place}`;
      } else {
        token = typeof field === "number" ? `n${field}` : String(field);
      }
      key += `${this.#textPlace(name)}=${token};`;
    }
    const held = this.#parts.get(key);
    if (held !== undefined) {
      this.#found++;
      return held;
    }
    return this.#hold(value, key);
  }

  #hold(value: object, key: string | null): number {
    const place = this.#partsByPlace.length;
    this.#partsByPlace.push(value);
    this.#partPlaces.set(value, place);
    if (key !== null) this.#parts.set(key, place);
    return place;
  }

  #textPlace(text: string): number {
    let place = this.#texts.get(text);
    if (place === undefined) {
      place = this.#textsByPlace.length;
      this.#texts.set(text, place);
      this.#textsByPlace.push(text);
    }
    return place;
  }
}

/**
 * The fields of an event whose values recur from event to event: the ones
 * held once. Its id, title, times and dates are its own, and left as they
 * are (a map of texts that are each used once would only cost); so are its
 * status and attendance mode: words of ten letters or fewer, which V8's
 * JSON.parse already gives one text each (sharing them freed no memory at
 * 100,000 events).
 */
const SHARED_FIELDS: readonly (keyof CalendarEvent)[] = [
  "calendarId",
  "source",
  "summary",
  "descriptionHtml",
  "descriptionText",
  "timeZone",
  "location",
  "onlineUrl",
  "image",
  "categories",
  "organizer",
  "registrationUrl",
  "performers",
  "offer",
  "access",
  "seriesId",
];
