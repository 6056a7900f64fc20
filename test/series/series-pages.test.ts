import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CalendarEvent, Place } from "../../src/model/types.ts";
import { paths } from "../../src/model/url-scheme.ts";
import { PlaceIndex } from "../../src/places/place-index.ts";
import { type RunningPortal, startPortal } from "../../src/portal/index.ts";
import type { PortalDataset } from "../../src/portal/types.ts";
import { SeriesIndex } from "../../src/series/series-index.ts";
import { SERIES_DATES_PER_PAGE, seriesPages } from "../../src/series/series-pages.ts";
import { NOW, NOW_MS } from "../helpers/clock.ts";
import { type BuiltSite, buildSite, removeBuild } from "../helpers/demo-build.ts";
import { calendarEvent, portalEvent } from "../helpers/events.ts";
import { readSiteFile } from "../helpers/files.ts";
import { htmlElements } from "../helpers/html-elements.ts";

const pool: Place = { name: "Pool", address: null, geo: null };
const calendar = {
  id: "sport",
  name: "Sport",
  description: "",
  timeZone: "UTC",
  color: null,
  updatedAt: null,
};

/** The `i`th of a morning swim every day, the first `past` of them before NOW (07:00 UTC, NOW at 12:00). */
function swim(i: number, past: number) {
  const day = new Date(NOW_MS + (i - past + 1) * 86_400_000).toISOString().slice(0, 10);
  return {
    id: `swim-${i}`,
    calendarId: "sport",
    title: "Morning Swim",
    start: `${day}T07:00:00Z`,
    end: `${day}T08:00:00Z`,
    timeZone: "UTC",
  };
}

/** A morning swim every day, `past` days before NOW and `upcoming` days from it. */
function dailySwims(past: number, upcoming: number): CalendarEvent[] {
  return Array.from({ length: past + upcoming }, (_, i) =>
    calendarEvent({ ...swim(i, past), location: pool }),
  );
}

function pagesOf(events: readonly CalendarEvent[]) {
  const upcoming = events.filter((e) => Date.parse(e.end) >= NOW_MS);
  const past = events.filter((e) => Date.parse(e.end) < NOW_MS).reverse();
  const index = new SeriesIndex(upcoming, past, new PlaceIndex(upcoming, past), ["sport"]);
  return seriesPages(index, new Map([["sport", calendar]]));
}

const ids = (events: readonly CalendarEvent[]) => events.map((e) => e.id);

describe("seriesPages", () => {
  it("should give a series of few dates one page at its address", () => {
    const [page, ...more] = pagesOf(dailySwims(2, 3));
    expect(more).toEqual([]);
    expect(page?.path).toMatch(/^\/calendars\/sport\/series\/morning-swim-[0-9a-f]{10}\/$/);
    expect(page).toMatchObject({ pageNumber: 1, pageCount: 1, previousPath: null, nextPath: null });
    expect(ids(page?.upcoming ?? [])).toEqual(["swim-2", "swim-3", "swim-4"]);
    expect(ids(page?.past ?? [])).toEqual(["swim-1", "swim-0"]);
  });

  it("should page a series past 100 dates: the next dates first, then the rest, then the past, most recent first", () => {
    const swims = dailySwims(100, 150);
    const pages = pagesOf(swims);
    expect(pages).toHaveLength(3);
    const [first, second, third] = pages;
    const path = first?.path ?? "";
    expect(pages.map((page) => page.path)).toEqual([path, `${path}page/2/`, `${path}page/3/`]);
    expect(pages.map((page) => [page.previousPath, page.nextPath])).toEqual([
      [null, `${path}page/2/`],
      [path, `${path}page/3/`],
      [`${path}page/2/`, null],
    ]);
    expect(ids(first?.upcoming ?? [])).toEqual(ids(swims.slice(100, 200)));
    expect(first?.past).toEqual([]);
    expect(ids(second?.upcoming ?? [])).toEqual(ids(swims.slice(200, 250)));
    expect(ids(second?.past ?? [])).toEqual(ids(swims.slice(50, 100).reverse()));
    expect(third?.upcoming).toEqual([]);
    expect(ids(third?.past ?? [])).toEqual(ids(swims.slice(0, 50).reverse()));
    // Every date once, no page longer than the limit.
    expect(pages.flatMap((page) => ids(page.events)).sort()).toEqual(ids(swims).sort());
    for (const page of pages) expect(page.events.length).toBeLessThanOrEqual(SERIES_DATES_PER_PAGE);
  });
});

