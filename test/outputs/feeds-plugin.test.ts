import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { paths } from "../../src/model/url-scheme.ts";
import { hostileSnapshot } from "../fixtures/feeds-hostile.ts";
import { slugOf } from "../helpers/demo-expectations.ts";
import { icalJsCalendar, icalJsEvents, nodeIcalEvents } from "../helpers/ics-readers.ts";
import { jsonFeedProblems } from "../helpers/json-feed-spec.ts";
import { buildFixtureSite, categoriesOf, removeFixtureSite } from "../helpers/plugin-site.ts";
import { TEST_SITE } from "../helpers/test-site.ts";

const PAGE = `---
permalink: /page/index.html
---
{% for link in "/" | feedLinks %}<link rel="{{ link.rel }}" type="{{ link.type }}" href="{{ link.href }}" title="{{ link.title }}">
{% endfor %}{% set culture = portal.calendars[1] %}{% for link in culture | feedLinks("calendar") %}<link rel="{{ link.rel }}" type="{{ link.type }}" href="{{ link.href }}">
{% endfor %}{% set urls = culture | feedUrls("calendar") %}{% set sub = urls.ics | subscribeLinks(culture.name) %}
<a id="webcal" href="{{ sub.webcal }}">Apple</a>
<a id="google" href="{{ sub.google }}">Google</a>
<a id="outlook" href="{{ sub.outlook }}">Outlook</a>
<a id="office365" href="{{ sub.office365 }}">Microsoft 365</a>
<input id="https" value="{{ sub.https }}">
<div id="qr">{{ sub.qrSvg | safe }}</div>
{% set add = portal.events[1] | addToCalendarLinks %}<a id="add-google" href="{{ add.google }}">G</a><a id="add-ics" href="{{ add.ics }}">ics</a>
{% for link in portal.categories[0] | feedLinks("category") %}<link id="category" href="{{ link.href }}">{% endfor %}
`;

/** Events a calendar file carries at NOW (30 days of past; cancelled ones as long). */
const inWindow = (event: { end: string }) =>
  Date.parse(event.end) >= Date.parse(TEST_SITE.now.toISO() ?? "") - 30 * 86_400_000;

/** Calendar x category pairs with events in the window, each once. */
function currentPairs(): [string, string][] {
  const pairs = new Map<string, [string, string]>();
  for (const event of hostileSnapshot.events.filter(inWindow)) {
    for (const category of event.categories) {
      pairs.set(JSON.stringify([event.calendarId, category.id]), [event.calendarId, category.id]);
    }
  }
  return [...pairs.values()];
}

let outDir = "";
let files: string[] = [];

