import { peak } from "../metrics.ts";
import type { PerEvent } from "../model/per-event.ts";
import type { CalendarEvent } from "../model/types.ts";
import type { FeedEntry } from "./feeds-entry.ts";

/**
 * Lets each event's shared feed entry (FeedScopes.entries) go once the last
 * scope whose feeds show it is written, instead of when every feed is. An
 * entry holds the event's item as HTML, and most events are shown by one
 * feed only: at 100,000 events (the `--size large` portal) the 3,172 RSS
 * feeds carry 119,906 items of 88,116 events, and in the order the scopes
 * are written (the site, calendars, categories, pairs, places, series) at
 * most 18,807 events are between their first feed and their last. Kept to
 * the end, the entries were the largest holder after the file lists in a
 * build that renders most feeds again (docs/performance.md, What changed,
 * item 85).
 *
 * A scope's feeds are written one after the other; `shown` must give the
 * events each shows, as its feeds select them. An entry let go too soon is
 * only made again, so the bytes never depend on these counts.
 */
export class FeedEntryLifetimes {
  /** How many scopes not yet written show each event. */
  readonly #left = new Map<CalendarEvent, number>();
  readonly #shown: (scope: number) => Iterable<CalendarEvent>;

  /** `scopes`: how many scopes have feeds; `shown(i)`: the events of the i-th, in the order they are written. */
  constructor(scopes: number, shown: (scope: number) => Iterable<CalendarEvent>) {
    this.#shown = shown;
    for (let scope = 0; scope < scopes; scope++) {
      for (const event of shown(scope)) this.#left.set(event, (this.#left.get(event) ?? 0) + 1);
    }
  }

  /** The i-th scope's feeds are written: the entries of the events no later scope shows go. */
  written(scope: number, entries: PerEvent<FeedEntry>): void {
    peak("feeds.entriesHeld", entries.held);
    for (const event of this.#shown(scope)) {
      const left = (this.#left.get(event) ?? 1) - 1;
      if (left > 0) {
        this.#left.set(event, left);
      } else {
        this.#left.delete(event);
        entries.forget(event);
      }
    }
  }
}
