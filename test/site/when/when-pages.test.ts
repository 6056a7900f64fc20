import { readFileSync } from "node:fs";
import { join } from "node:path";
import { DateTime } from "luxon";
import { beforeAll, describe, expect, it } from "vitest";
import { paths } from "../../../src/model/url-scheme.ts";
import type { DatasetEvent } from "../../../src/portal/index.ts";
import { NOW } from "../../helpers/clock.ts";
import { type BuiltSite, DEMO_SITE_URL } from "../../helpers/demo-build.ts";
import { demoEvents, eventUrl, instants } from "../../helpers/demo-expectations.ts";
import { builtDemoSite } from "../../helpers/demo-site.ts";

/*
 * The "when" pages and their JSON in a real build of the demo portal at the
 * tests' clock: Friday 20 March 2026, 13:00 in Amsterdam. What each must
 * list is worked out here from the portal's dataset and the calendar. In
 * Dutch: test/site/site.test.ts, with the rest of the Dutch site.
 */

const KEYS = ["today", "tomorrow", "weekend", "week", "next-week", "month"] as const;
const ZONE = "Europe/Amsterdam";

/** The days (inclusive, in Amsterdam) each page covers on Friday 20 and Saturday 21 March 2026 (en-GB weeks). */
const DAYS: Record<(typeof KEYS)[number], [[string, string], [string, string]]> = {
  today: [
    ["2026-03-20", "2026-03-20"],
    ["2026-03-21", "2026-03-21"],
  ],
  tomorrow: [
    ["2026-03-21", "2026-03-21"],
    ["2026-03-22", "2026-03-22"],
  ],
  weekend: [
    ["2026-03-21", "2026-03-22"],
    ["2026-03-21", "2026-03-22"],
  ],
  week: [
    ["2026-03-20", "2026-03-22"],
    ["2026-03-21", "2026-03-22"],
  ],
  "next-week": [
    ["2026-03-23", "2026-03-29"],
    ["2026-03-23", "2026-03-29"],
  ],
  month: [
    ["2026-03-20", "2026-03-31"],
    ["2026-03-21", "2026-03-31"],
  ],
};

/** Whether a dataset event overlaps the days: its instants, end exclusive, against Amsterdam's midnights. */
function isOn(event: DatasetEvent, [first, last]: [string, string]): boolean {
  const from = DateTime.fromISO(first, { zone: ZONE }).toMillis();
  const until = DateTime.fromISO(last, { zone: ZONE }).plus({ days: 1 }).toMillis();
  const { start, end } = instants(event);
  const startMs = start.toMillis();
  const endMs = end.toMillis();
  return startMs < until && (endMs > from || startMs >= from);
}

interface WhenJson {
  readonly when: string;
  readonly calendarId: string | null;
  readonly url: string;
  readonly ranges: readonly {
    readonly today: string;
    readonly validFrom: string;
    readonly validUntil: string;
    readonly events: readonly number[];
    readonly next: number | null;
  }[];
  readonly events: readonly { readonly url: string; readonly title: string }[];
}

let site: BuiltSite;
let events: DatasetEvent[];
const read = (path: string) => readFileSync(join(site.dir, path), "utf8");
const readJson = (path: string) => JSON.parse(read(path.slice(1))) as WhenJson;
const pageOf = (path: string) => read(`${path.slice(1)}index.html`);
const calendarIds = () => [...new Set(events.map((e) => e.calendarId))].sort();

/** The event links of one view of a page: rows of the sections and rows that view shows. */
function linksOf(html: string, view: string): string[] {
  const links: string[] = [];
  for (const section of html.split('<section class="day"').slice(1)) {
    const dayIn = /data-when-in="([^"]+)"/.exec(section)?.[1] ?? "";
    for (const row of section.split('<li class="event-row').slice(1)) {
      const rowIn = /^[^>]*data-when-in="([^"]+)"/.exec(row)?.[1] ?? dayIn;
      if (!rowIn.split(" ").includes(view)) continue;
      const href = /<a [^>]*href="([^"]+)"/.exec(row)?.[1] ?? "";
      if (!links.includes(href)) links.push(href);
    }
  }
  return links;
}

beforeAll(async () => {
  site = await builtDemoSite();
  events = demoEvents();
});

