import { calendarIdsOf } from "../model/event-calendars.ts";
import { paths } from "../model/url-scheme.ts";
import { modifiedAt, newest } from "./data-updated.ts";
import type { SiteData } from "./load.ts";
import { whenSitemapEntries } from "./when/when-sitemap.ts";

export interface SitemapEntry {
  readonly path: string;
  /** W3C date-time from the portal's update times; absent when unknown. */
  readonly lastmod: string | null;
}

/** Every HTML page of the site, with `lastmod` from the portal, never the build clock. */
export function sitemapEntries(portal: SiteData): SitemapEntry[] {
  const { views } = portal;
  const latestOfAll = newest(portal.events.map(modifiedAt));
  const latestByCalendar = latestOfEachCalendar(portal);
  const latestByCategory = new Map(
    views.categories.map((c) => [c, newest([...c.upcoming, ...c.past].map(modifiedAt))]),
  );
  return [
    { path: paths.home(), lastmod: latestOfAll },
    { path: paths.calendars(), lastmod: latestOfAll },
    { path: paths.categories(), lastmod: latestOfAll },
    { path: paths.subscribe(), lastmod: null },
    { path: paths.accessibility(), lastmod: null },
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
    ...whenSitemapEntries(portal.when),
    ...views.categoryPages.map((p) => ({
      path: p.path,
      lastmod: latestByCategory.get(p.summary) ?? null,
    })),
    { path: paths.places(), lastmod: latestOfAll },
    ...views.placePages.map((p) => ({
      path: p.path,
      lastmod: newest(p.days.flatMap((day) => day.events).map(modifiedAt)),
    })),
    ...views.seriesPages.map((p) => ({ path: p.path, lastmod: newest(p.events.map(modifiedAt)) })),
    // A site of several sources: the organizations' index and each one's pages.
    ...views.organizationIndex.map((p) => ({ path: p.path, lastmod: latestOfAll })),
    ...views.organizationPages.map((p) => ({
      path: p.path,
      lastmod: newest(p.days.flatMap((day) => day.events).map(modifiedAt)),
    })),
    // A page left where an event moved away from points to its new page: not one to index.
    ...views.eventPages
      .filter((p) => p.event.history?.removed?.kind !== "moved")
      .map((p) => ({ path: p.path, lastmod: modifiedAt(p.event) })),
  ];
}

/**
 * Each calendar's newest modification: its own and its events', the events
 * merged into another calendar's counted there too. One pass over the events
 * (a pass per calendar was calendars x events: 5,000,000 calls at 100,000
 * events in 50 calendars).
 */
function latestOfEachCalendar(portal: SiteData): Map<string, string | null> {
  const modified = new Map<string, (string | null)[]>();
  for (const { calendar } of portal.views.calendars)
    modified.set(calendar.id, [calendar.updatedAt]);
  for (const event of portal.events) {
    const at = modifiedAt(event);
    for (const id of calendarIdsOf(event)) modified.get(id)?.push(at);
  }
  return new Map([...modified].map(([id, values]) => [id, newest(values)]));
}