describe("series/series.njk, built", () => {
  const SWIMS = 230;
  let portal: RunningPortal;
  let site: BuiltSite;
  let series: string;

  beforeAll(async () => {
    const swims = Array.from({ length: SWIMS }, (_, i) => ({
      ...portalEvent({ ...swim(i, 30), location: { name: "Pool", address: null, geo: null } }),
      revision: 1,
      createdAt: "2026-01-01T00:00:00Z",
      updatedAt: "2026-01-01T00:00:00Z",
    }));
    const dataset: PortalDataset = {
      version: 1,
      organizations: [{ id: "club", name: "Club" }],
      calendars: [
        {
          id: "sport",
          name: "Sport",
          description: "",
          timeZone: "UTC",
          color: null,
          updatedAt: "2026-01-01T00:00:00Z",
          organizations: ["club"],
        },
      ],
      events: swims,
    };
    portal = await startPortal({ host: "127.0.0.1", port: 0, now: NOW, dataset });
    site = await buildSite({
      EVENT_API_URL: portal.url,
      EVENT_API_TOKEN: portal.token,
      SHARE_CARDS: "off",
    });
    expect(site.status, site.log).toBe(0);
    series = /href="(\/calendars\/sport\/series\/[^/"]+\/)"/.exec(
      readSiteFile(site.dir, `${paths.event("sport", "swim-40").slice(1)}index.html`),
    )?.[1] as string;
  }, 180_000);

  afterAll(async () => {
    await portal?.close();
    if (site) removeBuild(site);
  });

  const page = (n: number) =>
    readSiteFile(site.dir, `${paths.listPage(series, n).slice(1)}index.html`);
  /** The page's links to its neighbours, as a browser reads them. */
  const relLinks = (html: string): Record<string, string> =>
    Object.fromEntries(
      htmlElements(html)
        .filter((e) => e.tagName === "a" && /^(prev|next)$/.test(e.attributes.get("rel") ?? ""))
        .map((e) => [e.attributes.get("rel"), e.attributes.get("href")]),
    );

  it("should write a series of 230 dates as three linked pages, the next dates first and the past last", () => {
    expect(series).toMatch(/^\/calendars\/sport\/series\/morning-swim-[0-9a-f]{10}\/$/);
    const [first, second, third] = [page(1), page(2), page(3)];
    expect(relLinks(first)).toEqual({ next: `${series}page/2/` });
    expect(relLinks(second)).toEqual({ prev: series, next: `${series}page/3/` });
    expect(relLinks(third)).toEqual({ prev: `${series}page/2/` });
    // 200 upcoming swims, then 30 past ones: the first page has the next hundred.
    const dates = (html: string) =>
      [...html.matchAll(/<li[^>]*><a href="\/calendars\/sport\/events\/(swim-\d+)\/"/g)].map(
        (match) => match[1],
      );
    expect(dates(first)).toEqual(Array.from({ length: 100 }, (_, i) => `swim-${30 + i}`));
    expect(dates(second)).toEqual(Array.from({ length: 100 }, (_, i) => `swim-${130 + i}`));
    expect(dates(third)).toEqual(Array.from({ length: 30 }, (_, i) => `swim-${29 - i}`));
    expect(first).not.toContain('id="past-dates"');
    expect(third).not.toContain('id="upcoming-dates"');
    expect(third).toContain('id="past-dates"');
    expect(second).toContain("<title>Morning Swim · Page 2 of 3 · ");
    for (const html of [first, second, third])
      expect(html.length, "a page of 100 dates").toBeLessThan(60_000);
  });

  it("should list every page of the series in the sitemap", () => {
    const sitemap = readSiteFile(site.dir, "sitemap.xml");
    for (const n of [1, 2, 3])
      expect(sitemap).toContain(
        `<loc>https://events.example.org${paths.listPage(series, n)}</loc>`,
      );
    expect(sitemap).not.toContain(`${series}page/4/`);
  });
});
