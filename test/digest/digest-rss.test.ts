import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hoursAfterNow } from "../helpers/clock.ts";
import { type BuiltSite, buildSite, removeBuild } from "../helpers/demo-build.ts";
import { builtDemoSite } from "../helpers/demo-site.ts";
import { htmlElements } from "../helpers/html-elements.ts";
import { type PyFeed, parseFeeds } from "../helpers/python-readers.ts";
import { hasPythonModule } from "../helpers/system-packages.ts";

/*
 * The demo's digest feeds as an RSS-to-email service reads them: Python's
 * feedparser and a strict XML parser, in the shared demo build (NOW, a
 * Friday) and in one built the next evening, within the same digest week.
 */

const hasFeedparser = hasPythonModule("feedparser");

let demo: BuiltSite;
let later: BuiltSite;

beforeAll(async () => {
  demo = await builtDemoSite();
  // Saturday 21 March, 21:00 in Amsterdam: the next digest comes out at midnight.
  later = await buildSite({ SITE_NOW: hoursAfterNow(32), SHARE_CARDS: "off" });
  if (later.status !== 0) throw new Error(`The later build failed:\n${later.log}`);
}, 240_000);

afterAll(() => {
  if (later) removeBuild(later);
});

const read = (site: BuiltSite, path: string) => readFileSync(join(site.dir, path), "utf8");
/** The folders of a section that have pages (the demo's calendars or categories). */
const pagesIn = (site: BuiltSite, section: string) =>
  readdirSync(join(site.dir, section), { withFileTypes: true })
    .filter(
      (entry) =>
        entry.isDirectory() && existsSync(join(site.dir, section, entry.name, "index.html")),
    )
    .map((entry) => entry.name);

