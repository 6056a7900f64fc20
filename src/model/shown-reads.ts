import type { CalendarEvent } from "./types.ts";

/**
 * What an output's inputs read of the site's data, gathered while they are
 * made (src/eleventy/page-record.ts keeps it for the next build): the events
 * whose digests they took (eventDigest notes each) and the scopes (a
 * calendar, category, place or series, by key) whose derived values they
 * show: a place's name is its soonest event's, a page without events says
 * when its calendar changed.
 *
 * Gathered by a dynamic scope rather than passed along: eventDigest is
 * called from every output's inputs. What a memo answers without calling
 * it again is noted by its reader: a listing walks its item again for the
 * events it shows (src/eleventy/listing-page-inputs.ts). Lists rather than
 * sets, duplicates and all: the record names each once.
 */
export class ShownReads {
  readonly events: CalendarEvent[] = [];
  readonly scopes: string[] = [];

  add(other: ShownReads): void {
    for (const event of other.events) this.events.push(event);
    for (const scope of other.scopes) this.scopes.push(scope);
  }
}

let open: ShownReads | null = null;

/** Calls `make`, gathering what it reads (nested calls gather into their own, then into this one). */
export function gatherReads<T>(make: () => T): [T, ShownReads] {
  const outer = open;
  const reads = new ShownReads();
  open = reads;
  try {
    return [make(), reads];
  } finally {
    open = outer;
    outer?.add(reads);
  }
}

/** Whether reads are being gathered (a listing then walks its item for what it shows). */
export function gathering(): boolean {
  return open !== null;
}

export function noteEvent(event: CalendarEvent): void {
  open?.events.push(event);
}

export function noteScope(key: string): void {
  open?.scopes.push(key);
}

/** The keys scopes are read by (a place's name, a category's summary...), one form for every reader. */
export const scopeRead = {
  calendar: (id: string) => `calendar:${id}`,
  category: (id: string) => `category:${id}`,
  place: (id: string) => `place:${id}`,
  series: (calendarId: string, id: string) => `series:${calendarId}/${id}`,
  /** When the site's data last changed, which any edit moves (src/site/data-updated.ts). */
  siteUpdated: "updated:site",
  /** What a record cannot follow: a page that reads it is asked every build. */
  always: "always",
};
