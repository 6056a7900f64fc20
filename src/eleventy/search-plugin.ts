import type { SiteConfig } from "../config/site.ts";
import { eventDays, placeName } from "../search/search-records.ts";
import type { SiteData } from "../site/load.ts";
import type { Publication } from "./publication.ts";

/**
 * What the search page and the filter forms need from the site's data
 * (docs/site.md, "Search and filters"). The index itself is built beside
 * Eleventy and written by the publisher plugin (src/search/search-index.ts).
 */

// Eleventy's config API is untyped JavaScript.
// biome-ignore lint/suspicious/noExplicitAny: Eleventy ships no types
type EleventyConfig = any;

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

export interface SearchPluginOptions {
  /** The run's data and what is derived from it (src/eleventy/publisher-plugin.ts). */
  readonly current: () => Publication;
}

export default function searchPlugin(eleventyConfig: EleventyConfig, options: SearchPluginOptions) {
  const { current } = options;
  eleventyConfig.addFilter("searchFacts", () => current().searchFacts);
  // The calendar x category pairs offered to subscribers.
  eleventyConfig.addFilter("subscribedPairs", () =>
    current().scopes.subscriptions.calendarCategories.map((entry) => entry.scope),
  );
}
