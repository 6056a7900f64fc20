import { cp, mkdir } from "node:fs/promises";
import { dirname, join } from "node:path";
import { getSiteConfig } from "../config/site.ts";
import { loadMessages, translate } from "../i18n/messages.ts";
import type { CalendarEvent, Place } from "../model/types.ts";
import { encodeIdSegment, paths } from "../model/url-scheme.ts";
import { eventJsonLd, jsonForScript } from "../outputs/jsonld.ts";
import { calendarClass, calendarColorsCss } from "../site/calendar-colors.ts";
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
import { loadSiteData, resetSiteData, type SiteData } from "../site/load.ts";
import { sitemapEntries } from "../site/sitemap.ts";
import type { MonthRef } from "../site/views.ts";
import nunjucksCachePlugin from "./nunjucks-cache-plugin.ts";
import { addStreamedTemplate, addWorkerGlobal } from "./streamed-outputs-plugin.ts";

// Eleventy's config API is untyped JavaScript.
// biome-ignore lint/suspicious/noExplicitAny: Eleventy ships no types
type EleventyConfig = any;

/** Nunjucks calls filters with the template's data as `this.ctx`. */
interface FilterThis {
  ctx: { portal: SiteData };
}

/** Filters, static assets and media for the events website. */
export default function sitePlugin(eleventyConfig: EleventyConfig): void {
  const site = getSiteConfig();
  const messages = loadMessages(site.uiLanguage);
  eleventyConfig.addPlugin(nunjucksCachePlugin);
  // One page per event: rendered streamed, outside Eleventy's pagination.
  addStreamedTemplate(eleventyConfig, "calendars/event.njk");
  // `site` holds a Luxon DateTime, which a copy to a render worker would lose;
  // workers read the same settings (SITE_NOW is pinned by the build).
  addWorkerGlobal(eleventyConfig, "site", getSiteConfig);

  eleventyConfig.addFilter("t", (key: string, values?: Record<string, unknown>) =>
    translate(messages, key, values),
  );
  eleventyConfig.addFilter("absoluteUrl", (path: string) => `${site.url}${path}`);
  // Pages link to files of this site by path, so a local preview works too;
  // absolute URLs are for feeds, calendars and metadata read elsewhere.
  eleventyConfig.addFilter("localPath", (url: string) =>
    url.startsWith(`${site.url}/`) ? url.slice(site.url.length) : url,
  );
  eleventyConfig.addFilter("paths", () => paths);
  eleventyConfig.addFilter("segment", (id: string) => encodeIdSegment(id));
  eleventyConfig.addFilter("when", (event: CalendarEvent) => formatWhen(event, site.lang));
  eleventyConfig.addFilter("timeRange", (event: CalendarEvent, pageZone?: string) =>
    formatListTime(event, site.lang, pageZone),
  );
  eleventyConfig.addFilter("dayLabel", (isoDate: string, zone: string) =>
    formatLocalDay(isoDate, site.lang, zone),
  );
  eleventyConfig.addFilter("monthLabel", (year: number, month: number) =>
    formatMonth(year, month, site.lang),
  );
  eleventyConfig.addFilter("weekdays", (width?: "short" | "long") =>
    weekdayNames(site.lang, width),
  );
  eleventyConfig.addFilter("dayNumber", (isoDate: string) => Number(isoDate.slice(8, 10)));
  eleventyConfig.addFilter("readableDateTime", (iso: string) =>
    formatDateTime(iso, site.lang, site.timeZone),
  );
  eleventyConfig.addFilter("zoneName", (event: CalendarEvent) =>
    zoneDisplayName(event.timeZone, site.lang),
  );
  eleventyConfig.addFilter("mapLink", (place: Place | null) => {
    if (!place?.geo) return null;
    const { lat, lon } = place.geo;
    return `https://www.openstreetmap.org/?mlat=${lat}&mlon=${lon}#map=17/${lat}/${lon}`;
  });
  eleventyConfig.addFilter("eventJsonLd", (event: CalendarEvent) =>
    jsonForScript(eventJsonLd(event, `${site.url}${paths.event(event.calendarId, event.id)}`)),
  );
  // The start before the latest new date (src/changes), in the event's zone.
  eleventyConfig.addFilter("previousWhen", (event: CalendarEvent) => {
    const previous = event.history?.previousStarts.at(-1);
    if (!previous) return "";
    return event.allDay
      ? formatDay(previous, site.lang, event.timeZone)
      : formatDateTime(previous, site.lang, event.timeZone);
  });
  // Where an event that moved to another calendar is now; "" for any other event.
  eleventyConfig.addFilter("movedUrl", (event: CalendarEvent) => {
    const removed = event.history?.removed;
    return removed?.kind === "moved"
      ? `${site.url}${paths.event(removed.calendarId, event.id)}`
      : "";
  });
  eleventyConfig.addFilter("isoDate", (iso: string) => iso.slice(0, 10));
  eleventyConfig.addFilter("head", <T>(items: readonly T[], count: number) =>
    items.slice(0, count),
  );
  eleventyConfig.addFilter("eventHref", (event: CalendarEvent) =>
    paths.event(event.calendarId, event.id),
  );
  eleventyConfig.addFilter("calendarHref", (calendarId: string) => paths.calendar(calendarId));
  eleventyConfig.addFilter("categoryHref", (categoryId: string) => paths.category(categoryId));
  eleventyConfig.addFilter("calendarClass", (calendarId: string) => calendarClass(calendarId));
  eleventyConfig.addFilter("calendarName", function (this: FilterThis, calendarId: string) {
    return this.ctx.portal.calendars.find((c) => c.id === calendarId)?.name ?? calendarId;
  });
  eleventyConfig.addFilter("calendarSummary", function (this: FilterThis, calendarId: string) {
    return this.ctx.portal.views.calendars.find((s) => s.calendar.id === calendarId);
  });
  // The month view opens on the current month, or the nearest one with events.
  eleventyConfig.addFilter("firstUpcomingMonth", (months: readonly MonthRef[]) => {
    const current = site.now.setZone(site.timeZone).toFormat("yyyy-MM");
    const key = (m: MonthRef) => `${m.year}-${String(m.month).padStart(2, "0")}`;
    return months.find((m) => key(m) >= current) ?? months.at(-1) ?? null;
  });
  eleventyConfig.addFilter("sitemapEntries", (portal: SiteData) => sitemapEntries(portal));

  eleventyConfig.addTemplate(
    "assets/calendars.11ty.js",
    {
      data: { permalink: "/assets/calendars.css", eleventyExcludeFromCollections: true },
      render: (data: { portal: SiteData }) => calendarColorsCss(data.portal.calendars),
    },
    {},
  );

  eleventyConfig.setNunjucksEnvironmentOptions({ autoescape: true });
  eleventyConfig.addPassthroughCopy({ "templates/assets": "assets" });

  // While serving, every rebuild fetches the portal again (a build fetches once).
  eleventyConfig.on("eleventy.before", ({ runMode }: { runMode: string }) => {
    if (runMode !== "build") resetSiteData();
  });

  // Images downloaded while loading the data are copied in once the site is written.
  eleventyConfig.on(
    "eleventy.after",
    async ({ directories }: { directories: { output: string } }) => {
      const data = await loadSiteData();
      await Promise.all(
        data.media.map(async (file) => {
          const target = join(directories.output, file.outputPath);
          await mkdir(dirname(target), { recursive: true });
          await cp(file.cachePath, target);
        }),
      );
    },
  );
}
