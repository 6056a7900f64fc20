import type { ShareCard } from "../cards/share-cards.ts";
import { messagesFor, translate } from "../i18n/messages.ts";
import { textDirection } from "../i18n/text-direction.ts";
import { noteScope, scopeRead } from "../model/shown-reads.ts";
import type { AccessFeature, Calendar, CalendarEvent, Place } from "../model/types.ts";
import { recentPast } from "../model/upcoming-and-past.ts";
import { encodeIdSegment, paths } from "../model/url-scheme.ts";
import { eventJsonLd, eventJsonLdId, jsonForScript } from "../outputs/jsonld.ts";
import { richResultsKey } from "../outputs/rich-results.ts";
import { calendarClass } from "../site/calendar-colors.ts";
import { viewEventsUpdatedAt } from "../site/data-updated.ts";
import { fitHeadings } from "../site/fit-headings.ts";
import {
  formatDateTime,
  formatDay,
  formatListTime,
  formatLocalDay,
  formatMonth,
  formatWhen,
  weekdayNames,
  zoneDisplayName,
} from "../site/format.ts";
import { addressParts, hEventEnd, hEventStart } from "../site/microformats/h-event.ts";
import type { MonthRef } from "../site/views.ts";
import type { Publication, PublicationPluginOptions } from "./publication.ts";
import { addFilter } from "./template-filters.ts";

// Eleventy's config API is untyped JavaScript.
// biome-ignore lint/suspicious/noExplicitAny: Eleventy ships no types
type EleventyConfig = any;

