import type { PublicationPluginOptions } from "./publication.ts";
import { addFilter } from "./template-filters.ts";

/**
 * Filters for the search page and the filter forms (docs/site.md, "Search
 * and filters"). The index itself is built beside Eleventy and written by the
 * publisher plugin (src/search/search-index.ts).
 */

// Eleventy's config API is untyped JavaScript.
// biome-ignore lint/suspicious/noExplicitAny: Eleventy ships no types
type EleventyConfig = any;

export default function searchPlugin(
  eleventyConfig: EleventyConfig,
  options: Pick<PublicationPluginOptions, "current">,
) {
  const { current } = options;
  addFilter(eleventyConfig, "searchFacts", () => current().searchFacts);
  // The calendar x category pairs offered to subscribers.
  addFilter(eleventyConfig, "subscribedPairs", () =>
    current().scopes.subscriptions.calendarCategories.map((entry) => entry.scope),
  );
}
