import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { decodeHTML } from "entities";
import { beforeAll, describe, expect, it } from "vitest";
import { byStart } from "../../src/model/order.ts";
import { paths } from "../../src/model/url-scheme.ts";
import type { DatasetEvent } from "../../src/portal/index.ts";
import { NOW_MS } from "../helpers/clock.ts";
import { type BuiltSite, DEMO_SITE_URL } from "../helpers/demo-build.ts";
import {
  demoEvents,
  demoPlaces,
  demoSeries,
  eventUrl,
  expectedUrls,
  slugOf,
  slugPart,
} from "../helpers/demo-expectations.ts";
import { builtDemoSite } from "../helpers/demo-site.ts";
import { icalJsEvents, nodeIcalEvents } from "../helpers/ics-readers.ts";
import { parseFeeds } from "../helpers/python-readers.ts";
import { hasPythonModule } from "../helpers/system-packages.ts";

/*
 * The demo build's places and series, read back as visitors, feed readers,
 * calendar apps and search engines read them, and checked against the
 * reference portal's dataset (test/helpers/demo-expectations.ts), at the
 * tests' one clock (SITE_NOW).
 */

const hasFeedparser = hasPythonModule("feedparser");
const events = demoEvents();
const places = demoPlaces(events);
let site: BuiltSite;

beforeAll(async () => {
  site = await builtDemoSite();
});

const read = (file: string) => readFileSync(join(site.dir, file), "utf8");
const ended = (event: DatasetEvent) => Date.parse(event.end) < NOW_MS;

/** The one folder under `parent` named by `slug` and 10 hex digits. */
function folderOf(parent: string, slug: string): string {
  const found = readdirSync(join(site.dir, parent)).filter((name) => slugPart(name) === slug);
  expect(found, `${parent}/${slug}-…`).toHaveLength(1);
  return `${parent}/${found[0]}`;
}

/** The pages of a paged list: its first page, then page/2/... */
function pagesOf(folder: string): string[] {
  const pages = [`${folder}/index.html`];
  for (let n = 2; existsSync(join(site.dir, folder, "page", String(n))); n++) {
    pages.push(`${folder}/page/${n}/index.html`);
  }
  return pages;
}

/** Absolute URLs of the event pages a page links to, in the page's order. */
function eventLinks(html: string): string[] {
  return [...html.matchAll(/href="(\/calendars\/[^/"]+\/events\/[^/"]+\/)"/g)].map(
    (match) => DEMO_SITE_URL + (match[1] ?? ""),
  );
}

/** The main content of a page (not its header and footer). */
const main = (html: string) => /<main[^>]*>([\s\S]*)<\/main>/.exec(html)?.[1] ?? "";

const ldJson = (html: string) =>
  [...html.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/gs)].map(
    (match) => JSON.parse(match[1] ?? "null") as Record<string, unknown>,
  );

/** A place's one-line address as the site writes it (docs/site.md): street, postal code and town, region, country. */
function addressLine(event: DatasetEvent): string {
  const a = event.location?.address;
  if (!a) return "";
  return [a.street, [a.postalCode, a.locality].filter(Boolean).join(" "), a.region, a.country]
    .filter(Boolean)
    .join(", ");
}

/** Each VEVENT of a calendar file by its UID, as written. */
function vevents(text: string): Map<string, string> {
  const blocks = text.match(/BEGIN:VEVENT\r\n[\s\S]*?END:VEVENT\r\n/g) ?? [];
  return new Map(
    blocks.map((block) => [/\r\nUID:([^\r]*)\r\n/.exec(block)?.[1] ?? "", block] as const),
  );
}

