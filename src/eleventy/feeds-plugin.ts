import type { CalendarEvent } from "../model/types.ts";
import type { FeedScope } from "../model/url-scheme.ts";
import { digestUrls, eventPageUrl, feedLinks, feedUrls } from "../outputs/feeds-urls.ts";
import { renderEventIcs } from "../outputs/ics.ts";
import { addToCalendarLinks, withInlineIcs } from "../outputs/ics-add-to-calendar.ts";
import { subscribeLinks, subscribeUrls } from "../outputs/ics-subscribe.ts";
import { renderQrSvg } from "../outputs/qr.ts";
import type { PublicationPluginOptions } from "./publication.ts";
import { addFilter, type NunjucksAmender } from "./template-filters.ts";

/**
 * Filters for feed autodiscovery, subscribe and add-to-calendar links
 * (docs/feeds.md). The files themselves are written by the publisher plugin
 * (src/outputs/feed-files.ts).
 */

export default function feedsPlugin(
  eleventyConfig: NunjucksAmender,
  options: PublicationPluginOptions,
): void {
  const { site, current } = options;
  addFilter(eleventyConfig, "feedLinks", (scope: unknown, kind?: string) =>
    feedLinks(toScope(scope, kind), site),
  );
  addFilter(eleventyConfig, "feedUrls", (scope: unknown, kind?: string) =>
    feedUrls(toScope(scope, kind), site.url),
  );
  // The scope's weekly digest (src/digest): { rss, html, text }, or null for a scope without one.
  addFilter(eleventyConfig, "digestUrls", (scope: unknown, kind?: string) =>
    digestUrls(toScope(scope, kind), site.url),
  );
  addFilter(eleventyConfig, "subscribeLinks", (httpsIcsUrl: string, name: string) =>
    subscribeLinks(httpsIcsUrl, name),
  );
  // Without the QR code: where a page shows none (an event's "Add to calendar").
  addFilter(eleventyConfig, "subscribeUrls", (httpsIcsUrl: string, name: string) =>
    subscribeUrls(httpsIcsUrl, name),
  );
  addFilter(eleventyConfig, "addToCalendarLinks", (event: CalendarEvent, eventUrl?: string) => {
    const links = addToCalendarLinks(event, eventUrl ?? eventPageUrl(site.url, event), site.lang);
    if (!links || site.eventIcs === "file") return links;
    // No event.ics is written (src/outputs/feed-files.ts): the link carries its bytes.
    const ics = renderEventIcs(event, { site, dataUpdatedAt: current().scopes.dataUpdatedAt });
    return withInlineIcs(links, ics);
  });
  addFilter(eleventyConfig, "qrSvg", (text: string, label?: string) => renderQrSvg(text, label));
  // How a scope's calendar.ics was trimmed to its size budget (null: it was not).
  addFilter(
    eleventyConfig,
    "icsTrim",
    (scope: unknown, kind?: string) => current().scopes.plan(toScope(scope, kind)).trim,
  );
}

/**
 * Filter scope argument: "/" or "site" for the whole site; a calendar or a
 * category object ({ id, name }), with `kind` "calendar" or "category". Without
 * `kind`, an object with a `timeZone` is taken for a calendar.
 */
function toScope(value: unknown, kind?: string): FeedScope {
  if (value === "/" || value === "site" || value === undefined || value === null) {
    return { kind: "site" };
  }
  // Scopes given whole: a calendar x category pair, a place, a series.
  const given = typeof value === "object" ? (value as { kind?: unknown }).kind : undefined;
  if (given === "calendarCategory" || given === "place" || given === "series") {
    return value as FeedScope;
  }
  if (typeof value === "object" && "id" in value && "name" in value) {
    const { id, name } = value as { id: unknown; name: unknown };
    const resolved = kind ?? ("timeZone" in value ? "calendar" : "category");
    if (resolved === "calendar" || resolved === "category") {
      return { kind: resolved, id: String(id), name: String(name) };
    }
  }
  throw new Error(
    `feeds filter: expected "/" or a calendar/category object with kind "calendar" or "category", got ${JSON.stringify(value)}`,
  );
}