/** Filters for the events website's pages (docs/site.md). */
export default function sitePlugin(
  eleventyConfig: EleventyConfig,
  options: PublicationPluginOptions,
) {
  const { site, current } = options;
  const { urls } = site;
  const messages = messagesFor(site.lang);

  // A message in the site's language (src/i18n): ICU MessageFormat, plurals by CLDR's rules.
  addFilter(eleventyConfig, "t", (key: string, values?: Record<string, unknown>) =>
    translate(messages, key, values),
  );
  // Labels the pages' scripts fill in the browser: `{name}` patterns, and a count's plural forms (JSON).
  addFilter(eleventyConfig, "tPattern", (key: string) => messages.pattern(key));
  addFilter(eleventyConfig, "tPlurals", (key: string) => JSON.stringify(messages.plurals(key)));
  // An access feature as the event page lists it and its structured data names it.
  const accessName = (feature: AccessFeature): string =>
    "feature" in feature ? translate(messages, `access_${feature.feature}`) : feature.text;
  addFilter(eleventyConfig, "accessName", accessName);
  // Every address a page writes comes from the URL scheme (src/model/url-scheme.ts):
  // links to the site's own pages and files by path, in the site's folder, so a
  // local preview works too; absolute URLs for what is read elsewhere (metadata).
  addFilter(eleventyConfig, "href", (path: string) => urls.href(path));
  addFilter(eleventyConfig, "absoluteUrl", (path: string) => urls.absolute(path));
  // An absolute URL of this site (feeds and calendars carry those) as a link by path.
  addFilter(eleventyConfig, "localLink", (url: string) => urls.localLink(url));
  addFilter(eleventyConfig, "segment", (id: string) => encodeIdSegment(id));
  // <html dir>: "rtl" for Arabic and the other right-to-left languages (docs/site.md, "Right to left").
  addFilter(eleventyConfig, "textDirection", (tag: string) => textDirection(tag));
  addFilter(eleventyConfig, "when", (event: CalendarEvent) => formatWhen(event, site.lang));
  addFilter(eleventyConfig, "timeRange", (event: CalendarEvent, pageZone?: string) =>
    formatListTime(event, site.lang, pageZone),
  );
  addFilter(eleventyConfig, "dayLabel", (isoDate: string, zone: string) =>
    formatLocalDay(isoDate, site.lang, zone),
  );
  addFilter(eleventyConfig, "monthLabel", (year: number, month: number) =>
    formatMonth(year, month, site.lang),
  );
  addFilter(eleventyConfig, "weekdays", (width?: "short" | "long") =>
    weekdayNames(site.lang, width),
  );
  addFilter(eleventyConfig, "dayNumber", (isoDate: string) => Number(isoDate.slice(8, 10)));
  addFilter(eleventyConfig, "readableDateTime", (iso: string) =>
    formatDateTime(iso, site.lang, site.timeZone),
  );
  // "Data updated": the newest modification the page shows, else its calendar's, else the
  // snapshot's; never the build's clock. The last two move with any edit of the calendar's
  // events or the site's: the page record notes them (src/model/shown-reads.ts).
  addFilter(eleventyConfig, "dataUpdated", (view: unknown) => {
    const shown = viewEventsUpdatedAt(view);
    if (shown !== null) return shown;
    const calendar = (view as { calendar?: Calendar } | null)?.calendar;
    if (calendar?.updatedAt) {
      noteScope(scopeRead.calendar(calendar.id));
      return calendar.updatedAt;
    }
    noteScope(scopeRead.siteUpdated);
    return current().data.updatedAt;
  });
  addFilter(eleventyConfig, "zoneName", (event: CalendarEvent) =>
    zoneDisplayName(event.timeZone, site.lang),
  );
  addFilter(eleventyConfig, "mapLink", (place: Place | null) => {
    if (!place?.geo) return null;
    const { lat, lon } = place.geo;
    return `https://www.openstreetmap.org/?mlat=${lat}&mlon=${lon}#map=17/${lat}/${lon}`;
  });
  // The start before the latest new date (src/changes), in the event's zone.
  addFilter(eleventyConfig, "previousWhen", (event: CalendarEvent) => {
    const previous = event.history?.previousStarts.at(-1);
    if (!previous) return "";
    return event.allDay
      ? formatDay(previous, site.lang, event.timeZone)
      : formatDateTime(previous, site.lang, event.timeZone);
  });
  // Where an event that moved to another calendar is now; "" for any other event.
  addFilter(eleventyConfig, "movedUrl", (event: CalendarEvent) => {
    const removed = event.history?.removed;
    return removed?.kind === "moved"
      ? urls.absolute(paths.event(removed.calendarId, event.id))
      : "";
  });
  addFilter(eleventyConfig, "isoDate", (iso: string) => iso.slice(0, 10));
  // An event's description under the page's h1 (src/site/fit-headings.ts).
  addFilter(eleventyConfig, "fitHeadings", (html: string) => fitHeadings(html));
  addFilter(eleventyConfig, "head", <T>(items: readonly T[], count: number) =>
    items.slice(0, count),
  );
  addFilter(eleventyConfig, "recentPast", recentPast);
  addFilter(eleventyConfig, "eventHref", (event: CalendarEvent) =>
    urls.href(paths.event(event.calendarId, event.id)),
  );
  addFilter(eleventyConfig, "calendarHref", (calendarId: string) =>
    urls.href(paths.calendar(calendarId)),
  );
  addFilter(eleventyConfig, "categoryHref", (categoryId: string) =>
    urls.href(paths.category(categoryId)),
  );
  addFilter(eleventyConfig, "calendarClass", (calendarId: string) => calendarClass(calendarId));
  addFilter(eleventyConfig, "eventJsonLd", (event: CalendarEvent) => {
    const images = current().cards?.structuredDataImages(event);
    const url = urls.absolute(paths.event(event.calendarId, event.id));
    const jsonLd = eventJsonLd(event, url, images, accessName);
    // Counted as emitted, for the build report's rich results block.
    current().richResults.add(jsonLd, richResultsKey(event, images));
    return jsonForScript(jsonLd);
  });
  // What an event page kept as published shows, counted as eventJsonLd counts it, unwritten
  // (and unmade, when a build with this code counted the same event).
  addFilter(eleventyConfig, "countEventJsonLd", (event: CalendarEvent) => {
    const images = current().cards?.structuredDataImages(event);
    const url = urls.absolute(paths.event(event.calendarId, event.id));
    current().richResults.addKept(eventJsonLdId(url), richResultsKey(event, images), () =>
      eventJsonLd(event, url, images, accessName),
    );
    return "";
  });
  // Microformats2 values (h-event, h-adr): src/site/microformats/.
  addFilter(eleventyConfig, "hEventStart", hEventStart);
  addFilter(eleventyConfig, "hEventEnd", hEventEnd);
  addFilter(eleventyConfig, "addressParts", addressParts);
  // The page's share card (src/cards): an event's own, its calendar's or
  // category's, else the site's; null with SHARE_CARDS=off.
  addFilter(eleventyConfig, "shareCard", (subject: unknown) => shareCardOf(current(), subject));
  addFilter(
    eleventyConfig,
    "calendarName",
    (calendarId: string) =>
      current().data.calendars.find((c) => c.id === calendarId)?.name ?? calendarId,
  );
  addFilter(eleventyConfig, "calendarSummary", (calendarId: string) =>
    current().data.views.calendars.find((s) => s.calendar.id === calendarId),
  );
  // The month view opens on the current month, or the nearest one with events.
  addFilter(eleventyConfig, "firstUpcomingMonth", (months: readonly MonthRef[]) => {
    const now = site.now.setZone(site.timeZone).toFormat("yyyy-MM");
    const key = (m: MonthRef) => `${m.year}-${String(m.month).padStart(2, "0")}`;
    return months.find((m) => key(m) >= now) ?? months.at(-1) ?? null;
  });
}

/**
 * What a page shares as: `subject` is the page's event, else the scope of its
 * feeds (base.njk's `feedScope`: a calendar, a category, or "/" for the site).
 */
function shareCardOf(publication: Publication, subject: unknown): ShareCard | null {
  const cards = publication.cards;
  if (!cards) return null;
  if (typeof subject === "object" && subject !== null) {
    const value = subject as Record<string, unknown>;
    if (typeof value.calendarId === "string" && typeof value.id === "string") {
      return cards.forEvent({ calendarId: value.calendarId, id: value.id }) ?? cards.forSite();
    }
    if (typeof value.id === "string") {
      return "timeZone" in value ? cards.forCalendar(value.id) : cards.forCategory(value.id);
    }
  }
  return cards.forSite();
}