describe("places of the demo build", () => {
  it("should list every place with its counts on /places/, linked from every page's navigation", () => {
    expect(read("index.html")).toContain('<li><a href="/places/">Places</a></li>');
    const list = read("places/index.html");
    expect(places.size).toBeGreaterThanOrEqual(9);
    for (const [name, atPlace] of places) {
      const folder = folderOf("places", slugOf(name));
      const item = new RegExp(
        `<li>\\s*<a href="/${folder}/" dir="auto">([^<]*)</a>[\\s\\S]*?</li>`,
      ).exec(list);
      expect(decodeHTML(item?.[1] ?? ""), name).toBe(name);
      const upcoming = atPlace.filter((event) => !ended(event)).length;
      const past = atPlace.length - upcoming;
      expect(item?.[0], name).toContain(`${upcoming} upcoming, ${past} past`);
    }
  });

  it("should give each place its upcoming events, soonest first, and its past ones, most recent first", () => {
    for (const [name, atPlace] of places) {
      const folder = folderOf("places", slugOf(name));
      const upcoming = pagesOf(folder).flatMap((page) => eventLinks(main(read(page))));
      expect(upcoming, name).toEqual(
        atPlace
          .filter((event) => !ended(event))
          .sort(byStart)
          .map(eventUrl),
      );
      const past = atPlace.filter(ended);
      expect(existsSync(join(site.dir, folder, "past")), name).toBe(past.length > 0);
      if (past.length) {
        const shown = pagesOf(`${folder}/past`).flatMap((page) => eventLinks(main(read(page))));
        expect(shown, name).toEqual(past.sort(byStart).reverse().map(eventUrl));
      }
    }
  });

  it("should name each event's date in its link on a place's page, where one title repeats", () => {
    const page = read(`${folderOf("places", "community-centre-de-pijp")}/index.html`);
    const links = [
      ...page.matchAll(
        /<a class="u-url" href="\/calendars\/community\/events\/[^"]+"><span class="p-name" dir="auto">(.*?)<\/a>/g,
      ),
    ];
    expect(links.length).toBeGreaterThan(5);
    for (const [, text] of links) {
      expect(text).toMatch(/^Repair Café|^Neighbourhood/);
      expect(text).toMatch(/<span class="visually-hidden">, \w+day, \d{1,2} \w+ 2026<\/span>$/);
    }
  });

  it("should offer directions as plain links, the name and address encoded, and a geo: link only with coordinates", () => {
    const [cafe] = places.get("Café 't Hoekje & Co") ?? [];
    if (!cafe) throw new Error("the demo has no place without coordinates");
    const html = read(`${folderOf("places", "cafe-t-hoekje-co")}/index.html`);
    const hrefs = [...html.matchAll(/href="([^"]+)"/g)].map((match) => decodeHTML(match[1] ?? ""));
    const text = `Café 't Hoekje & Co, ${addressLine(cafe)}`;
    const google = new URL(hrefs.find((href) => href.startsWith("https://www.google.com/")) ?? "");
    expect(google.searchParams.get("destination")).toBe(text);
    const apple = new URL(hrefs.find((href) => href.startsWith("https://maps.apple.com/")) ?? "");
    expect(apple.searchParams.get("daddr")).toBe(text);
    const osm = new URL(
      hrefs.find((href) => href.startsWith("https://www.openstreetmap.org/")) ?? "",
    );
    expect(osm.searchParams.get("query")).toBe(text);
    expect(hrefs.some((href) => href.startsWith("geo:"))).toBe(false);
    // The address is written encoded into the links and escaped into the page.
    expect(html).toContain(
      "destination=Caf%C3%A9%20&#39;t%20Hoekje%20%26%20Co%2C%20Van%20Woustraat",
    );
    expect(html).toContain("<h1><bdi>Café &#39;t Hoekje &amp; Co</bdi></h1>");

    const boathouse = read(`${folderOf("places", "amstel-boathouse")}/index.html`);
    expect(boathouse).toContain('<a href="geo:52.3427,4.905">');
    expect(boathouse).toContain("https://www.openstreetmap.org/?mlat=52.3427&amp;mlon=4.905");
  });

  it("should load nothing from another site: no map without MAP_TILES_URL, only links", () => {
    for (const name of places.keys()) {
      const html = read(`${folderOf("places", slugOf(name))}/index.html`);
      const loaded = [
        ...html.matchAll(/<(?:img|script|iframe|link)\b[^>]*\s(?:src|href)="([^"]+)"/g),
      ]
        .map((match) => match[1] ?? "")
        .filter((url) => !url.startsWith("/") && !url.startsWith(DEMO_SITE_URL));
      expect(loaded, name).toEqual([]);
      expect(html).not.toContain("data-map-tiles");
      expect(html).not.toContain("/assets/map.js");
    }
  });

  it("should describe each place with schema.org Place JSON-LD: its address, coordinates and upcoming events", () => {
    for (const [name, atPlace] of places) {
      const folder = folderOf("places", slugOf(name));
      const [first] = atPlace;
      const ld = ldJson(read(`${folder}/index.html`));
      expect(ld, name).toHaveLength(1);
      const place = ld[0] as {
        "@type": string;
        name: string;
        url: string;
        address?: Record<string, string>;
        geo?: { latitude: number; longitude: number };
        event?: { "@type": string; url: string; name: string }[];
      };
      expect(place["@type"]).toBe("Place");
      expect(place.name).toBe(name);
      expect(place.url).toBe(`${DEMO_SITE_URL}/${folder}/`);
      expect(place.address?.streetAddress).toBe(first?.location?.address?.street);
      expect(place.address?.postalCode).toBe(first?.location?.address?.postalCode);
      if (first?.location?.geo) {
        expect([place.geo?.latitude, place.geo?.longitude]).toEqual([
          first.location.geo.lat,
          first.location.geo.lon,
        ]);
      } else expect(place.geo ?? null).toBeNull();
      const upcoming = new Set(atPlace.filter((event) => !ended(event)).map(eventUrl));
      for (const event of place.event ?? []) {
        expect(event["@type"]).toBe("Event");
        expect(upcoming, name).toContain(event.url);
      }
    }
  });

  it("should give each place a calendar whose events calendar apps read, each VEVENT as the site's own", () => {
    const siteWide = vevents(read("calendar.ics"));
    for (const name of places.keys()) {
      const file = `${folderOf("places", slugOf(name))}/calendar.ics`;
      const text = read(file);
      const urls = (list: string[]) => [...list].sort();
      expect(
        urls(icalJsEvents(text).map((e) => e.component.getFirstPropertyValue("url") as string)),
      ).toEqual(expectedUrls(events, file));
      // node-ical reads the same events: their UIDs are the site-wide calendar's.
      expect(urls(nodeIcalEvents(text).map((e) => e.uid))).toEqual(urls([...vevents(text).keys()]));
      expect(nodeIcalEvents(text)).toHaveLength(expectedUrls(events, file).length);
      expect(text).toContain(`X-WR-CALNAME:${name.replace(/[,;]/g, "\\$&")} · Events\r\n`);
      // Written once per build and shared: byte for byte the site-wide calendar's VEVENT.
      for (const [uid, block] of vevents(text)) expect(block, uid).toBe(siteWide.get(uid));
    }
  });

  it("should give each place an RSS feed with its events in the feed window, and no other feed", () => {
    for (const name of places.keys()) {
      const folder = folderOf("places", slugOf(name));
      const rss = read(`${folder}/feed.xml`);
      // Item ids are the event pages (docs/feeds.md), written as permalink guids.
      const guids = [...rss.matchAll(/<guid isPermaLink="true">([^<]+)<\/guid>/g)].map(
        (match) => match[1] ?? "",
      );
      expect(guids.sort(), name).toEqual(expectedUrls(events, `${folder}/feed.xml`));
      expect(rss).toContain(`<atom:link href="${DEMO_SITE_URL}/${folder}/feed.xml" rel="self"`);
      expect(existsSync(join(site.dir, folder, "atom.xml")), name).toBe(false);
      expect(existsSync(join(site.dir, folder, "feed.json")), name).toBe(false);
    }
  });

  it.skipIf(!hasFeedparser)(
    "should give each place an RSS feed that feedparser reads, one entry per event in the window",
    () => {
      const files = [...places.keys()].map(
        (name) => `${folderOf("places", slugOf(name))}/feed.xml`,
      );
      const parsed = parseFeeds(files.map((file) => join(site.dir, file)));
      for (const [index, feed] of parsed.entries()) {
        const file = files[index] as string;
        expect(feed.wellFormed, file).toBe(true);
        expect(feed.bozo, `${file}: ${feed.bozoException}`).toBe(false);
        expect(feed.entries.map((entry) => entry.link).sort(), file).toEqual(
          expectedUrls(events, file),
        );
      }
    },
  );
});

