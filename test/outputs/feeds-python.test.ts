import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hostileSnapshot } from "../fixtures/feeds-hostile.ts";
import { buildFixtureSite, removeFixtureSite } from "../helpers/plugin-site.ts";
import { libicalErrors, type PyFeed, parseFeeds, parseIcs } from "../helpers/python-readers.ts";
import { hasLibical, hasPythonModule } from "../helpers/system-packages.ts";
import { TEST_SITE } from "../helpers/test-site.ts";

// Evaluated at collection: skips with a printed reason here, throws in CI.
const hasFeedparser = hasPythonModule("feedparser");
const hasIcalendar = hasPythonModule("icalendar");
const hasLibicalValidator = hasLibical();

let outDir = "";
let files: string[] = [];
const absolute = (list: string[]) => list.map((file) => join(outDir, file));

beforeAll(async () => {
  if (!hasFeedparser && !hasIcalendar && !hasLibicalValidator) return;
  ({ outDir, files } = await buildFixtureSite(hostileSnapshot, TEST_SITE));
});

afterAll(async () => {
  await removeFixtureSite(outDir);
});

const entryFor = (feed: PyFeed | undefined, eventPath: string) =>
  feed?.entries.find((entry) => entry.link.endsWith(eventPath));

describe("feeds-python", () => {
  it.skipIf(!hasFeedparser)(
    "should pass every RSS and Atom file through feedparser and a strict XML parser",
    () => {
      // Every feed: the XML files but the sitemap (test/outputs/sitemap-files.test.ts reads it).
      const xmlFiles = files.filter((file) => file.endsWith(".xml") && file !== "sitemap.xml");
      expect(xmlFiles.length).toBeGreaterThanOrEqual(2 * 6);
      const feeds = parseFeeds(absolute(xmlFiles));
      for (const feed of feeds) {
        expect(feed.xmlError ?? "", feed.path).toBe("");
        expect(feed.wellFormed, feed.path).toBe(true);
        expect(feed.bozo, `${feed.path}: ${feed.bozoException}`).toBe(false);
        expect(feed.version, feed.path).toMatch(
          feed.path.endsWith("atom.xml") ? /^atom10$/ : /^rss20$/,
        );
        expect(feed.feed.links.find((link) => link.rel === "self")?.href, feed.path).toBe(
          feed.path.replace(outDir, TEST_SITE.url),
        );
        // A digest's item is a week (src/digest): its guid the week's, its link the week's search.
        const digest = feed.path.includes("/digest/");
        for (const entry of feed.entries) {
          if (digest) {
            expect(entry.link, feed.path).toMatch(/^https:\/\/events\.example\.org\/search\/\?/);
            expect(entry.id, feed.path).not.toBe("");
            continue;
          }
          expect(entry.id, feed.path).toBe(entry.link);
          expect(entry.link, feed.path).toMatch(/^https:\/\/events\.example\.org\/calendars\//);
          expect(entry.published, feed.path).not.toBeNull();
          for (const enclosure of entry.enclosures) {
            expect(enclosure.type, feed.path).toMatch(/^image\/(jpeg|png|gif|webp|avif)$/);
          }
        }
      }
    },
  );

  it.skipIf(!hasFeedparser)("should read back titles, dates and categories as written", () => {
    const [rss, atom] = parseFeeds(absolute(["feed.xml", "atom.xml"]));
    const hostileTitle = 'Mon 20 Apr 2026 · <script>alert("x")</script> & "Quotes"';
    // RSS titles are plain text; Atom titles are type="html", read back as escaped HTML.
    expect(entryFor(rss, "/_57656972642f49443f3c783e/")?.title).toBe(hostileTitle);
    expect(entryFor(rss, "/_57656972642f49443f3c783e/")?.titleType).toBe("text/plain");
    expect(entryFor(atom, "/_57656972642f49443f3c783e/")?.title).toBe(
      hostileTitle
        .replace(/&/g, "&amp;")
        .replace(/</g, "&lt;")
        .replace(/>/g, "&gt;")
        .replace(/"/g, "&quot;"),
    );
    expect(entryFor(atom, "/_57656972642f49443f3c783e/")?.titleType).toBe("text/html");
    for (const feed of [rss, atom]) {
      expect(entryFor(feed, "/e-dst/")?.title).toBe(
        "Sun 29 Mar 2026 · Night Walk Across the Clock Change",
      );
      expect(entryFor(feed, "/cdata-breaker/")?.title).toMatch(/^Tue 21 Apr 2026 · A ]]/);
      expect(entryFor(feed, "/_57656972642f49443f3c783e/")?.tags).toEqual(["Talks & <Debates>"]);
      expect(entryFor(feed, "/e-dst/")?.published).toBe("2026-02-01T10:00:00Z");
    }
    expect(atom?.feed.updated).toBe("2026-03-15T08:00:00Z");
    expect(entryFor(atom, "/e-dst/")?.updated).toBe("2026-03-10T09:00:00Z");
    expect(entryFor(atom, "/e-dst/")?.enclosures).toEqual([
      { href: "https://media.example.org/walk.jpg", type: "image/jpeg" },
    ]);
  });

  it.skipIf(!hasIcalendar)(
    "should parse every .ics with Python's icalendar at the right instants",
    () => {
      const icsFiles = files.filter((file) => file.endsWith(".ics"));
      const calendars = parseIcs(absolute(icsFiles));
      expect(calendars).toHaveLength(icsFiles.length);
      const uids = new Map<string, string>();
      for (const calendar of calendars) {
        expect(calendar.errors, calendar.path).toEqual([]);
        expect(calendar.properties, calendar.path).toContain("METHOD");
        const single = calendar.path.endsWith("/event.ics");
        expect(calendar.properties.includes("X-WR-CALNAME"), calendar.path).toBe(!single);
        for (const event of calendar.events) {
          const start = JSON.stringify(event.start);
          expect(uids.get(event.uid) ?? start, event.uid).toBe(start);
          uids.set(event.uid, start);
          if ("tzid" in event.start && event.start.tzid) {
            expect(calendar.timezones, calendar.path).toContain(event.start.tzid);
          }
        }
      }
      const site = calendars.find((calendar) => calendar.path.endsWith(`${outDir}/calendar.ics`));
      const byId = (id: string) => site?.events.find((event) => event.uid.includes(`.${id}@`));
      expect(byId("e-dst")?.start).toEqual({
        utc: "2026-03-29T00:30:00Z",
        tzid: "Europe/Amsterdam",
      });
      expect(byId("e-dst")?.end).toEqual({ utc: "2026-03-29T02:00:00Z", tzid: "Europe/Amsterdam" });
      expect(byId("e-online")?.start).toEqual({
        utc: "2026-04-02T16:00:00Z",
        tzid: "America/New_York",
      });
      expect(byId("e-allday")?.start).toEqual({ date: "2026-04-27" });
      expect(byId("e-allday")?.end).toEqual({ date: "2026-04-28" });
      expect(byId("e-multiday")?.end).toEqual({ date: "2026-05-18" });
      expect(byId("e-cancelled")?.status).toBe("CANCELLED");
      expect(byId("e-dst")?.sequence).toBe(3);
      expect(byId("e-dst")?.stamp).toEqual({ utc: "2026-03-10T09:00:00Z", tzid: null });
      expect(byId("injection")?.summary).toBe(
        "Injected END:VEVENT BEGIN:VEVENT UID:evil@example.org",
      );
      expect(site?.name).toBe("City Events");
    },
  );

  it.skipIf(!hasLibicalValidator)(
    "should pass every .ics, hostile text and all, through libical's validator without an error",
    () => {
      const icsFiles = absolute(files.filter((file) => file.endsWith(".ics")));
      const errors = libicalErrors(icsFiles);
      expect(Object.keys(errors)).toHaveLength(icsFiles.length);
      expect(Object.entries(errors).filter(([, list]) => list.length > 0)).toEqual([]);
    },
  );
});
