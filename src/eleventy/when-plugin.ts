import { messagesFor, translate } from "../i18n/messages.ts";
import { paths } from "../model/url-scheme.ts";
import { formatDayRange, WHEN_MESSAGE_KEYS } from "../site/when/labels.ts";
import type { DayRange, WhenKey } from "../site/when/ranges.ts";
import type { WhenPage } from "../site/when/when-views.ts";
import type { PublicationPluginOptions } from "./publication.ts";
import { addFilter } from "./template-filters.ts";

/**
 * Filters for the "when" pages (Today, This weekend...; docs/site.md, "What's
 * on") and the navigation that links them from the home page and every
 * calendar. The pages themselves are templates/when/when.njk over
 * `portal.when.pages`.
 */

// Eleventy's config API is untyped JavaScript.
// biome-ignore lint/suspicious/noExplicitAny: Eleventy ships no types
type EleventyConfig = any;

export default function whenPlugin(
  eleventyConfig: EleventyConfig,
  options: PublicationPluginOptions,
) {
  const { site, current } = options;
  const messages = messagesFor(site.lang);
  // The pages of the site (no argument) or of one calendar, in WHEN_KEYS order.
  addFilter(
    eleventyConfig,
    "whenPages",
    (calendarId?: string | null): readonly WhenPage[] =>
      current().data.when.scopes.find((scope) => scope.calendarId === (calendarId || null))
        ?.pages ?? [],
  );
  addFilter(eleventyConfig, "whenName", (key: WhenKey) =>
    translate(messages, WHEN_MESSAGE_KEYS[key].name),
  );
  addFilter(eleventyConfig, "whenEmpty", (key: WhenKey) =>
    translate(messages, WHEN_MESSAGE_KEYS[key].empty),
  );
  addFilter(eleventyConfig, "whenDates", (range: DayRange) => formatDayRange(range, site.lang));
  // Where a page that is out of date sends its visitors: the scope's upcoming events.
  addFilter(eleventyConfig, "whenAllEventsPath", (page: WhenPage) =>
    page.calendar ? paths.calendar(page.calendar.id) : paths.events(),
  );
}
