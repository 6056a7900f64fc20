import type { DeployTarget } from "../config/deploy.ts";
import type { SiteConfig } from "../config/site.ts";
import type { Calendar, CalendarEvent } from "../model/types.ts";
import { oembedDiscovery, oembedDiscoveryUrl } from "../oembed/discovery.ts";
import {
  type EventEmbedSnippets,
  eventEmbedSnippets,
  eventOembedLinkTag,
} from "../widget/event-card/event-card-snippets.ts";
import { type EmbedSnippets, embedSnippets, oembedLinkTag } from "../widget/snippets.ts";
import { addFilter, type NunjucksAmender } from "./template-filters.ts";

/**
 * Filters for the calendar page's "Embed" section, the event page's "Embed
 * this event", and their oEmbed discovery links (docs/widget.md). The
 * widget's files are written by the publisher plugin (src/widget/widget-files.ts).
 */

/** What the event page template has of an event: src/site/views.ts, EventPage. */
interface EventPageLike {
  readonly event: CalendarEvent;
  readonly calendar: Pick<Calendar, "id">;
}

export interface WidgetPluginOptions {
  readonly site: SiteConfig;
  /** DEPLOY_TARGET (default netlify): whether discovery names the oEmbed endpoint or the static answer. */
  readonly deployTarget?: DeployTarget;
}

export default function widgetPlugin(
  eleventyConfig: NunjucksAmender,
  options: WidgetPluginOptions,
): void {
  const { site } = options;
  const discovery = oembedDiscovery(options.deployTarget ?? "netlify", site.urls);
  addFilter(
    eleventyConfig,
    "embedSnippets",
    (calendar: Calendar): EmbedSnippets => embedSnippets(calendar, site),
  );
  addFilter(eleventyConfig, "oembedLink", (calendar: Calendar) =>
    oembedLinkTag(calendar, site, discovery),
  );
  addFilter(eleventyConfig, "oembedUrl", (calendar: Calendar) =>
    oembedDiscoveryUrl(calendar.id, site.urls, discovery),
  );
  // An event's card is offered while the event is in the portal, and not at
  // all with EVENT_EMBEDS=off (no card is written then).
  const embeddable = (page: EventPageLike | undefined): page is EventPageLike =>
    site.eventEmbeds && page?.event !== undefined && !page.event.history?.removed;
  addFilter(
    eleventyConfig,
    "eventEmbed",
    (page: EventPageLike | undefined): EventEmbedSnippets | null =>
      embeddable(page) ? eventEmbedSnippets(page.event, page.calendar, site) : null,
  );
  addFilter(eleventyConfig, "eventOembedLink", (page: EventPageLike | undefined) =>
    embeddable(page) ? eventOembedLinkTag(page.event, page.calendar, site) : "",
  );
}
