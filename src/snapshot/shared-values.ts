import { count } from "../metrics.ts";
import type { CalendarEvent } from "../model/types.ts";

/**
 * Equal parts of many events held once. A portal sends each event's place,
 * organizer, categories and image, and texts such as its calendar's id, its
 * zone or a series' description, as a copy of their own in every record
 * (JSON gives each value its own object), and a build holds every event
 * from the portal's answers to its last file. At 100,000 events of the
 * reference portal's synthetic calendars, the normalized events took 139 MB
 * of heap as read back, and 56 MB with their equal parts held once
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
  /** Each distinct part by its fields, and the places of the parts found. */
  readonly #parts = new Map<string, object>();
  readonly #partPlaces = new Map<object, number>();

  /**
   * The event with its shareable fields (SHARED_FIELDS) replaced, in place,
   * by the parts already held: for an event the caller has made or read and
   * handed to no one yet.
   */
  shareParts(event: CalendarEvent): void {
    const fields = event as unknown as Record<string, unknown>;
    for (const name of SHARED_FIELDS) {
      const value = fields[name];
      if (value !== undefined && value !== null) fields[name] = this.#shared(value);
    }
  }

  #shared(value: unknown): unknown {
    if (typeof value === "string") return this.#textsByPlace[this.#textPlace(value)];
    if (typeof value !== "object" || value === null || this.#partPlaces.has(value)) return value;
    if (Object.isFrozen(value)) {
      // A part someone else made and froze cannot take shared fields: kept whole, as a part of its own.
      this.#partPlaces.set(value, this.#partPlaces.size);
      return value;
    }
    // The part's fields, each shared first, named by their places: equal parts have equal keys.
    const fields = value as Record<string, unknown>;
    let key = Array.isArray(value) ? "[" : "{";
    for (const name of Object.keys(fields)) {
      const field = this.#shared(fields[name]);
      fields[name] = field;
      key += `${this.#textPlace(name)}=${this.#token(field)};`;
    }
    const held = this.#parts.get(key);
    if (held !== undefined) {
      count("normalize.partsShared");
      return held;
    }
    this.#parts.set(key, value);
    this.#partPlaces.set(value, this.#partPlaces.size);
    return value;
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

  /** A shared field in a part's key: its type, and its place or value. */
  #token(field: unknown): string {
    switch (typeof field) {
      case "string":
        return `s${this.#textPlace(field)}`;
      case "object":
        return field === null ? "z" : `o${this.#partPlaces.get(field)}`;
      case "number":
        return `n${field}`;
      case "boolean":
        return field ? "t" : "f";
      default:
        return "u";
    }
  }
}

/**
 * The fields of an event whose values recur from event to event: the ones
 * held once. Its id, title, times and dates are its own, and left as they
 * are (a map of texts that are each used once would only cost); so are its
 * status and attendance mode, words that JSON.parse already gives one text
 * each (sharing them freed no memory at 100,000 events).
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