describe("the when pages of the demo site", () => {
  it("should publish six pages and their JSON for the site and for every calendar, in the sitemap", () => {
    const sitemap = read("sitemap.xml");
    const scopes: (string | null)[] = [null, ...calendarIds()];
    for (const calendarId of scopes) {
      for (const key of KEYS) {
        const path = calendarId ? paths.calendarWhen(calendarId, key) : paths.when(key);
        expect(pageOf(path)).toContain("data-when-bounds=");
        expect(sitemap).toContain(`<loc>${DEMO_SITE_URL}${path}</loc>`);
        const json = readJson(
          calendarId ? paths.apiCalendarWhen(calendarId, key) : paths.apiWhen(key),
        );
        expect([json.when, json.calendarId, json.url]).toEqual([
          key,
          calendarId,
          DEMO_SITE_URL + path,
        ]);
      }
    }
  });

  it("should link the site's pages from the home page and a calendar's from its pages", () => {
    const home = read("index.html");
    for (const key of KEYS) expect(home).toContain(`href="${paths.when(key)}"`);
    for (const calendarId of calendarIds()) {
      const calendarPage = pageOf(paths.calendar(calendarId));
      for (const key of KEYS) {
        expect(calendarPage).toContain(`href="${paths.calendarWhen(calendarId, key)}"`);
      }
    }
  });

  it("should list the events on the page's days in the build's view, and the next day's in the other", () => {
    for (const calendarId of [null, ...calendarIds()]) {
      const scoped = events.filter((e) => calendarId === null || e.calendarId === calendarId);
      for (const key of KEYS) {
        const path = calendarId ? paths.calendarWhen(calendarId, key) : paths.when(key);
        const html = pageOf(path);
        DAYS[key].forEach((days, view) => {
          const expected = scoped.filter((e) => isOn(e, days)).map(eventUrl);
          const listed = linksOf(html, String(view)).map((href) => DEMO_SITE_URL + href);
          expect(listed.sort(), `${path}, view ${view}`).toEqual(expected.sort());
          const json = readJson(
            calendarId ? paths.apiCalendarWhen(calendarId, key) : paths.apiWhen(key),
          );
          const inJson = json.ranges[view]?.events.map((i) => json.events[i]?.url) ?? [];
          expect(inJson.sort(), `${path} JSON, view ${view}`).toEqual(expected.sort());
        });
      }
    }
    // The demo has events on those days: the comparison above is not between empty lists.
    expect(linksOf(pageOf(paths.when("week")), "0").length).toBeGreaterThan(2);
  });

  it("should state the date in the heading and give every event link its date", () => {
    const html = pageOf(paths.when("today"));
    const friday = new Intl.DateTimeFormat("en-GB", {
      weekday: "long",
      day: "numeric",
      month: "long",
      year: "numeric",
      timeZone: ZONE,
    }).format(new Date(NOW));
    expect(html).toMatch(
      new RegExp(`<span data-when-in="0">Today,\\s*<time datetime="2026-03-20">${friday}</time>`),
    );
    expect(html).toMatch(/<span data-when-in="1" hidden>Today,\s*<time datetime="2026-03-21">/);
    const week = pageOf(paths.when("week"));
    const rows = week.split('<li class="event-row').slice(1);
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row).toMatch(
        /<a class="u-url" href="[^"]+"><span class="p-name">[^<]+<\/span><span class="visually-hidden">, [^<]*2026[^<]*<\/span><\/a>/,
      );
    }
  });

  it("should hold each JSON range for the day it names, between its midnights", () => {
    const json = readJson(paths.apiWhen("today"));
    expect(json.ranges.map((r) => [r.today, r.validFrom, r.validUntil])).toEqual([
      ["2026-03-20", "2026-03-20T00:00:00+01:00", "2026-03-21T00:00:00+01:00"],
      ["2026-03-21", "2026-03-21T00:00:00+01:00", "2026-03-22T00:00:00+01:00"],
    ]);
  });

  it("should say so when a range is empty, and name the next scheduled event with its date", () => {
    let checked = 0;
    for (const calendarId of calendarIds()) {
      const scoped = events.filter((e) => e.calendarId === calendarId);
      for (const key of KEYS) {
        const json = readJson(paths.apiCalendarWhen(calendarId, key));
        const range = json.ranges[0];
        if (!range || range.events.length > 0) continue;
        const [, last] = DAYS[key][0];
        const after = DateTime.fromISO(last, { zone: ZONE }).plus({ days: 1 }).toMillis();
        const next = scoped
          .filter((e) => e.status === "scheduled" && instants(e).start.toMillis() >= after)
          .sort((a, b) => instants(a).start.toMillis() - instants(b).start.toMillis())[0];
        const html = pageOf(paths.calendarWhen(calendarId, key));
        const empty = /<div class="when-empty" data-when-in="0[^"]*">([\s\S]*?)<\/div>/.exec(html);
        expect(empty?.[1], `${calendarId} ${key}`).toBeDefined();
        if (next) {
          expect(json.events[range.next ?? -1]?.url).toBe(eventUrl(next));
          expect(empty?.[1]).toContain(`href="${paths.event(calendarId, next.id)}"`);
          expect(empty?.[1]).toMatch(
            /Next: <a href="[^"]+">[^<]+, <time datetime="[^"]+">[^<]+<\/time><\/a>/,
          );
        }
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(0);
  });
});
