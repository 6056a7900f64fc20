import { readFileSync } from "node:fs";
import { join } from "node:path";
import { DateTime } from "luxon";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { encodeIdSegment } from "../../src/model/url-scheme.ts";
import type { DatasetEvent } from "../../src/portal/index.ts";
import { NOW } from "../helpers/clock.ts";
import { type BuiltSite, buildSite, DEMO_SITE_URL, removeBuild } from "../helpers/demo-build.ts";
import {
  demoCalendars,
  demoEvents,
  demoPlaces,
  demoSeries,
  eventUrl,
  expectedUrls,
  inFeedWindow,
  isDigestFile,
  isFeedFile,
  slugOf,
} from "../helpers/demo-expectations.ts";
import { builtDemoSite } from "../helpers/demo-site.ts";
import { listFiles, readSiteFile } from "../helpers/files.ts";
import { jsonFeedProblems } from "../helpers/json-feed-spec.ts";
import { type PyFeed, parseFeeds } from "../helpers/python-readers.ts";
import { hasPythonModule } from "../helpers/system-packages.ts";

const hasFeedparser = hasPythonModule("feedparser");

let site: BuiltSite;
let feeds: string[];
const events = demoEvents();
const byUrl = new Map<string, DatasetEvent>(events.map((event) => [eventUrl(event), event]));

const seconds = (iso: string | null | undefined) =>
  iso ? new Date(iso).toISOString().replace(/\.\d{3}Z$/, "Z") : null;

let xmlParsed: Map<string, PyFeed> | undefined;

/** feedparser's and a strict XML parser's view of every .xml file, in one Python process. */
async function parsedXml(): Promise<Map<string, PyFeed>> {
  if (!xmlParsed) {
    const files = (await listFiles(site.dir)).filter((file) => file.endsWith(".xml"));
    const parsed = parseFeeds(files.map((file) => join(site.dir, file)));
    xmlParsed = new Map(files.map((file, index) => [file, parsed[index] as PyFeed]));
  }
  return xmlParsed;
}

