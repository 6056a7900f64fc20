import { afterEach, describe, expect, it, vi } from "vitest";
import type { Announcement } from "../../src/changes/published-state.ts";
import type { CalendarEvent } from "../../src/model/types.ts";
import {
  type FeedOptions,
  renderAtom,
  renderFeed,
  renderJsonFeed,
  renderRss,
} from "../../src/outputs/feeds.ts";
import { imageMediaType } from "../../src/outputs/feeds-image-type.ts";
import { hostileSnapshot } from "../fixtures/feeds-hostile.ts";
import { fixtureSnapshot } from "../fixtures/snapshot.ts";
import { jsonFeedProblems } from "../helpers/json-feed-spec.ts";
import { SITE_WIDE, siteWith, TEST_SITE } from "../helpers/test-site.ts";

interface JsonFeedItem {
  id: string;
  url: string;
  title: string;
  summary: string;
  content_html: string;
  image?: string;
  date_published?: string;
  date_modified: string;
  tags?: string[];
}

const options = (overrides: Partial<FeedOptions> = {}): FeedOptions => ({
  ...SITE_WIDE,
  ...overrides,
});

const jsonItems = (events: readonly CalendarEvent[], overrides: Partial<FeedOptions> = {}) =>
  (JSON.parse(renderJsonFeed(events, options(overrides))) as { items: JsonFeedItem[] }).items;

const itemFor = (items: JsonFeedItem[], eventPath: string) =>
  items.find((item) => item.id.endsWith(eventPath));

afterEach(() => {
  vi.useRealTimers();
});

