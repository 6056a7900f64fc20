import { describe, expect, it } from "vitest";
import { paths } from "../../src/model/url-scheme.ts";
import type { SiteData } from "../../src/site/load.ts";
import { sitemapEntries } from "../../src/site/sitemap.ts";

const calendar = (id: string, updatedAt: string) => ({ id, name: id, updatedAt });
const event = (id: string, calendarId: string, updatedAt: string, merged?: string[]) => ({
  id,
  calendarId,
  updatedAt,
  createdAt: "2026-01-01T00:00:00Z",
  merged: merged?.map((copy) => ({ calendarId: copy })),
});

/** The parts of a site's data the sitemap reads: two calendars' list pages and their events. */
function site(events: ReturnType<typeof event>[]): SiteData {
  const calendars = [calendar("a", "2026-02-01T00:00:00Z"), calendar("b", "2026-03-01T00:00:00Z")];
  const none: unknown[] = [];
  return {
    events,
    views: {
      calendars: calendars.map((c) => ({ calendar: c })),
      listPages: calendars.map((c) => ({ path: paths.calendar(c.id), calendar: c })),
      allEventsPages: none,
      monthPages: none,
      categories: none,
      categoryPages: none,
      placePages: none,
      seriesPages: none,
      organizationIndex: none,
      organizationPages: none,
      eventPages: none,
    },
    when: { pages: none },
  } as unknown as SiteData;
}

const lastmodOf = (data: SiteData, path: string) =>
  sitemapEntries(data).find((entry) => entry.path === path)?.lastmod;

describe("the sitemap's lastmod of a calendar's pages", () => {
  it("should be the newest of the calendar's own modification and its events', merged copies included", () => {
    const data = site([
      event("1", "a", "2026-04-01T00:00:00Z"),
      event("2", "a", "2026-01-15T00:00:00Z", ["b"]),
      event("3", "b", "2026-02-15T00:00:00Z", ["a"]),
      event("4", "a", "2026-05-01T00:00:00+02:00", ["b"]),
    ]);
    // a: its events' newest; b: an event merged into it from a is newer than b's own.
    expect(lastmodOf(data, paths.calendar("a"))).toBe("2026-05-01T00:00:00+02:00");
    expect(lastmodOf(data, paths.calendar("b"))).toBe("2026-05-01T00:00:00+02:00");
  });

  it("should be the calendar's own when its events are older or it has none", () => {
    const data = site([event("1", "a", "2026-01-10T00:00:00Z")]);
    expect(lastmodOf(data, paths.calendar("a"))).toBe("2026-02-01T00:00:00Z");
    expect(lastmodOf(data, paths.calendar("b"))).toBe("2026-03-01T00:00:00Z");
  });
});
