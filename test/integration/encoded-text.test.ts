import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import ical from "node-ical";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { paths } from "../../src/model/url-scheme.ts";
import { type RunningPortal, startPortal } from "../../src/portal/index.ts";
import {
  addedEncodedEvent,
  createEncodedDataset,
  ENCODED,
  ENCODED_CALENDAR,
  ENCODED_CATEGORY,
  ENCODED_DESCRIPTION,
  ENCODED_TITLES,
  encodedEventId,
  WIRE_REFERENCES,
} from "../fixtures/encoded-dataset.ts";
import { useBrowser } from "../helpers/browser.ts";
import { hoursAfterNow, NOW } from "../helpers/clock.ts";
import { type BuiltSite, buildSite } from "../helpers/demo-build.ts";
import { listFiles } from "../helpers/files.ts";
import { icalJsCalendar, icalJsEvents, nodeIcalEvents } from "../helpers/ics-readers.ts";
import {
  type FeedReading,
  type JsonFeedReading,
  type PageReading,
  readText,
} from "../helpers/python-readers.ts";
import { startStaticServer } from "../helpers/static-server.ts";
import { hasChromium, hasPythonModule } from "../helpers/system-packages.ts";
import { tempDir } from "../helpers/temp-dir.ts";

/*
 * A portal that HTML-encodes its plain-text fields, served by the reference
 * portal and built twice (an event is added in between, for the build
 * report). Every output is read the way its readers read it: pages and feeds
 * with Python's HTML parser and feedparser, calendars with ical.js and
 * node-ical, JSON with JSON.parse, the search index from Pagefind's own
 * fragment files, the widget in Chromium. Each must hold the text a reader
 * sees ("Café & Jazz"), never the portal's encoding ("Caf&eacute;"), and an
 * encoded reference ("&amp;lt;") must stay the text "&lt;", never "<".
 */

/** The second build, an hour after the first. */
const SECOND = hoursAfterNow(1);

interface Published {
  readonly id: string;
  readonly title: string;
}

/** The events of the second build in start order: the five titles, then the added one. */
const EVENTS: readonly Published[] = [
  ...ENCODED_TITLES.map((title, index) => ({ id: encodedEventId(index), title: title.text })),
  { id: "added", title: ENCODED.addedTitle.text },
];

/** What a wrong decoding shows: a reference left as written, or "&lt;" turned into markup. */
function expectDecodedOnce(text: string, where: string): void {
  for (const reference of WIRE_REFERENCES) expect(text, where).not.toContain(reference);
  expect(text, where).not.toMatch(/<(b|terrace|3)/);
}

/** Every event shows these, in some form, wherever it is described in full. */
const EVENT_TEXTS = [
  ENCODED.summary.text,
  ...ENCODED_DESCRIPTION.paragraphs,
  ENCODED.placeName.text,
  ENCODED.street.text,
  ENCODED.locality.text,
];

interface SearchFragment {
  readonly url: string;
  readonly content: string;
  readonly meta: Record<string, string>;
  readonly filters: Record<string, string[]>;
}

/** Pagefind's fragment files: gzip, a signature, then the record as JSON. */
function searchFragments(dir: string, files: readonly string[]): SearchFragment[] {
  return (
    files
      // The index is in parts (src/search/search-parts.ts): pagefind/<part>/fragment/.
      .filter((file) => /^pagefind\/[^/]+\/fragment\/.+\.pf_fragment$/.test(file))
      .map((file) => {
        const text = gunzipSync(readFileSync(join(dir, file))).toString("utf8");
        return JSON.parse(text.slice(text.indexOf("{"))) as SearchFragment;
      })
  );
}

/** Every string in a JSON value, but HTML ones (`content_html`), with where it is. */
function jsonStrings(value: unknown, at = ""): [string, string][] {
  if (typeof value === "string") return [[at, value]];
  if (Array.isArray(value)) return value.flatMap((item, i) => jsonStrings(item, `${at}[${i}]`));
  if (value && typeof value === "object")
    return Object.entries(value)
      .filter(([key]) => !key.endsWith("_html") && key !== "html")
      .flatMap(([key, item]) => jsonStrings(item, `${at}.${key}`));
  return [];
}

const eventDir = (id: string) => paths.event(ENCODED_CALENDAR, id).slice(1);

