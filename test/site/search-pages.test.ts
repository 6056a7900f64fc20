import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, sep } from "node:path";
import { gunzipSync } from "node:zlib";
import { beforeAll, describe, expect, it } from "vitest";
import { NOW_MS } from "../helpers/clock.ts";
import { DEMO_SITE_URL } from "../helpers/demo-build.ts";
import {
  demoEvents,
  eventUrl,
  inFeedWindow,
  instants,
  isDigestFile,
} from "../helpers/demo-expectations.ts";
import { builtDemoSite } from "../helpers/demo-site.ts";

/*
 * The pages of the demo build that lead to the search and to subscriptions,
 * checked as files: the site-wide list, the header field, the lists' filter
 * forms, category subscribe panels, the subscribe page and the index. What
 * they must hold is worked out from the demo dataset.
 */

let dir: string;
const read = (path: string) => readFileSync(join(dir, path), "utf8");
const events = demoEvents();
const local = (url: string) => url.slice(DEMO_SITE_URL.length);
const now = NOW_MS;
const upcoming = events.filter((event) => instants(event).end.toMillis() >= now);

beforeAll(async () => {
  dir = (await builtDemoSite()).dir;
});

/** The site's pages: its HTML files but the weekly digest's mails. */
function htmlFiles(): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".html"))
    .map((file) => file.split(sep).join("/"))
    .filter((file) => !isDigestFile(file));
}

describe("the site-wide list of upcoming events", () => {
  it("should list every upcoming event once, soonest first, 20 a page, linked from the home page", () => {
    const listed: string[] = [];
    let path = "events/index.html";
    const pageCount = Math.ceil(upcoming.length / 20);
    for (let page = 1; page <= pageCount; page++) {
      const html = read(path);
      const rows = [
        ...html.matchAll(/<h3 class="event-title"><a class="u-url" href="([^"]+)"/g),
      ].map((m) => m[1] ?? "");
      expect(rows.length, path).toBe(page < pageCount ? 20 : upcoming.length - 20 * (page - 1));
      listed.push(...rows);
      const next = /<a rel="next" href="([^"]+)"/.exec(html)?.[1];
      if (page < pageCount) {
        expect(next, path).toBe(`/events/page/${page + 1}/`);
        path = `${next?.slice(1)}index.html`;
      } else {
        expect(next, path).toBeUndefined();
      }
    }
    expect([...listed].sort()).toEqual(upcoming.map((e) => local(eventUrl(e))).sort());
    const starts = listed.map((path) => {
      const event = upcoming.find((e) => local(eventUrl(e)) === path);
      return event ? instants(event).start.toMillis() : Number.NaN;
    });
    expect(starts).toEqual([...starts].sort((a, b) => a - b));
    expect(read("index.html")).toMatch(
      /<a href="\/events\/">All upcoming events \(\d+\) <span class="arrow">→<\/span><\/a>/,
    );
  });
});