/** Atom titles are type="html" (docs/feeds.md): a reader shows them decoded. */
function plainTitle(entry: PyFeed["entries"][number]): string {
  if (entry.titleType !== "text/html") return entry.title;
  const entities: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'" };
  return entry.title.replace(/&(amp|lt|gt|quot|#39);/g, (_, name: string) => entities[name] ?? "");
}

beforeAll(async () => {
  site = await builtDemoSite();
  feeds = (await listFiles(site.dir)).filter(isFeedFile);
});

describe("published feeds of the demo build", () => {
  it("should publish RSS, Atom and JSON Feed for the site, every calendar, every category and every current calendar x category pair, and RSS for every place and series", () => {
    const scopes = [
      "",
      ...new Set(events.map((event) => `calendars/${encodeIdSegment(event.calendarId)}/`)),
      ...new Set(
        events.flatMap((event) =>
          event.categories.map((category) => `categories/${encodeIdSegment(category.id)}/`),
        ),
      ),
      // Pairs whose calendar file has events: some in the feed window.
      ...new Set(
        events
          .filter((event) => inFeedWindow(event))
          .flatMap((event) =>
            event.categories.map(
              (category) =>
                `calendars/${encodeIdSegment(event.calendarId)}/categories/${encodeIdSegment(category.id)}/`,
            ),
          ),
      ),
    ];
    const expected = [
      ...scopes.flatMap((scope) =>
        ["atom.xml", "feed.json", "feed.xml"].map((name) => scope + name),
      ),
      // A place's folder and a series' end in 10 hex digits (docs/site.md); both have RSS only.
      ...[...demoPlaces(events).keys()].map((name) => `places/${slugOf(name)}-#/feed.xml`),
      ...demoSeries(events).map(
        ([first]) =>
          `calendars/${encodeIdSegment(first?.calendarId ?? "")}/series/${slugOf(first?.title ?? "")}-#/feed.xml`,
      ),
    ];
    const hashed = feeds.map((file) =>
      file.replace(/^((?:places|calendars\/[^/]+\/series)\/[^/]+)-[0-9a-f]{10}\//, "$1-#/"),
    );
    expect(hashed.sort()).toEqual(expected.sort());
  });

  it.skipIf(!hasFeedparser)(
    "should parse every RSS and Atom feed with feedparser, well-formed, one entry per event in the window",
    async () => {
      const parsed = await parsedXml();
      const xmlFeeds = feeds.filter((file) => file.endsWith(".xml"));
      expect(xmlFeeds.length).toBeGreaterThan(2);
      for (const file of xmlFeeds) {
        const feed = parsed.get(file) as PyFeed;
        const where = `${file}: ${feed.xmlError ?? ""} ${feed.bozoException}`;
        expect(feed.wellFormed, where).toBe(true);
        expect(feed.bozo, where).toBe(false);
        expect(feed.version, file).toBe(file.endsWith("atom.xml") ? "atom10" : "rss20");
        const self = feed.feed.links.find((link) => link.rel === "self");
        expect(self?.href, file).toBe(`${DEMO_SITE_URL}/${file}`);

        const links = feed.entries.map((entry) => entry.link);
        expect([...links].sort(), file).toEqual(expectedUrls(events, file));
        // The id is what a reader deduplicates on: the page URL, stable across builds.
        expect(
          feed.entries.filter((entry) => entry.id !== entry.link),
          file,
        ).toEqual([]);
      }
    },
  );

  it.skipIf(!hasFeedparser)(
    "should date every RSS and Atom entry from the portal's creation and update times, never the build clock",
    async () => {
      const parsed = await parsedXml();
      const wrong: string[] = [];
      for (const file of feeds.filter((name) => name.endsWith(".xml"))) {
        const feed = parsed.get(file) as PyFeed;
        // Atom <updated> and RSS <lastBuildDate>: the newest change among the items.
        const newest = expectedUrls(events, file)
          .map((url) => byUrl.get(url)?.updatedAt ?? "")
          .sort()
          .at(-1);
        if (feed.feed.updated !== seconds(newest))
          wrong.push(`${file}: feed updated ${feed.feed.updated}, newest event change ${newest}`);
        for (const entry of feed.entries) {
          const where = `${feed.path} ${entry.link}`;
          const event = byUrl.get(entry.link);
          if (!event) wrong.push(`${where}: no such event`);
          else if (!plainTitle(entry).includes(event.title))
            wrong.push(`${where}: title ${entry.title}`);
          else if (entry.published !== seconds(event.createdAt))
            wrong.push(`${where}: published ${entry.published}, created ${event.createdAt}`);
          else if (feed.version === "atom10" && entry.updated !== seconds(event.updatedAt))
            wrong.push(`${where}: updated ${entry.updated}, portal ${event.updatedAt}`);
        }
      }
      expect(wrong).toEqual([]);
    },
  );

  it("should write every JSON Feed as JSON Feed 1.1 asks: version, authors, language, absolute item id/url and a title with the event's", () => {
    const jsonFeeds = feeds.filter((file) => file.endsWith(".json"));
    expect(jsonFeeds.length).toBeGreaterThan(2);
    for (const file of jsonFeeds) {
      const feed = JSON.parse(readSiteFile(site.dir, file)) as {
        version: string;
        title: string;
        feed_url: string;
        language: string;
        authors: { url: string }[];
        items: {
          id: string;
          url: string;
          title: string;
          date_published?: string;
          date_modified?: string;
        }[];
      };
      expect(jsonFeedProblems(feed), file).toEqual([]);
      expect(feed.language, file).toBe("en-GB");
      expect(
        feed.authors.map((author) => author.url),
        file,
      ).toEqual([`${DEMO_SITE_URL}/`]);
      expect(feed.title, file).toEqual(expect.any(String));
      expect(feed.feed_url, file).toBe(`${DEMO_SITE_URL}/${file}`);
      expect(
        feed.items.map((item) => item.id),
        file,
      ).toEqual(feed.items.map((item) => item.url));
      expect(feed.items.map((item) => item.url).sort(), file).toEqual(expectedUrls(events, file));
      for (const item of feed.items) {
        const event = byUrl.get(item.url);
        expect(item.title, item.url).toContain(event?.title);
        expect(item.date_modified, item.url).toBe(new Date(event?.updatedAt ?? 0).toISOString());
        expect(item.date_published, item.url).toBe(new Date(event?.createdAt ?? 0).toISOString());
      }
    }
  });

  it.skipIf(!hasFeedparser)(
    "should give feed readers each calendar's description as the portal wrote it, escaped once, in every format",
    async () => {
      const parsed = await parsedXml();
      const calendars = demoCalendars();
      // "city's": the one description with a character HTML escaping would change.
      expect(calendars.some((calendar) => calendar.description.includes("'"))).toBe(true);
      for (const calendar of calendars) {
        const folder = `calendars/${encodeIdSegment(calendar.id)}/`;
        for (const name of ["feed.xml", "atom.xml"]) {
          const feed = parsed.get(folder + name);
          expect(feed?.feed.description, folder + name).toBe(calendar.description);
          expect(feed?.feed.subtitle, folder + name).toBe(calendar.description);
        }
        const json = JSON.parse(readSiteFile(site.dir, `${folder}feed.json`));
        expect(json.description, folder).toBe(calendar.description);
      }
    },
  );

  it('should write RSS plain text as the RSS Best Practices Profile asks: "&" and "<" as hexadecimal references, outside CDATA', async () => {
    // rssboard.org/rss-profile, "Character Data": the channel's title and
    // description, item titles and categories are plain text, and the one
    // encoding aggregators all read as the character is &#x26; and &#x3C;.
    // The weekly digests' feeds as well: their channel and item titles are plain text too.
    const digestFeeds = (await listFiles(site.dir)).filter(
      (file) => isDigestFile(file) && file.endsWith("feed.xml"),
    );
    expect(digestFeeds).toContain("digest/feed.xml");
    const rssFeeds = [...feeds.filter((file) => file.endsWith("feed.xml")), ...digestFeeds];
    let ampersands = 0;
    for (const file of rssFeeds) {
      const xml = readSiteFile(site.dir, file);
      const channel = xml.slice(0, xml.indexOf("<item>"));
      const plain = [
        ...xml.matchAll(/<(title|category)\b[^>]*>([\s\S]*?)<\/\1>/g),
        ...channel.matchAll(/<(description)>([\s\S]*?)<\/description>/g),
      ].map((match) => match[2] ?? "");
      for (const text of plain) {
        expect(text, file).not.toContain("<![CDATA[");
        expect(text, file).not.toMatch(/&(amp|lt|gt|#\d+);/);
        ampersands += text.split("&#x26;").length - 1;
      }
    }
    // "Culture & Arts", "Sport & Outdoors": the demo's names hold some.
    expect(ampersands).toBeGreaterThan(0);
  });

  it.skipIf(!hasFeedparser)(
    "should write every XML file of the site (feeds and sitemap) well-formed",
    async () => {
      const parsed = await parsedXml();
      expect([...parsed.keys()]).toContain("sitemap.xml");
      const broken = [...parsed].filter(([, file]) => !file.wellFormed);
      expect(broken.map(([name, file]) => `${name}: ${file.xmlError}`)).toEqual([]);
    },
  );
});

/** What must not depend on when or where the build runs (docs/feeds.md, "Choices"). */
const isDeterministic = (file: string) =>
  file.endsWith(".ics") || isFeedFile(file) || isDigestFile(file) || /^api\/.*\.json$/.test(file);

/**
 * The shared demo build ran in the machine's zone; a second build of the same
 * portal data runs half a world away. Same bytes means neither the build
 * clock nor the build machine's zone leaks into what subscribers download.
 */
const machineZone = process.env.TZ || Intl.DateTimeFormat().resolvedOptions().timeZone;
const otherZone = machineZone === "Pacific/Auckland" ? "UTC" : "Pacific/Auckland";

describe("rebuilding the demo site", () => {
  let again: BuiltSite;

  beforeAll(async () => {
    // The files compared name no share card: the second build draws none.
    again = await buildSite({ TZ: otherZone, SHARE_CARDS: "off" });
  });

  afterAll(() => {
    if (again) removeBuild(again);
  });

  const contents = async (build: BuiltSite) => {
    expect(build.status, build.log).toBe(0);
    const files = (await listFiles(build.dir)).filter(isDeterministic);
    return new Map(
      files.map((file) => {
        const bytes = readFileSync(join(build.dir, file), "utf8");
        if (file === "api/build-state.json") {
          // `api` hashes EVENT_API_URL, here the demo portal's port of the moment.
          const { api: _, ...rest } = JSON.parse(bytes) as Record<string, unknown>;
          return [file, JSON.stringify(rest)];
        }
        if (file !== "api/manifest.json") return [file, bytes];
        // generatedAt says when the build ran; everything else must match.
        const { generatedAt: _, ...rest } = JSON.parse(bytes) as Record<string, unknown>;
        return [file, JSON.stringify(rest)];
      }),
    );
  };

  it(`should write the same calendars, feeds and public JSON, byte for byte, under TZ=${otherZone} as under ${machineZone}`, async () => {
    const offsetAt = (zone: string) => DateTime.fromISO(NOW, { zone }).offset;
    expect(offsetAt(otherZone)).not.toBe(offsetAt(machineZone));
    const first = await contents(site);
    const second = await contents(again);
    expect([...second.keys()]).toEqual([...first.keys()]);
    expect([...first.keys()].filter((file) => file.endsWith(".ics")).length).toBeGreaterThan(100);
    const differing = [...first].filter(([file, text]) => second.get(file) !== text);
    expect(differing.map(([file]) => file)).toEqual([]);
  });
});