describe("build from a portal that HTML-encodes its text", () => {
  let portal: RunningPortal;
  let output: string;
  let second: BuiltSite;
  let files: string[];
  const read = (file: string) => readFileSync(join(output, file), "utf8");

  beforeAll(async () => {
    const work = tempDir("ecp-encoded-");
    output = join(work, "out", "_site");
    mkdirSync(join(work, "out"));
    portal = await startPortal({
      host: "127.0.0.1",
      port: 0,
      now: NOW,
      dataset: createEncodedDataset(),
    });
    const build = (now: string) =>
      buildSite(
        {
          EVENT_API_URL: portal.url,
          EVENT_API_TOKEN: portal.token,
          EVENT_API_CACHE_DIR: join(work, "cache"),
          SITE_NOW: now,
        },
        output,
      );
    const first = await build(NOW);
    if (first.status !== 0) throw new Error(`first build failed:\n${first.log}`);
    portal.addEvent(addedEncodedEvent());
    second = await build(SECOND);
    if (second.status !== 0) throw new Error(`second build failed:\n${second.log}`);
    files = await listFiles(output);
  });

  afterAll(async () => {
    await portal?.close();
  });

  it("should name the added event as its text in the build report", () => {
    const report = second.stdout.slice(second.stdout.indexOf("Build report"));
    expect(report).toMatch(/^ {4}added {6}1 {3}Été Café Encore… Rock’n &lt;3$/m);
    expectDecodedOnce(second.log, "build log");
  });

  it("should hold decoded text in the public JSON", () => {
    const { calendars } = JSON.parse(read("api/calendars.json")) as {
      calendars: { name: string; description: string }[];
    };
    expect(calendars.map(({ name, description }) => ({ name, description }))).toEqual([
      { name: ENCODED.calendarName.text, description: ENCODED.calendarDescription.text },
    ]);
    const { events } = JSON.parse(read(`api/calendars/${ENCODED_CALENDAR}/events.json`)) as {
      events: {
        id: string;
        title: string;
        summary: string;
        location: { name: string; address: { street: string; locality: string } };
        categories: { id: string; name: string }[];
      }[];
    };
    expect(events.map(({ id, title }) => ({ id, title }))).toEqual(EVENTS);
    for (const event of events) {
      expect(event.summary).toBe(ENCODED.summary.text);
      expect(event.location.name).toBe(ENCODED.placeName.text);
      expect(event.location.address.street).toBe(ENCODED.street.text);
      expect(event.location.address.locality).toBe(ENCODED.locality.text);
      expect(event.categories).toEqual([{ id: ENCODED_CATEGORY, name: ENCODED.category.text }]);
    }
    expect((JSON.parse(read(`oembed/${ENCODED_CALENDAR}.json`)) as { title: string }).title).toBe(
      `Events: ${ENCODED.calendarName.text}`,
    );
    const subscriptions = (
      JSON.parse(read("search/subscriptions.json")) as { subscriptions: { name: string }[] }
    ).subscriptions.map((subscription) => subscription.name);
    expect(subscriptions).toContain(ENCODED.calendarName.text);
    expect(subscriptions).toContain(ENCODED.category.text);
    // Nowhere in any JSON file (HTML fields aside) is a reference left or "&lt;" turned into "<".
    for (const file of files.filter((name) => name.endsWith(".json"))) {
      for (const [at, text] of jsonStrings(JSON.parse(read(file))))
        expectDecodedOnce(text, `${file} ${at}`);
    }
  });

  it("should hold decoded text in the search records", () => {
    const records = searchFragments(output, files);
    expect(records.map((record) => record.url).sort()).toEqual(
      EVENTS.map((event) => `/${eventDir(event.id)}`).sort(),
    );
    for (const event of EVENTS) {
      const record = records.find((candidate) => candidate.url === `/${eventDir(event.id)}`);
      expect(record?.meta.title, event.id).toBe(event.title);
      expect(record?.meta.calendar).toBe(ENCODED.calendarName.text);
      expect(record?.meta.place).toBe(ENCODED.placeName.text);
      expect(record?.filters.place).toEqual([ENCODED.placeName.text]);
      for (const text of [
        event.title,
        ...EVENT_TEXTS,
        ENCODED.organizer.text,
        ENCODED.category.text,
        ENCODED.calendarName.text,
      ])
        expect(record?.content, event.id).toContain(text);
      for (const [at, text] of jsonStrings(record)) expectDecodedOnce(text, `${event.id} ${at}`);
    }
  });

  it("should hold decoded text in every calendar file, read by ical.js and node-ical", () => {
    for (const event of EVENTS) {
      const file = `${eventDir(event.id)}event.ics`;
      const [vevent] = icalJsEvents(read(file));
      expect(vevent?.summary, file).toBe(event.title);
      expect(vevent?.location, file).toBe(
        `${ENCODED.placeName.text}, ${ENCODED.street.text}, 4000 ${ENCODED.locality.text}, BE`,
      );
      for (const text of [ENCODED.summary.text, ...ENCODED_DESCRIPTION.paragraphs])
        expect(vevent?.description, file).toContain(text);
      expect(vevent?.component.getFirstProperty("categories")?.getValues(), file).toEqual([
        ENCODED.category.text,
      ]);
      const [parsed] = nodeIcalEvents(read(file));
      expect(parsed?.summary, file).toBe(event.title);
      expect(parsed?.location, file).toBe(vevent?.location);
    }
    const subscription = read(`calendars/${ENCODED_CALENDAR}/calendar.ics`);
    // ical.js leaves X- properties as written (no TEXT unescaping); node-ical reads them as text.
    const { vcalendar } = ical.sync.parseICS(subscription);
    expect(vcalendar?.["WR-CALNAME"]).toBe(`${ENCODED.calendarName.text} · Events`);
    expect(vcalendar?.["WR-CALDESC"]).toBe(ENCODED.calendarDescription.text);
    const calendar = icalJsCalendar(subscription);
    expect(
      calendar
        .getAllSubcomponents("vevent")
        .map((vevent) => vevent.getFirstPropertyValue("summary")),
    ).toEqual(EVENTS.map((event) => event.title));
    for (const file of files.filter((name) => name.endsWith(".ics"))) {
      for (const vevent of icalJsEvents(read(file))) {
        for (const text of [vevent.summary, vevent.location, vevent.description])
          expectDecodedOnce(text ?? "", file);
      }
    }
  });

  it.runIf(hasPythonModule("html.parser"))(
    "should show decoded text on every page, read by an HTML parser",
    () => {
      const pages = files.filter((file) => file.endsWith(".html"));
      const readings = readText<PageReading>(output, pages);
      for (const event of EVENTS) {
        const page = readings[`${eventDir(event.id)}index.html`];
        expect(page?.h1, event.id).toEqual([event.title]);
        expect(page?.title.startsWith(`${event.title} · `), page?.title).toBe(true);
        for (const text of [
          ...EVENT_TEXTS,
          ENCODED.organizer.text,
          ENCODED.category.text,
          ENCODED.calendarName.text,
        ])
          expect(page?.text, event.id).toContain(text);
        const [jsonLd] = (page?.jsonld ?? []).map(
          (block) =>
            JSON.parse(block) as {
              name: string;
              description: string;
              location: { name: string };
              organizer: { name: string };
            },
        );
        expect(jsonLd?.name).toBe(event.title);
        expect(jsonLd?.description).toBe(ENCODED.summary.text);
        expect(jsonLd?.location.name).toBe(ENCODED.placeName.text);
        expect(jsonLd?.organizer.name).toBe(ENCODED.organizer.text);
      }
      const calendarPage = readings[`calendars/${ENCODED_CALENDAR}/index.html`];
      expect(calendarPage?.h1).toEqual([ENCODED.calendarName.text]);
      expect(calendarPage?.text).toContain(ENCODED.calendarDescription.text);
      // The embed snippet is HTML to paste: the name in it is escaped once, for HTML.
      expect(calendarPage?.code.join("\n")).toContain('title="Events: Café &amp; Jazz Club"');
      const categoryPage = readings[`categories/${ENCODED_CATEGORY}/index.html`];
      expect(categoryPage?.h1.join(" ")).toContain(ENCODED.category.text);
      for (const list of [calendarPage, categoryPage, readings["index.html"]])
        for (const event of EVENTS) expect(list?.text).toContain(event.title);
      for (const page of pages) {
        const reading = readings[page];
        expectDecodedOnce(`${reading?.title} ${reading?.text}`, page);
        for (const block of reading?.jsonld ?? [])
          for (const [at, text] of jsonStrings(JSON.parse(block))) expectDecodedOnce(text, at);
      }
    },
  );

  it.runIf(hasPythonModule("html.parser"))(
    "should show decoded text in the widget's page without scripts",
    () => {
      const file = `embed/${ENCODED_CALENDAR}/index.html`;
      const embed = readText<PageReading>(output, [file])[file];
      expect(embed?.h1.join(" ")).toContain(ENCODED.calendarName.text);
      // The widget shows the next five events.
      for (const event of EVENTS.slice(0, 5)) expect(embed?.text).toContain(event.title);
      expect(embed?.text).toContain(`${ENCODED.placeName.text}, ${ENCODED.locality.text}`);
      expectDecodedOnce(embed?.text ?? "", file);
    },
  );

  it.runIf(hasPythonModule("feedparser"))(
    "should hold decoded text in RSS, Atom and JSON feeds, read by feedparser",
    () => {
      const xmlFeeds = files.filter((file) => /(^|\/)(feed|atom)\.xml$/.test(file));
      // The weekly digests of the site, the calendar and the category (src/digest): a week an item.
      const digests = xmlFeeds.filter((file) => file.includes("digest/"));
      expect(digests).toHaveLength(3);
      for (const [file, digest] of Object.entries(readText<FeedReading>(output, digests))) {
        expect(digest?.bozo, file).toBe(false);
        for (const entry of digest?.entries ?? []) expectDecodedOnce(entry.content, file);
      }
      const feeds = xmlFeeds.filter((file) => !digests.includes(file));
      const jsonFeeds = files.filter((file) => /(^|\/)feed\.json$/.test(file));
      // The site, the calendar, the category and the pair of both (RSS, Atom, JSON
      // Feed each), and the events' one place (RSS).
      expect(feeds).toHaveLength(9);
      expect(jsonFeeds).toHaveLength(4);
      const readings = readText<FeedReading>(output, feeds);
      const titled = (titles: readonly string[]) =>
        EVENTS.map((event) => titles.find((title) => title.endsWith(` · ${event.title}`)));
      for (const file of feeds) {
        const feed = readings[file];
        expect(feed?.bozo, file).toBe(false);
        expect(feed?.entries, file).toHaveLength(EVENTS.length);
        for (const entry of feed?.entries ?? []) {
          expect(entry.tags, file).toEqual([ENCODED.category.text]);
          for (const text of EVENT_TEXTS) expect(entry.content, file).toContain(text);
          expectDecodedOnce(entry.content, file);
        }
        if (feed?.version === "atom10") {
          // Atom titles are HTML (type="html"): their text is the event's title.
          expect(titled(feed.entries.map((entry) => entry.title)), file).not.toContain(undefined);
          for (const entry of feed.entries) expectDecodedOnce(entry.title, file);
        } else {
          // RSS titles are plain character data. feedparser guesses that a title
          // holding "&lt;" is escaped HTML (RSS does not say), so the titles are
          // read as the XML parser gives them, and feedparser's where it reads text.
          expect(titled(feed?.xml.title ?? []), file).not.toContain(undefined);
          for (const entry of feed?.entries ?? [])
            if (entry.titleType === "text/plain") expectDecodedOnce(entry.title, file);
          expect(
            feed?.entries.filter((entry) => entry.titleType === "text/plain").length,
            file,
          ).toBeGreaterThanOrEqual(4);
        }
        // Atom's character data is HTML (type="html"), checked above as text.
        if (feed?.version !== "atom10")
          for (const text of [...(feed?.xml.title ?? []), ...(feed?.xml.category ?? [])])
            expectDecodedOnce(text, file);
      }
      const calendarFeed = readings[`calendars/${ENCODED_CALENDAR}/atom.xml`];
      expect(calendarFeed?.feed.title).toContain(ENCODED.calendarName.text);
      expect(calendarFeed?.feed.subtitle).toBe(ENCODED.calendarDescription.text);

      const jsonReadings = readText<JsonFeedReading>(output, jsonFeeds);
      for (const file of jsonFeeds) {
        const feed = jsonReadings[file];
        expect(titled(feed?.items.map((item) => item.title) ?? []), file).not.toContain(undefined);
        for (const item of feed?.items ?? []) {
          expect(item.tags, file).toEqual([ENCODED.category.text]);
          for (const text of EVENT_TEXTS) expect(item.content, file).toContain(text);
          expectDecodedOnce(`${item.title} ${item.content}`, file);
        }
      }
      const calendarJsonFeed = jsonReadings[`calendars/${ENCODED_CALENDAR}/feed.json`];
      expect(calendarJsonFeed?.title).toContain(ENCODED.calendarName.text);
      expect(calendarJsonFeed?.description).toBe(ENCODED.calendarDescription.text);
    },
  );

  describe.runIf(hasChromium())("in a browser", () => {
    const chromium = useBrowser();

    it("should show decoded text in the widget", async () => {
      const server = await startStaticServer();
      server.setRoot(output);
      try {
        // Six events: one more than the page holds without scripts, so the
        // widget's script lists them from the public JSON.
        const { page, problems } = await chromium.open(
          `${server.origin}/embed/${ENCODED_CALENDAR}/?count=6`,
          { timezoneId: "Europe/Paris", at: SECOND },
        );
        await page.waitForSelector("#ecp[data-state=ready]");
        expect(await page.$$eval(".ecp-name", (names) => names.map((n) => n.textContent))).toEqual(
          EVENTS.map((event) => event.title),
        );
        const shown = await page.innerText("body");
        expect(shown).toContain(ENCODED.calendarName.text);
        expectDecodedOnce(shown, "widget");
        expect(problems).toEqual([]);
      } finally {
        await server.close();
      }
    });
  });
});
