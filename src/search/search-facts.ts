import type { SiteConfig } from "../config/site.ts";
import type { SiteData } from "../site/load.ts";
import { eventDays, placeName } from "./search-records.ts";

/** What the search page's filter form offers (docs/site.md, "Search and filters"). */
export interface SearchFacts {
  /** Place names of the published events, sorted, each once: the place filter's options. */
  readonly places: readonly string[];
  /** First and last day (yyyy-mm-dd, SITE_TIMEZONE) any published event occupies; "" when none. */
  readonly firstDay: string;
  readonly lastDay: string;
}

export function searchFacts(
  portal: Pick<SiteData, "views">,
  site: Pick<SiteConfig, "timeZone">,
): SearchFacts {
  const places = new Set<string>();
  let firstDay = "";
  let lastDay = "";
  for (const event of portal.views.events) {
    const place = placeName(event);
    if (place) places.add(place);
    const days = eventDays(event, site.timeZone);
    const first = days[0] ?? "";
    const last = days.at(-1) ?? "";
    if (first && (!firstDay || first < firstDay)) firstDay = first;
    if (last > lastDay) lastDay = last;
  }
  return { places: [...places].sort((a, b) => a.localeCompare(b)), firstDay, lastDay };
}
