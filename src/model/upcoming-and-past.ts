import type { CalendarEvent, UpcomingAndPast } from "./types.ts";

/** One group's events, each list in the order it was given (an UpcomingAndPast being built). */
export interface UpcomingAndPastLists {
  readonly upcoming: CalendarEvent[];
  readonly past: CalendarEvent[];
}

/**
 * The site's upcoming and past events grouped in one pass by `keyOf` (a
 * place's or a series' identity; null: in no group), each group's lists in
 * the order given. Groups come in the order their first event does, upcoming
 * before past: the order the places and series are first met in.
 */
export function groupUpcomingAndPast(
  upcoming: readonly CalendarEvent[],
  past: readonly CalendarEvent[],
  keyOf: (event: CalendarEvent) => string | null,
): Map<string, UpcomingAndPastLists> {
  const groups = new Map<string, UpcomingAndPastLists>();
  const add = (event: CalendarEvent, list: keyof UpcomingAndPastLists) => {
    const key = keyOf(event);
    if (key === null) return;
    let group = groups.get(key);
    if (!group) {
      group = { upcoming: [], past: [] };
      groups.set(key, group);
    }
    group[list].push(event);
  };
  for (const event of upcoming) add(event, "upcoming");
  for (const event of past) add(event, "past");
  return groups;
}

/**
 * The most recent past events a category's first page lists
 * (categories/category.njk, through the `recentPast` filter): one number for
 * the page and for what its inputs name (src/eleventy/listing-page-inputs.ts).
 */
export function recentPast(summary: Pick<UpcomingAndPast, "past">): readonly CalendarEvent[] {
  return summary.past.slice(0, RECENT_PAST_SHOWN);
}

const RECENT_PAST_SHOWN = 10;
