/**
 * Template filters, added to the Nunjucks environment Eleventy renders with
 * (its own pages and the streamed ones) as they are. Eleventy's `addFilter`
 * wraps every call three times (the page's data copied into `this`, a
 * benchmark timer, a check for promises): about half a second of a
 * 10,000-event build, spent on filters that read only their arguments and
 * the publisher's values, never `this` (docs/performance.md, "What changed,
 * and its effect", item 10).
 * Eleventy applies `amendLibrary` to each environment it creates, so
 * `npm start`'s rebuilds get them too.
 */

// biome-ignore lint/suspicious/noExplicitAny: filters take what templates pass
export type TemplateFilter = (...args: any[]) => unknown;

/** The part of Eleventy's configuration API this uses. */
export interface NunjucksAmender {
  amendLibrary(
    name: "njk",
    amend: (environment: { addFilter(name: string, filter: TemplateFilter): void }) => void,
  ): void;
}

export function addFilter(
  eleventyConfig: NunjucksAmender,
  name: string,
  filter: TemplateFilter,
): void {
  eleventyConfig.amendLibrary("njk", (environment) => environment.addFilter(name, filter));
}