describe("search entry points", () => {
  it("should put a search field that submits to /search/ in the header of every page", () => {
    const pages = htmlFiles().filter((file) => !file.startsWith("embed/"));
    expect(pages.length).toBeGreaterThan(100);
    for (const file of pages) {
      expect(read(file), file).toMatch(
        /<form class="site-search" role="search" action="\/search\/" method="get">[\s\S]*?<input id="site-search-q" type="search" name="q"/,
      );
    }
  });

  it("should give every list a filter form for the search page, with the list's scope preset", () => {
    const form = (file: string) => {
      const html = read(file);
      const start = html.indexOf('<details class="filter-panel"');
      expect(start, file).toBeGreaterThan(-1);
      return html.slice(start, html.indexOf("</details>", start));
    };
    for (const file of ["index.html", "events/index.html", "events/page/2/index.html"]) {
      expect(form(file), file).toContain('action="/search/"');
      expect(form(file), file).not.toContain(" selected");
    }
    const sport = form("calendars/sport/index.html");
    expect(sport).toContain(
      '<option value="sport" selected dir="auto">Sport &amp; Outdoors</option>',
    );
    expect(form("calendars/sport/past/index.html")).toContain(
      '<option value="sport" selected dir="auto">',
    );
    const family = form("categories/family/index.html");
    expect(family).toContain('<option value="family" selected dir="auto">Family</option>');
    // The search page runs in the browser: without scripts the forms stay hidden.
    expect(read("calendars/sport/index.html")).toContain(
      '<details class="filter-panel" data-needs-script hidden>',
    );
  });

  it("should write the search index next to the site in parts, without Pagefind's own interface files", () => {
    const files = readdirSync(join(dir, "pagefind"));
    for (const name of [
      "pagefind.js",
      "pagefind-worker.js",
      "pagefind-entry.json",
      "parts.json",
      "wasm.en.pagefind",
    ]) {
      expect(files, name).toContain(name);
    }
    expect(files.filter((name) => /ui|highlight/.test(name))).toEqual([]);
    // The index pagefind.js opens first has no pages: every event is in one of the parts.
    const entryOf = (path: string) =>
      JSON.parse(read(path)) as { languages: Record<string, { page_count: number }> };
    expect(entryOf("pagefind/pagefind-entry.json").languages.en?.page_count).toBe(0);
    const { parts } = JSON.parse(read("pagefind/parts.json")) as {
      parts: { key: string; records: number }[];
    };
    expect(parts.length).toBeGreaterThan(1);
    const pageCounts = parts.map(
      (part) => entryOf(`pagefind/${part.key}/pagefind-entry.json`).languages.en?.page_count,
    );
    expect(pageCounts).toEqual(parts.map((part) => part.records));
    expect(pageCounts.reduce((sum = 0, count = 0) => sum + count, 0)).toBe(events.length);
    // Every compressed file is complete: a file cut short would not decompress.
    const compressed = readdirSync(join(dir, "pagefind"), {
      recursive: true,
      encoding: "utf8",
    }).filter((name) => /\.(pagefind|pf_\w+)$/.test(name));
    expect(compressed.length).toBeGreaterThan(events.length);
    for (const name of compressed) {
      expect(() => gunzipSync(readFileSync(join(dir, "pagefind", name))), name).not.toThrow();
    }
  });
});

describe("subscriptions to categories and pairs", () => {
  const hrefs = (html: string, pattern: RegExp) =>
    [...html.matchAll(pattern)].map((m) => m[1] ?? "");

  it("should give every category page a subscribe panel for its own files", () => {
    const categories = new Set(events.flatMap((e) => e.categories.map((c) => c.id)));
    for (const id of categories) {
      const html = read(`categories/${id}/index.html`);
      expect(html, id).toContain(`value="${DEMO_SITE_URL}/categories/${id}/calendar.ics"`);
      expect(html, id).toContain(
        `href="webcal://events.example.org/categories/${id}/calendar.ics"`,
      );
      for (const name of ["feed.xml", "atom.xml", "feed.json", "calendar.ics"]) {
        expect(existsSync(join(dir, "categories", id, name)), `${id}/${name}`).toBe(true);
      }
    }
  });

  it("should list every calendar, category and calendar x category subscription on /subscribe/", () => {
    const html = read("subscribe/index.html");
    const listed = hrefs(html, /href="(webcal:[^"]+)"/g).map((url) =>
      url.replace("webcal://events.example.org", ""),
    );
    // Places and series are listed too, the 30 of each with most upcoming events
    // (test/outputs/ics-subscribe.test.ts); every other subscription is here.
    const placeOrSeries = (path: string) => /^\/places\/|\/series\//.test(path);
    const webcals = listed.filter((path) => !placeOrSeries(path));
    const others = new Set(listed.filter(placeOrSeries));
    expect(others.size).toBeGreaterThan(0);
    expect(others.size).toBeLessThanOrEqual(60);
    for (const path of others) expect(existsSync(join(dir, path)), path).toBe(true);
    const calendars = new Set(events.map((e) => e.calendarId));
    const categories = new Set(events.flatMap((e) => e.categories.map((c) => c.id)));
    const pairs = new Set(
      events
        .filter((e) => inFeedWindow(e))
        .flatMap((e) =>
          e.categories.map((c) => `/calendars/${e.calendarId}/categories/${c.id}/calendar.ics`),
        ),
    );
    expect(pairs.size).toBeGreaterThan(10);
    expect(new Set(webcals)).toEqual(
      new Set([
        "/calendar.ics",
        ...[...calendars].map((id) => `/calendars/${id}/calendar.ics`),
        ...[...categories].map((id) => `/categories/${id}/calendar.ics`),
        ...pairs,
      ]),
    );
    for (const path of webcals) expect(existsSync(join(dir, path)), path).toBe(true);
    // Each pair row opens the search filtered to it, where its full panel is.
    expect(html).toContain('href="/search/?calendar=sport&amp;category=family"');
  });
});
