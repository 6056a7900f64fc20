import { paths } from "../model/url-scheme.ts";
import type { SiteData } from "./load.ts";

export interface SitemapEntry {
  readonly path: string;
  /** W3C date-time from the portal's update times; absent when unknown. */
  readonly lastmod: string | null;
}

/** Every HTML page of the site, with `lastmod` from the portal, never the build clock. */
export function sitemapEntries(portal: SiteData): SitemapEntry[] {
  const { views } = portal;
  const latest = (values: readonly (string | null)[]): string | null =>
    values.reduce<string | null>(
      (max, value) => (value && (!max || value > max) ? value : max),
      null,
    );
  const latestOfAll = latest(portal.events.map((e) => e.updatedAt));
  const latestByCalendar = new Map(
    views.calendars.map((s) => [
      s.calendar.id,
      latest([
        s.calendar.updatedAt,
        ...portal.events.filter((e) => e.calendarId === s.calendar.id).map((e) => e.updatedAt),
      ]),
    ]),
  );
  const latestByCategory = new Map(
    views.categories.map((c) => [c, latest([...c.upcoming, ...c.past].map((e) => e.updatedAt))]),
  );
  return [
    { path: paths.home(), lastmod: latestOfAll },
    { path: paths.calendars(), lastmod: latestOfAll },
    { path: paths.categories(), lastmod: latestOfAll },
    { path: paths.subscribe(), lastmod: null },
    { path: paths.search(), lastmod: null },
    ...views.allEventsPages.map((p) => ({ path: p.path, lastmod: latestOfAll })),
    ...views.listPages.map((p) => ({
      path: p.path,
      lastmod: latestByCalendar.get(p.calendar.id) ?? null,
    })),
    ...views.monthPages.map((p) => ({
      path: p.path,
      lastmod: latestByCalendar.get(p.calendar.id) ?? null,
    })),
    ...views.categoryPages.map((p) => ({
      path: p.path,
      lastmod: latestByCategory.get(p.summary) ?? null,
    })),
    // A page left where an event moved away from points to its new page: not one to index.
    ...views.eventPages
      .filter((p) => p.event.history?.removed?.kind !== "moved")
      .map((p) => ({ path: p.path, lastmod: p.event.updatedAt })),
  ];
}
