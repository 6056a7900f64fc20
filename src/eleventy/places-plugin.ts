import type { CalendarEvent } from "../model/types.ts";
import { paths, scopeFiles, scopeFormats } from "../model/url-scheme.ts";
import { feedUrls } from "../outputs/feeds-urls.ts";
import { subscribeUrls } from "../outputs/ics-subscribe.ts";
import { jsonForScript, placeJsonLd } from "../outputs/jsonld.ts";
import { mostUpcoming } from "../outputs/subscribe-listing.ts";
import type { PlaceSummary } from "../places/place-index.ts";
import { placeLinks } from "../places/place-links.ts";
import type { SeriesSummary } from "../series/series-index.ts";
import { describeSeriesRule } from "../series/series-text.ts";
import type { PlacePage } from "../site/views.ts";
import type { PublicationPluginOptions } from "./publication.ts";
import { addFilter, type NunjucksAmender } from "./template-filters.ts";

/**
 * Filters for places and series (docs/site.md, "Places" and "Series"): what
 * an event page says about its place and its other dates, a list row's "and
 * N more dates", directions links, a place's JSON-LD and the subscribe links
 * of a place or a series, and which of them the subscribe page lists. The pages themselves are templates/places/ and
 * templates/series/; their files are the feed scopes' (src/outputs/feed-scopes.ts).
 */

const FEED_LABELS = { rss: "RSS", atom: "Atom", json: "JSON Feed" } as const;

export default function placesPlugin(
  eleventyConfig: NunjucksAmender,
  options: PublicationPluginOptions,
): void {
  const { site, current } = options;
  const views = () => current().data.views;
  addFilter(eleventyConfig, "placeOf", (event: CalendarEvent) => views().places.of(event) ?? null);
  addFilter(eleventyConfig, "seriesOf", (event: CalendarEvent) => views().series.of(event) ?? null);
  // The next date of an event's series and a few more, for its page.
  addFilter(eleventyConfig, "otherDates", (event: CalendarEvent) =>
    views().series.otherDates(event),
  );
  // COLLAPSE_SERIES: how many more upcoming dates a list row stands for.
  addFilter(eleventyConfig, "moreDates", (event: CalendarEvent) =>
    site.collapseSeries ? views().series.moreAfter(event) : 0,
  );
  // Said on every page of the series' dates: worked out once per series of the run.
  const rules = new WeakMap<SeriesSummary, string>();
  addFilter(eleventyConfig, "seriesRule", (series: SeriesSummary | null) => {
    if (!series?.rule) return "";
    let text = rules.get(series);
    if (text === undefined) {
      text = describeSeriesRule(series.rule, site.lang);
      rules.set(series, text);
    }
    return text;
  });
  addFilter(eleventyConfig, "placeLinks", (summary: PlaceSummary) => placeLinks(summary.place));
  addFilter(eleventyConfig, "placeJsonLd", (page: PlacePage) => {
    const events = page.days.flatMap((day) => day.events);
    return jsonForScript(
      placeJsonLd(
        page.summary.place,
        site.urls.absolute(page.summary.path),
        events.map((event) => ({
          event,
          url: site.urls.absolute(paths.event(event.calendarId, event.id)),
        })),
      ),
    );
  });
  // The places or series /subscribe/ lists: a bounded number, the busiest.
  addFilter(eleventyConfig, "mostUpcoming", (items: readonly (PlaceSummary | SeriesSummary)[]) =>
    mostUpcoming(items),
  );
  // A place's or a series' calendar and feeds, without a QR code: site paths for the feeds.
  addFilter(
    eleventyConfig,
    "scopeSubscribe",
    (scope: PlaceSummary["scope"] | SeriesSummary["scope"]) => {
      const files = scopeFiles(scope);
      const feeds = scopeFormats(scope).flatMap((format) =>
        format === "ics" ? [] : [{ label: FEED_LABELS[format], path: files[format] }],
      );
      return { ...subscribeUrls(feedUrls(scope, site.url).ics, scope.name), ics: files.ics, feeds };
    },
  );
}