const read = (file: string) => readFile(join(outDir, file), "utf8");
const strip = (path: string) => path.replace(/^\//, "");

const icalJsUids = (text: string): string[] => icalJsEvents(text).map((event) => event.uid);

beforeAll(async () => {
  ({ outDir, files } = await buildFixtureSite(hostileSnapshot, TEST_SITE, { "page.njk": PAGE }));
});

afterAll(async () => {
  await removeFixtureSite(outDir);
});

describe("feeds-plugin", () => {
  it("should write four files and a QR code for the site, each calendar, each category and each calendar x category pair, their weekly digests, RSS and a calendar for each place, and one .ics per event", () => {
    const scopes = [
      "/",
      ...hostileSnapshot.calendars.map((calendar) => paths.calendar(calendar.id)),
      ...categoriesOf(hostileSnapshot).map((category) => paths.category(category.id)),
      ...currentPairs().map(([calendar, category]) => paths.calendarCategory(calendar, category)),
    ];
    const expected = [
      ...scopes.flatMap((scope) =>
        ["feed.xml", "atom.xml", "feed.json", "calendar.ics", "calendar-qr.svg"].map(
          (name) => strip(scope) + name,
        ),
      ),
      ...hostileSnapshot.events.map(
        (event) => `${strip(paths.event(event.calendarId, event.id))}event.ics`,
      ),
      // The weekly digest of the site, each calendar and each category (src/digest).
      ...["/", ...hostileSnapshot.calendars.map((calendar) => paths.calendar(calendar.id))]
        .concat(categoriesOf(hostileSnapshot).map((category) => paths.category(category.id)))
        .flatMap((scope) =>
          ["feed.xml", "latest.html", "latest.txt"].map((name) => `${strip(scope)}digest/${name}`),
        ),
      "page/index.html",
      "search/subscriptions.json",
      // The embed pages' policy, which names the site's origin, for Netlify (src/hosts/embed-policy.ts).
      "_headers",
      // The publisher writes the sitemap as a file too (src/outputs/sitemap-files.ts).
      "sitemap.xml",
      // A place's RSS and calendar (no QR code: its page shows none), in a folder named by
      // its name and 10 hex digits; series (two dates or more of one title) have none here.
      ...[...new Set(hostileSnapshot.events.map((event) => event.location?.name ?? ""))]
        .filter(Boolean)
        .flatMap((name) =>
          ["feed.xml", "calendar.ics"].map((file) => `places/${slugOf(name)}-#/${file}`),
        ),
    ].sort();
    expect(
      files.map((file) => file.replace(/^(places\/[^/]+)-[0-9a-f]{10}\//, "$1-#/")).sort(),
    ).toEqual(expected);
  });

  it("should keep a calendar x category pair's files to the events of both, and list every subscription", async () => {
    const pairs = currentPairs();
    expect(pairs.length).toBeGreaterThan(1);
    for (const [calendar, category] of pairs) {
      const folder = strip(paths.calendarCategory(calendar, category));
      const want = hostileSnapshot.events
        .filter((e) => e.calendarId === calendar && e.categories.some((c) => c.id === category))
        .filter(inWindow)
        .map((e) => paths.event(e.calendarId, e.id))
        .sort();
      const ics = await read(`${folder}calendar.ics`);
      const urls = icalJsCalendar(ics)
        .getAllSubcomponents("vevent")
        .map((event) => String(event.getFirstPropertyValue("url")).slice(TEST_SITE.url.length));
      expect(urls.sort(), folder).toEqual(want);
      const feed = JSON.parse(await read(`${folder}feed.json`)) as { items: { id: string }[] };
      expect(feed.items.map((item) => item.id.slice(TEST_SITE.url.length)).sort(), folder).toEqual(
        want,
      );
      expect(ics, folder).toContain("X-WR-CALNAME:");
    }

    const document = JSON.parse(await read("search/subscriptions.json")) as {
      subscriptions: {
        calendar: string | null;
        category: string | null;
        https: string;
        rss: string;
        atom: string;
        json: string;
        qr: string;
      }[];
    };
    const keys = document.subscriptions.map((s) => `${s.calendar}|${s.category}`);
    expect(keys).toEqual(
      expect.arrayContaining([
        "null|null",
        ...hostileSnapshot.calendars.map((c) => `${c.id}|null`),
        ...categoriesOf(hostileSnapshot).map((c) => `null|${c.id}`),
        ...pairs.map(([calendar, category]) => `${calendar}|${category}`),
      ]),
    );
    expect(new Set(keys).size).toBe(keys.length);
    for (const entry of document.subscriptions) {
      for (const path of [
        entry.https.slice(TEST_SITE.url.length),
        entry.rss,
        entry.atom,
        entry.json,
        entry.qr,
      ]) {
        expect(files, path).toContain(strip(path));
      }
    }
  });

  it("should keep calendar and category files to their own events", async () => {
    const culture = icalJsUids(await read("calendars/culture/calendar.ics"));
    expect(culture.length).toBeGreaterThan(0);
    for (const uid of culture) expect(uid).toMatch(/^culture\./);
    const markets = icalJsUids(await read("categories/markets/calendar.ics"));
    expect(markets.map((uid) => uid.split("@")[0]).sort()).toEqual([
      "community.e-allday",
      "community.e-past",
    ]);
    const feed = JSON.parse(await read("categories/markets/feed.json")) as {
      items: { id: string }[];
    };
    expect(feed.items.map((item) => item.id)).toEqual([
      "https://events.example.org/calendars/community/events/e-past/",
      "https://events.example.org/calendars/community/events/e-allday/",
    ]);
  });

  it("should parse every .ics with ical.js and node-ical, one UID per event across all files", async () => {
    const icsFiles = files.filter((file) => file.endsWith(".ics"));
    const startByUid = new Map<string, string>();
    for (const file of icsFiles) {
      const text = await read(file);
      const uids = icalJsUids(text);
      const nodeEvents = nodeIcalEvents(text);
      expect(nodeEvents.map((event) => event.uid).sort(), file).toEqual([...uids].sort());
      expect(new Set(uids).size, file).toBe(uids.length);
      for (const event of nodeEvents) {
        const start = event.start.toISOString();
        expect(startByUid.get(event.uid) ?? start, `${file} ${event.uid}`).toBe(start);
        startByUid.set(event.uid, start);
      }
    }
    // Every event has exactly one UID, and no two events share one.
    expect(startByUid.size).toBe(hostileSnapshot.events.length);
  });

  it("should name subscriptions but never single-event downloads", async () => {
    for (const file of files.filter((name) => name.endsWith(".ics"))) {
      const text = await read(file);
      if (file.endsWith("/event.ics")) {
        expect(text, file).not.toMatch(/^(X-WR-CALNAME|NAME|REFRESH-INTERVAL)[:;]/m);
        expect(icalJsUids(text), file).toHaveLength(1);
      } else {
        expect(text, file).toMatch(/^X-WR-CALNAME:/m);
        expect(text, file).toMatch(/^REFRESH-INTERVAL;VALUE=DURATION:PT1H\r$/m);
      }
    }
  });

  it("should write JSON Feeds as JSON Feed 1.1 asks, with unique item ids", async () => {
    for (const file of files.filter((name) => name.endsWith("feed.json"))) {
      const feed = JSON.parse(await read(file)) as { version: string; items: { id: string }[] };
      expect(jsonFeedProblems(feed), file).toEqual([]);
      const ids = feed.items.map((item) => item.id);
      expect(new Set(ids).size, file).toBe(ids.length);
    }
  });

  it("should give page templates autodiscovery, subscribe and add-to-calendar links", async () => {
    const page = await read("page/index.html");
    expect(page).toContain(
      '<link rel="alternate" type="application/rss+xml" href="https://events.example.org/feed.xml" title="City Events (RSS)">',
    );
    expect(page).toContain(
      '<link rel="alternate" type="application/atom+xml" href="https://events.example.org/calendars/culture/atom.xml">',
    );
    expect(page).toContain(
      '<link rel="alternate" type="text/calendar" href="https://events.example.org/calendars/culture/calendar.ics">',
    );
    for (const expected of [
      'href="webcal://events.example.org/calendars/culture/calendar.ics"',
      'value="https://events.example.org/calendars/culture/calendar.ics"',
      'href="https://calendar.google.com/calendar/render?cid=webcal%3A%2F%2Fevents.example.org%2Fcalendars%2Fculture%2Fcalendar.ics"',
      'href="https://outlook.live.com/calendar/0/addfromweb?url=https%3A%2F%2Fevents.example.org%2Fcalendars%2Fculture%2Fcalendar.ics&amp;name=Culture"',
      '<svg role="img" aria-label="Culture"',
      'id="add-ics" href="https://events.example.org/calendars/community/events/e-dst/event.ics"',
      "dates=20260329T003000Z%2F20260329T020000Z",
      `<link id="category" href="https://events.example.org${paths.category(categoriesOf(hostileSnapshot)[0]?.id ?? "")}feed.xml">`,
    ]) {
      expect(page).toContain(expected);
    }
  });

  it("should write byte-identical files in a second build", async () => {
    const second = await buildFixtureSite(hostileSnapshot, TEST_SITE, { "page.njk": PAGE });
    expect(second.files).toEqual(files);
    for (const file of files) {
      const [first, again] = await Promise.all([
        readFile(join(outDir, file)),
        readFile(join(second.outDir, file)),
      ]);
      expect(again.equals(first), file).toBe(true);
    }
    await removeFixtureSite(second.outDir);
  });
});