describe("series of the demo build", () => {
  const repair = demoSeries(events).find((dates) => dates[0]?.title === "Repair Café") ?? [];
  const seriesFolder = () => folderOf("calendars/community/series", "repair-cafe");

  it("should give every series a page, and a one-off event none", () => {
    const series = demoSeries(events);
    expect(series.length).toBeGreaterThanOrEqual(5);
    for (const dates of series) {
      const [first] = dates;
      if (!first) continue;
      const folder = folderOf(`calendars/${first.calendarId}/series`, slugOf(first.title));
      expect(existsSync(join(site.dir, folder, "index.html")), folder).toBe(true);
    }
    const seriesCount = readdirSync(join(site.dir, "calendars")).reduce(
      (sum, calendar) =>
        sum +
        (existsSync(join(site.dir, "calendars", calendar, "series"))
          ? readdirSync(join(site.dir, "calendars", calendar, "series")).length
          : 0),
      0,
    );
    expect(seriesCount).toBe(series.length);
  });

  it("should list every date of a series, upcoming first, and say its rule", () => {
    expect(repair.length).toBeGreaterThan(20);
    const html = read(`${seriesFolder()}/index.html`);
    expect(html).toContain('<p class="lede series-rule">Every Saturday, 10:00</p>');
    const upcoming = repair.filter((event) => !ended(event)).sort(byStart);
    const past = repair.filter(ended).sort(byStart).reverse();
    const [next] = upcoming.filter((event) => event.status === "scheduled");
    // The next date first, then every date: upcoming ones, then past ones.
    expect(eventLinks(main(html))).toEqual(
      [next, ...upcoming, ...past].map((e) => eventUrl(e as DatasetEvent)),
    );
    // Each link names its date.
    for (const [, text] of main(html).matchAll(
      /<a class="u-url" href="\/calendars\/community\/events\/[^"]+"><span class="p-name" dir="auto">(.*?)<\/a>/g,
    )) {
      expect(text).toMatch(
        /^<time datetime="2026-\d\d-\d\dT10:00:00\+0[12]:00">Saturday, \d{1,2} \w+ 2026, 10:00–13:00 CES?T<\/time>$/,
      );
    }
    const jazz = read(
      `${folderOf("calendars/culture/series", "jazz-at-the-boathouse")}/index.html`,
    );
    expect(jazz).toContain("Every last Friday of the month, 20:30");
  });

  it("should give a series its calendar and an RSS feed, and no other feeds", () => {
    const folder = seriesFolder();
    const ics = read(`${folder}/calendar.ics`);
    const file = `${folder}/calendar.ics`;
    expect(
      icalJsEvents(ics)
        .map((e) => e.component.getFirstPropertyValue("url") as string)
        .sort(),
    ).toEqual(expectedUrls(events, file));
    expect(ics).toContain("X-WR-CALNAME:Repair Café · Events\r\n");
    expect(ics).toContain("X-WR-CALDESC:Every Saturday\\, 10:00\r\n");
    expect(existsSync(join(site.dir, folder, "feed.xml"))).toBe(true);
    expect(existsSync(join(site.dir, folder, "atom.xml"))).toBe(false);
    expect(existsSync(join(site.dir, folder, "feed.json"))).toBe(false);
    // Its page offers what exists, and its head links those.
    const html = read(`${folder}/index.html`);
    expect(html).toContain(
      `<link rel="alternate" type="application/rss+xml" href="${DEMO_SITE_URL}/${folder}/feed.xml"`,
    );
    expect(html).not.toContain(`${folder}/atom.xml`);
    expect(html).toContain(`href="/${folder}/calendar.ics"`);
  });

  it("should show an event's next date and other dates on its page, each link naming its date", () => {
    const upcoming = repair
      .filter((event) => !ended(event))
      .sort((a, b) => Date.parse(a.start) - Date.parse(b.start));
    const [next, later] = upcoming;
    if (!next || !later) throw new Error("the Repair Café has too few dates ahead");
    const page = read(`${paths.event(later.calendarId, later.id).slice(1)}index.html`);
    const section = /<section class="other-dates"[\s\S]*?<\/section>/.exec(page)?.[0] ?? "";
    expect(section).toContain('<h2 id="other-dates-heading">Other dates</h2>');
    expect(section).toContain("Every Saturday, 10:00");
    expect(section).toMatch(
      new RegExp(
        `Next date: <a href="${paths.event(next.calendarId, next.id)}"><time datetime="${next.start.slice(0, 16)}`,
      ),
    );
    const shown = eventLinks(section);
    expect(shown).not.toContain(eventUrl(later));
    expect(shown.slice(1)).toEqual(upcoming.slice(2, 7).map(eventUrl));
    expect(section).toContain(`<a href="/${seriesFolder()}/">All dates of this series</a>`);
    // Its place is one click away.
    expect(page).toContain(
      `<a href="/${folderOf("places", "community-centre-de-pijp")}/">More events at Community Centre De Pijp</a>`,
    );
    // An event of no series shows none.
    const oneOff = events.find((event) => event.title === "Museum Night");
    if (!oneOff) throw new Error("the demo has no Museum Night");
    expect(read(`${paths.event(oneOff.calendarId, oneOff.id).slice(1)}index.html`)).not.toContain(
      "other-dates",
    );
  });

  it("should list every place and series page in the sitemap", () => {
    const sitemap = read("sitemap.xml");
    const listed = new Set(
      [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1] ?? ""),
    );
    expect(listed).toContain(`${DEMO_SITE_URL}/places/`);
    for (const name of places.keys()) {
      expect(listed).toContain(`${DEMO_SITE_URL}/${folderOf("places", slugOf(name))}/`);
    }
    for (const dates of demoSeries(events)) {
      const first = dates[0] as DatasetEvent;
      const folder = folderOf(`calendars/${first.calendarId}/series`, slugOf(first.title));
      expect(listed).toContain(`${DEMO_SITE_URL}/${folder}/`);
    }
  });
});