describe.runIf(hasFeedparser)("digest-rss", () => {
  let feeds: PyFeed[];

  beforeAll(() => {
    feeds = parseFeeds([join(demo.dir, "digest/feed.xml"), join(later.dir, "digest/feed.xml")]);
  });

  it("should write RSS 2.0 that feedparser and a strict XML parser read, one item per week", () => {
    const [feed] = feeds;
    expect(feed?.wellFormed).toBe(true);
    expect(feed?.bozo).toBe(false);
    expect(feed?.version).toBe("rss20");
    expect(feed?.feed.title).toBe("Events · Weekly digest");
    expect(feed?.feed.links).toContainEqual({
      rel: "self",
      href: "https://events.example.org/digest/feed.xml",
      type: "application/rss+xml",
    });
    expect(feed?.entries.map((entry) => entry.id)).toEqual([
      "https://events.example.org/digest/#week-2026-03-16",
      "https://events.example.org/digest/#week-2026-03-09",
      "https://events.example.org/digest/#week-2026-03-02",
      "https://events.example.org/digest/#week-2026-02-23",
    ]);
    const [latest] = feed?.entries ?? [];
    expect(latest?.guidIsLink).toBe(false);
    expect(latest?.title).toMatch(/^Events next week: 16\s*–\s*22 March$/);
    // Out on Sunday 15 March at midnight in Amsterdam.
    expect(latest?.published).toBe("2026-03-14T23:00:00Z");
    expect(latest?.link).toBe(
      "https://events.example.org/search/?when=range&from=2026-03-16&to=2026-03-22",
    );
  });

  it("should give each week the same guid, date and title in a build at another hour of the same week", () => {
    const [now, next] = feeds;
    const items = (feed: PyFeed | undefined) =>
      feed?.entries.map(({ id, published, title, link }) => ({ id, published, title, link }));
    expect(next?.bozo).toBe(false);
    expect(items(next)).toEqual(items(now));
  });

  it("should carry the week as HTML: its days' events linked to their pages, new events, the week on the site", () => {
    const html = read(demo, "digest/feed.xml");
    expect(html).toContain("<description><![CDATA[<p>");
    const [latest] = feeds[0]?.entries ?? [];
    // feedparser reads the description as the item's summary; its links, as a reader follows them.
    const description = /<item>[\s\S]*?<description><!\[CDATA\[([\s\S]*?)\]\]><\/description>/.exec(
      html,
    )?.[1];
    const elements = htmlElements(description ?? "");
    expect(elements.filter((e) => e.tagName === "h2").map((e) => e.text)).toContain(
      "New since last week",
    );
    const links = elements.filter((e) => e.tagName === "a").map((e) => e.attributes.get("href"));
    expect(links.some((href) => href?.includes("/calendars/"))).toBe(true);
    for (const href of links) expect(href).toMatch(/^https:\/\/events\.example\.org\//);
    expect(latest?.id).toContain("#week-");
  });
});

describe("digest files", () => {
  it("should write a digest for every calendar and every category, and list it where their feeds are", () => {
    const calendars = pagesIn(demo, "calendars");
    const categories = pagesIn(demo, "categories");
    expect(calendars.length).toBeGreaterThan(1);
    expect(categories.length).toBeGreaterThan(1);
    for (const folder of [
      "digest",
      ...calendars.map((id) => `calendars/${id}/digest`),
      ...categories.map((id) => `categories/${id}/digest`),
    ]) {
      for (const file of ["feed.xml", "latest.html", "latest.txt"]) {
        expect(existsSync(join(demo.dir, folder, file)), `${folder}/${file}`).toBe(true);
      }
    }
    const [culture] = calendars;
    const page = htmlElements(read(demo, `calendars/${culture}/index.html`));
    const alternates = page
      .filter((e) => e.tagName === "link" && e.attributes.get("rel") === "alternate")
      .map((e) => [e.attributes.get("href"), e.attributes.get("title")]);
    expect(alternates).toContainEqual([
      `https://events.example.org/calendars/${culture}/digest/feed.xml`,
      expect.stringMatching(/ · Weekly digest \(RSS\)$/),
    ]);
    const subscribe = htmlElements(read(demo, "subscribe/index.html"))
      .filter((e) => e.tagName === "a")
      .map((e) => e.attributes.get("href"));
    expect(subscribe).toContain("/digest/feed.xml");
    for (const id of [
      ...calendars.map((c) => `calendars/${c}`),
      ...categories.map((c) => `categories/${c}`),
    ]) {
      expect(subscribe, id).toContain(`/${id}/digest/feed.xml`);
    }
    const document = JSON.parse(read(demo, "search/subscriptions.json")) as {
      subscriptions: { calendar: string | null; category: string | null; digest: string | null }[];
    };
    for (const entry of document.subscriptions) {
      const want =
        entry.calendar && entry.category
          ? null
          : entry.calendar
            ? `/calendars/${entry.calendar}/digest/feed.xml`
            : entry.category
              ? `/categories/${entry.category}/digest/feed.xml`
              : "/digest/feed.xml";
      expect(entry.digest).toBe(want);
    }
  });

  it("should write the latest week as a mail and as its text alternative, the same week", () => {
    const html = read(demo, "digest/latest.html");
    const text = read(demo, "digest/latest.txt");
    expect(html).toContain('<meta name="digest-week" content="2026-03-16">');
    expect(html).toMatch(/<title>Events next week: 16\s*–\s*22 March<\/title>/);
    expect(text.split("\n").slice(0, 4)).toEqual([
      "Events",
      "https://events.example.org/",
      "",
      expect.stringMatching(/^Events next week: 16\s*–\s*22 March$/),
    ]);
    // The same events, in the same order.
    const titled = htmlElements(html)
      .filter((e) => e.attributes.get("class") === "title")
      .map((e) => e.text);
    const listed = text
      .split("\n")
      .filter((line) => line.startsWith("* "))
      .map((line) => line.slice(2).replace(/ \((Cancelled|Postponed)\)$/, ""));
    expect(listed).toEqual(titled);
    expect(titled.length).toBeGreaterThan(3);
  });
});
