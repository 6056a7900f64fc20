import type { CalendarEvent } from "../model/types.ts";
import type { PlaceIndex, PlaceSummary } from "./place-index.ts";

/**
 * The pages of every place: its upcoming events at `/places/<key>/` (then
 * `page/2/`...), its past ones within the site's past window at
 * `/places/<key>/past/` when it has any, paged like a calendar's lists. The
 * site's views (src/site/views.ts) lay out the pages (`listPages`: days in
 * the site's zone, 20 events a page), so a place's list looks like every
 * other list of the site.
 */

export interface PlacePageOf {
  readonly summary: PlaceSummary;
  readonly kind: "upcoming" | "past";
}

export function placePages<Page extends object>(
  places: PlaceIndex,
  listPages: (events: readonly CalendarEvent[], firstPath: string) => readonly Page[],
  listed: (events: readonly CalendarEvent[]) => readonly CalendarEvent[] = (events) => events,
): (Page & PlacePageOf)[] {
  return places.all.flatMap((summary) => [
    ...listPages(listed(summary.upcoming), summary.path).map((page) => ({
      ...page,
      summary,
      kind: "upcoming" as const,
    })),
    ...(summary.past.length
      ? listPages(summary.past, summary.pastPath).map((page) => ({
          ...page,
          summary,
          kind: "past" as const,
        }))
      : []),
  ]);
}