describe("feeds", () => {
  it("should carry one item per event from feedPastDays ago onwards", () => {
    const ids = (feedPastDays: number) =>
      jsonItems(fixtureSnapshot.events, { site: siteWith({ feedPastDays }) }).map(
        (item) => item.id,
      );
    expect(ids(30)).toHaveLength(fixtureSnapshot.events.length);
    expect(ids(10)).not.toContain("https://events.example.org/calendars/community/events/e-past/");
    expect(ids(10)).toHaveLength(fixtureSnapshot.events.length - 1);
  });

  it("should keep at most feedMaxItems items: those not yet ended first, then the latest ended", () => {
    const all = jsonItems(fixtureSnapshot.events);
    const ended = fixtureSnapshot.events.filter(
      (event) => Date.parse(event.end) < TEST_SITE.now.toMillis(),
    );
    expect(ended.length).toBeGreaterThan(0);
    const current = all.length - ended.length;

    const capped = (feedMaxItems: number) =>
      jsonItems(fixtureSnapshot.events, { site: siteWith({ feedMaxItems }) }).map((i) => i.id);
    // Room for every current event and one ended one: the most recently ended stays.
    const latestEnded = [...ended].sort((a, b) => Date.parse(b.end) - Date.parse(a.end))[0];
    const oneEnded = capped(current + 1);
    expect(oneEnded).toHaveLength(current + 1);
    expect(oneEnded.some((id) => id.endsWith(`/${latestEnded?.id}/`))).toBe(true);
    // Items stay in start order: the cap only removes.
    expect(oneEnded).toEqual(all.map((item) => item.id).filter((id) => oneEnded.includes(id)));
    // Fewer slots than current events: only the soonest current ones.
    const two = capped(2);
    expect(two).toHaveLength(2);
    for (const id of two) expect(ended.some((event) => id.endsWith(`/${event.id}/`))).toBe(false);
  });

  it("should put the date, in the event's zone and the site language, in every title", () => {
    const items = jsonItems(fixtureSnapshot.events);
    expect(itemFor(items, "/e-dst/")?.title).toBe(
      "Sun 29 Mar 2026 · Night Walk Across the Clock Change",
    );
    expect(itemFor(items, "/e-cancelled/")?.title).toBe(
      "Sat 4 Apr 2026 · Cancelled: Harbour Concert",
    );

    // 22:30 in New York is already the next day in Amsterdam and in UTC.
    const late = fixtureSnapshot.events.map((event) =>
      event.id === "e-online"
        ? { ...event, start: "2026-04-02T22:30:00-04:00", end: "2026-04-02T23:30:00-04:00" }
        : event,
    );
    expect(itemFor(jsonItems(late), "/e-online/")?.title).toMatch(/^Thu 2 Apr 2026 · /);

    const dutch = jsonItems(fixtureSnapshot.events, { site: siteWith({ lang: "nl" }) });
    expect(itemFor(dutch, "/e-dst/")?.title).toBe(
      "zo 29 mrt 2026 · Night Walk Across the Clock Change",
    );
    expect(itemFor(dutch, "/e-postponed/")?.title).toBe(
      "vr 10 apr 2026 · Uitgesteld: Poetry Night",
    );
  });

  it("should describe when and where, naming the zone, and link to the event page", () => {
    const walk = itemFor(jsonItems(fixtureSnapshot.events), "/e-dst/");
    expect(walk?.summary).toBe(
      "Sun 29 Mar 2026, 01:30 – 04:00 (Europe/Amsterdam) · Vondelpark fountain, Vondelpark 1, 1071 AA Amsterdam, NL",
    );
    expect(walk?.content_html).toContain("01:30 – 04:00 (Europe/Amsterdam)");
    expect(walk?.content_html).toContain(
      '<a href="https://events.example.org/calendars/community/events/e-dst/">More information</a>',
    );
    expect(walk?.url).toBe("https://events.example.org/calendars/community/events/e-dst/");
  });

  it("should use the event page URL as a permalink guid and id in every format", () => {
    const rss = renderRss(fixtureSnapshot.events, options());
    expect(rss).toContain(
      '<guid isPermaLink="true">https://events.example.org/calendars/community/events/e-dst/</guid>',
    );
    const atom = renderAtom(fixtureSnapshot.events, options());
    expect(atom).toContain("<id>https://events.example.org/calendars/community/events/e-dst/</id>");
    expect(itemFor(jsonItems(fixtureSnapshot.events), "/e-dst/")?.id).toBe(
      "https://events.example.org/calendars/community/events/e-dst/",
    );
  });

  it("should link each feed to itself and its page with absolute URLs", () => {
    const scope = { kind: "calendar", id: "culture", name: "Culture" } as const;
    const rss = renderRss(fixtureSnapshot.events, options({ scope }));
    expect(rss).toContain(
      '<atom:link href="https://events.example.org/calendars/culture/feed.xml" rel="self" type="application/rss+xml"/>',
    );
    expect(rss).toContain("<link>https://events.example.org/calendars/culture/</link>");
    expect(rss).toContain("<title>Culture · City Events</title>");
    const atom = renderAtom(fixtureSnapshot.events, options({ scope }));
    expect(atom).toContain(
      '<link rel="self" href="https://events.example.org/calendars/culture/atom.xml"/>',
    );
    const json = JSON.parse(renderJsonFeed(fixtureSnapshot.events, options({ scope })));
    expect(json.feed_url).toBe("https://events.example.org/calendars/culture/feed.json");
    expect(json.home_page_url).toBe("https://events.example.org/calendars/culture/");
  });

  it("should date items by the portal's creation and update times, never by the clock", () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2031-07-07T07:07:07Z"));
    for (const render of [renderRss, renderAtom, renderJsonFeed]) {
      const output = render(hostileSnapshot.events, options());
      expect(output).not.toContain("2031");
    }
    const walk = itemFor(jsonItems(fixtureSnapshot.events), "/e-dst/");
    expect(walk?.date_published).toBe("2026-02-01T10:00:00.000Z");
    expect(walk?.date_modified).toBe("2026-03-10T09:00:00.000Z");

    // Feed-level dates: the newest update among the items.
    expect(renderAtom(fixtureSnapshot.events, options())).toContain(
      "<updated>2026-03-15T08:00:00.000Z</updated>",
    );
    expect(renderRss(fixtureSnapshot.events, options())).toContain(
      "<lastBuildDate>Sun, 15 Mar 2026 08:00:00 GMT</lastBuildDate>",
    );
    // No items: the snapshot time.
    expect(renderAtom([], options())).toContain("<updated>2026-03-20T12:00:00.000Z</updated>");
  });

  it("should attach images with a correct media type, and none it cannot know", () => {
    const rss = renderRss(hostileSnapshot.events, options());
    expect(rss).toContain(
      '<enclosure length="0" type="image/jpeg" url="https://media.example.org/walk.jpg"/>',
    );
    expect(rss).not.toContain('cdn.example.org/images/12345?w=800&amp;h=600"/>');
    expect(rss.match(/<enclosure /g)).toHaveLength(1);

    const atom = renderAtom(hostileSnapshot.events, options());
    expect(atom).toContain(
      '<link rel="enclosure" href="https://media.example.org/walk.jpg" type="image/jpeg"/>',
    );
    expect(atom).not.toContain('href="https://cdn.example.org/images/12345');
    expect(atom.match(/rel="enclosure"/g)).toHaveLength(1);
    expect(atom).not.toMatch(/type="image\/(jpg|12345)/);
    // The image without a known type is still shown in the content.
    expect(atom).toContain('<img src="https://cdn.example.org/images/12345?w=800&amp;h=600"');

    const breaker = itemFor(jsonItems(hostileSnapshot.events), "/cdata-breaker/");
    expect(breaker?.image).toBe("https://cdn.example.org/images/12345?w=800&h=600");
  });

  it("should derive image media types from extensions and CDN format parameters", () => {
    expect(imageMediaType("https://x.example/a/photo.JPG")).toBe("image/jpeg");
    expect(imageMediaType("https://x.example/a/photo.webp?v=2")).toBe("image/webp");
    expect(imageMediaType("https://x.example/a/photo?fm=png")).toBe("image/png");
    expect(imageMediaType("https://x.example/a/photo")).toBeNull();
    expect(imageMediaType("https://x.example/a.b/photo")).toBeNull();
    expect(imageMediaType("not a url")).toBeNull();
  });

  it("should keep categories, escaped, in every format", () => {
    const rss = renderRss(fixtureSnapshot.events, options());
    expect(rss).toContain(
      '<category domain="https://events.example.org/categories/_54616c6b7320262044656261746573/">Talks &#x26; &#x3C;Debates&#x3E;</category>',
    );
    const atom = renderAtom(fixtureSnapshot.events, options());
    expect(atom).toContain(
      '<category label="Talks &amp; &lt;Debates&gt;" scheme="https://events.example.org/categories/" term="Talks &amp; Debates"/>',
    );
    const hostile = itemFor(jsonItems(fixtureSnapshot.events), "/_57656972642f49443f3c783e/");
    expect(hostile?.tags).toEqual(["Talks & <Debates>"]);
  });

  it("should escape hostile titles and sanitize descriptions", () => {
    const hostile = itemFor(jsonItems(fixtureSnapshot.events), "/_57656972642f49443f3c783e/");
    expect(hostile?.title).toBe('Mon 20 Apr 2026 · <script>alert("x")</script> & "Quotes"');
    expect(hostile?.content_html).toContain("&lt;img src=x onerror=alert(1)&gt;");
    expect(hostile?.content_html).not.toMatch(/<img[^>]*onerror/);

    const atom = renderAtom(fixtureSnapshot.events, options());
    expect(atom).toContain(
      "<![CDATA[Mon 20 Apr 2026 · &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &quot;Quotes&quot;]]>",
    );
    const scripted = fixtureSnapshot.events.map((event) =>
      event.id === "e-dst"
        ? {
            ...event,
            descriptionHtml:
              '<p onclick="x()">hi<script>alert(1)</script><a href="javascript:x()">j</a></p>',
          }
        : event,
    );
    const content = itemFor(jsonItems(scripted), "/e-dst/")?.content_html ?? "";
    expect(content).toContain("<p>hi");
    expect(content).not.toMatch(/script|onclick|javascript:/);
  });

  it("should keep every CDATA section closed and drop characters XML forbids", () => {
    for (const render of [renderRss, renderAtom]) {
      const xml = render(hostileSnapshot.events, options());
      const controls = [...xml].filter((char) => char < " " && !"\t\n\r".includes(char));
      expect(controls).toEqual([]);
      // Outside CDATA sections every "&" starts a reference and no "]]>" is left.
      const outside = xml.replace(/<!\[CDATA\[[\s\S]*?\]\]>/g, "");
      expect(outside).not.toContain("]]>");
      expect(outside).not.toMatch(/&(?!(amp|lt|gt|quot|apos|#\d+|#x[0-9A-F]+);)/);
    }
  });

  it("should write RSS plain text as the RSS Best Practices Profile asks, once and outside CDATA", () => {
    const scope = { kind: "calendar", id: "culture", name: "Culture & Arts" } as const;
    const description = "The city's <b>concerts</b> & talks, &amp; more";
    const rss = renderRss(hostileSnapshot.events, options({ scope, description }));
    // "&", "<" and ">" as hexadecimal references in the channel's title and
    // description, the item titles and the categories (rssboard.org/rss-profile,
    // "Character Data"): escaped once, never as HTML ("city&amp;#39;s").
    expect(rss).toContain("<title>Culture &#x26; Arts · City Events</title>");
    expect(rss).toContain(
      "<description>The city's &#x3C;b&#x3E;concerts&#x3C;/b&#x3E; &#x26; talks, &#x26;amp; more</description>",
    );
    expect(rss).toContain(
      "<title>Tue 21 Apr 2026 · A ]]&#x3E; B ]]&#x3E; C &#x3C;b&#x3E;bold&#x3C;/b&#x3E; &#x26; done</title>",
    );
    expect(rss).not.toContain("<title><![CDATA[");
    const plainText = [...rss.matchAll(/<(title|category)\b[^>]*>([^<]*)<\/\1>/g)].map(
      (match) => match[2] ?? "",
    );
    expect(plainText.length).toBeGreaterThan(hostileSnapshot.events.length);
    for (const text of plainText) expect(text).not.toMatch(/&(amp|lt|gt);/);
  });

  it("should write JSON Feed 1.1, with authors and language, that readers of 1.0 still read", () => {
    const feed = JSON.parse(renderJsonFeed(hostileSnapshot.events, options()));
    expect(jsonFeedProblems(feed)).toEqual([]);
    expect(feed.version).toBe("https://jsonfeed.org/version/1.1");
    expect(feed.language).toBe("en-GB");
    const author = { name: "City Events", url: "https://events.example.org/" };
    expect(feed.authors).toEqual([author]);
    // JSON Feed 1.0's singular author stays for its readers (the spec's "Deprecations").
    expect(feed.author).toEqual(author);
    const withHub = JSON.parse(
      renderJsonFeed(fixtureSnapshot.events, {
        ...options(),
        site: siteWith({ websubHub: "https://hub.example.net/" }),
      }),
    );
    expect(jsonFeedProblems(withHub)).toEqual([]);
    expect(withHub.hubs).toEqual([{ type: "WebSub", url: "https://hub.example.net/" }]);
  });

  it("should name the site's home page as the feeds' author, in its folder with the slash", () => {
    const site = siteWith({ url: "https://example.org/events" });
    const json = JSON.parse(renderJsonFeed(fixtureSnapshot.events, options({ site })));
    expect(json.authors[0].url).toBe("https://example.org/events/");
    expect(json.author.url).toBe("https://example.org/events/");
    const atom = renderAtom(fixtureSnapshot.events, options({ site }));
    expect(atom).toContain("<uri>https://example.org/events/</uri>");
  });

  it("should render byte-identical feeds for the same events in any order", () => {
    for (const render of [renderRss, renderAtom, renderJsonFeed]) {
      const first = render(hostileSnapshot.events, options());
      expect(render(hostileSnapshot.events, options())).toBe(first);
      expect(render([...hostileSnapshot.events].reverse(), options())).toBe(first);
    }
  });

  describe("a feed of many items, written a few items at a time", () => {
    // Every hostile event again and again, some with an item's closing tag in their
    // text, on days of their own: up to 150 items, and announcements ahead of them.
    const many = (count: number): CalendarEvent[] =>
      Array.from({ length: count }, (_, n) => {
        const event = hostileSnapshot.events[n % hostileSnapshot.events.length] as CalendarEvent;
        const day = new Date(Date.parse("2026-04-01T10:00:00Z") + n * 86_400_000);
        return {
          ...event,
          id: `${event.id}-${n}`,
          title: n % 7 === 0 ? `</item></entry> ${n} ${event.title}` : event.title,
          descriptionHtml:
            n % 5 === 0 ? `<p>&lt;/item&gt; </item> </entry> ${n}</p>` : event.descriptionHtml,
          start: day.toISOString(),
          end: new Date(day.getTime() + 3_600_000).toISOString(),
        };
      });
    const announcement = (n: number): Announcement => ({
      id: `https://events.example.org/calendars/culture/events/a${n}/#cancelled-${n}`,
      kind: "cancelled",
      at: "2026-03-19T10:00:00.000Z",
      calendarId: "culture",
      eventId: `a${n}`,
      title: `Cancelled </item> ${n} & more`,
      url: `https://events.example.org/calendars/culture/events/a${n}/`,
      start: "2026-04-02T10:00:00.000Z",
      end: "2026-04-02T11:00:00.000Z",
      allDay: false,
      timeZone: "Europe/Amsterdam",
      previousStart: null,
      previousEnd: null,
      categories: [{ id: "music", name: "Music & <more>" }],
    });

    it.each([
      [0, 0],
      [1, 0],
      [32, 0],
      [33, 0],
      [150, 3],
    ])(
      "should write the bytes of the whole document at once (%i events, %i announcements)",
      (count, announced) => {
        const feedOptions = options({
          site: siteWith({ feedMaxItems: 500, feedPastDays: 400 }),
          announcements: Array.from({ length: announced }, (_, n) => announcement(n)),
        });
        for (const format of ["rss", "atom"] as const) {
          const inPieces = renderFeed(many(count), feedOptions, format);
          const whole = renderFeed(many(count), feedOptions, format, Number.POSITIVE_INFINITY);
          expect(inPieces).toBe(whole);
          const items = (
            inPieces.match(format === "rss" ? /\n {8}<item>/g : /\n {4}<entry>/g) ?? []
          ).length;
          expect(items).toBe(count + announced);
        }
      },
    );
  });
});
