import { getSiteConfig } from "../config/site.ts";
import { subscribedPairs } from "../outputs/subscription-scopes.ts";
import { writeSearchIndex } from "../search/search-index.ts";
import { eventDays, placeName } from "../search/search-records.ts";
import { loadSiteData, type SiteData } from "../site/load.ts";

/**
 * What the search page and the filter forms need from the site data, and the
 * search index for `npm start` (a build writes it from src/cli/build.ts, after
 * Eleventy, into the staging folder it publishes).
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

const facts = new WeakMap<SiteData, SearchFacts>();

/** Computed once per site data. */
export function searchFacts(portal: SiteData, timeZone: string): SearchFacts {
  let found = facts.get(portal);
  if (!found) {
    const places = new Set<string>();
    let firstDay = "";
    let lastDay = "";
    for (const event of portal.views.events) {
      const place = placeName(event);
      if (place) places.add(place);
      const days = eventDays(event, timeZone);
      const first = days[0] ?? "";
      const last = days.at(-1) ?? "";
      if (first && (!firstDay || first < firstDay)) firstDay = first;
      if (last > lastDay) lastDay = last;
    }
    found = {
      places: [...places].sort((a, b) => a.localeCompare(b)),
      firstDay,
      lastDay,
    };
    facts.set(portal, found);
  }
  return found;
}

export default function searchPlugin(eleventyConfig: EleventyConfig): void {
  const site = getSiteConfig();
  eleventyConfig.addFilter("searchFacts", (portal: SiteData) => searchFacts(portal, site.timeZone));
  eleventyConfig.addFilter("subscribedPairs", (portal: SiteData) =>
    subscribedPairs(portal.events, portal.calendars, portal.categories, site),
  );

  eleventyConfig.on(
    "eleventy.after",
    async ({ directories, runMode }: { directories: { output: string }; runMode: string }) => {
      if (runMode === "build") return;
      await writeSearchIndex(directories.output, await loadSiteData(), site);
    },
  );
}
