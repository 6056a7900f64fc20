import { HtmlValidate } from "html-validate";
import { describe, expect, it } from "vitest";
import type { Calendar, CalendarEvent } from "../../src/model/types.ts";
import { SiteUrls } from "../../src/model/url-scheme.ts";
import { buildViews } from "../../src/site/views.ts";
import { renderAllCalendarsPage } from "../../src/widget/all-calendars/all-calendars-page.ts";
import { renderEmbedDocsPage } from "../../src/widget/docs-page.ts";
import { eventCardFileGroups } from "../../src/widget/event-card/event-card-files.ts";
import {
  offersAddToCalendar,
  renderEventCard,
} from "../../src/widget/event-card/event-card-page.ts";
import { eventEmbedSnippets } from "../../src/widget/event-card/event-card-snippets.ts";
import { fixtureSnapshot, hostileCalendar } from "../fixtures/snapshot.ts";
import { NOW_DATETIME } from "../helpers/clock.ts";
import { movedTo, withNewDate } from "../helpers/events.ts";
import { siteWith, TEST_SITE } from "../helpers/test-site.ts";

/* The event card, the page of several calendars and the guide, as the build renders them. */

// Titles come from the portal: a long one is the portal's to shorten, not an error of the page.
const validator = new HtmlValidate({
  extends: ["html-validate:recommended"],
  rules: { "long-title": "off" },
});
const problemsOf = async (html: string) =>
  (await validator.validateString(html)).results.flatMap((r) =>
    r.messages.map((m) => `${m.ruleId}: ${m.message}`),
  );

/** Valid HTML with no script of its own but loaded ones and no inline style, as the pages' Content-Security-Policy requires. */
async function expectSafeAndValid(html: string): Promise<void> {
  expect(html).not.toMatch(/<script(?![^>]*\bsrc=)/);
  expect(html).not.toMatch(/<style|\sstyle=/);
  expect(await problemsOf(html)).toEqual([]);
}

const calendarOf = (id: string): Calendar => {
  const calendar = fixtureSnapshot.calendars.find((c) => c.id === id);
  if (!calendar) throw new Error(id);
  return calendar;
};
const eventOf = (id: string): CalendarEvent => {
  const event = fixtureSnapshot.events.find((e) => e.id === id);
  if (!event) throw new Error(id);
  return event;
};
/** The card of an event the test changed, on `calendarId`'s pages, with no calendar file of its own. */
const changedCard = (event: CalendarEvent, calendarId: string, site = TEST_SITE) =>
  renderEventCard({ event, calendar: calendarOf(calendarId), ics: null, site });
const card = (id: string, ics: string | null = "/x/event.ics", site = TEST_SITE) => {
  const event = eventOf(id);
  return renderEventCard({ event, calendar: calendarOf(event.calendarId), ics, site });
};

describe("event card", () => {
  it("should show the event's when line in its own zone, linked title, place and Add to calendar", () => {
    const html = card("e-dst", "/calendars/community/events/e-dst/event.ics");
    expect(html).toContain(
      '<time datetime="2026-03-29T01:30:00+01:00">Sunday, 29 March 2026 at 01:30 CET – Sunday, 29 March 2026 at 04:00 CEST</time>',
    );
    expect(html).toContain(
      '<a class="ecp-link" href="/calendars/community/events/e-dst/" target="_blank" rel="noopener"><span class="ecp-name" dir="auto">Night Walk Across the Clock Change</span><span class="ecp-sr ecp-newtab"> (opens in a new tab)</span></a>',
    );
    expect(html).toContain('<p class="ecp-where" dir="auto">Vondelpark fountain, Amsterdam</p>');
    expect(html).toContain(
      '<a class="ecp-button" href="/calendars/community/events/e-dst/event.ics" download>Add to calendar</a>',
    );
    expect(html).toContain(
      '<link rel="canonical" href="https://events.example.org/calendars/community/events/e-dst/">',
    );
    // An image outside the site (not copied) keeps its https address.
    expect(html).toContain(
      '<img class="ecp-card-image" src="https://media.example.org/walk.jpg" alt="Lanterns in the park" width="1200" height="630">',
    );
  });

  it("should link an image copied into the site by its path, under the site's folder, and drop one that is not http(s)", () => {
    const site = siteWith({ url: "https://example.org/agenda" });
    const event = eventOf("e-dst");
    const local = changedCard(
      {
        ...event,
        image: {
          url: "https://example.org/agenda/media/ab.jpg",
          alt: "",
          width: null,
          height: null,
        },
      },
      "community",
      site,
    );
    expect(local).toContain('<img class="ecp-card-image" src="/agenda/media/ab.jpg" alt="">');
    const script = changedCard(
      { ...event, image: { url: "javascript:alert(1)", alt: "", width: 1, height: 1 } },
      "community",
      site,
    );
    expect(script).not.toContain("<img");
    expect(script).not.toContain("javascript:");
  });

  it("should escape hostile portal text and carry no inline script or style", async () => {
    const html = card("Weird/ID?<x>");
    expect(html).toContain(
      '<span class="ecp-name" dir="auto">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &quot;Quotes&quot; \u2028</span>',
    );
    expect(html).not.toContain('<script>alert("x")');
    await expectSafeAndValid(html);
    expect(await problemsOf(card("e-dst"))).toEqual([]);
  });

  it("should mark cancelled, postponed and rescheduled events as the widget does", () => {
    expect(card("e-cancelled", null)).toContain(
      '<span class="ecp-badge ecp-badge--cancelled">Cancelled</span>',
    );
    expect(card("e-cancelled", null)).toContain('<article class="ecp-card ecp-event--cancelled">');
    expect(card("e-postponed")).toContain('<span class="ecp-badge">Postponed</span>');
    const moved = changedCard(
      withNewDate(eventOf("e-online"), "2026-04-01T12:00:00-04:00", "2026-03-19T12:00:00Z"),
      "culture",
    );
    expect(moved).toContain('<span class="ecp-badge ecp-badge--new-date">New date</span>');
  });

  it("should send the card of an event that moved to another calendar to its new page, without its old copy's cancellation", () => {
    // Shown where the old copy was: the community calendar's pages.
    const html = changedCard(movedTo(eventOf("e-dst"), "culture", "Culture"), "community");
    expect(html).toContain('href="/calendars/culture/events/e-dst/"');
    expect(html).not.toContain("ecp-badge");
    expect(html).not.toContain("ecp-event--cancelled");
  });

  it("should offer Add to calendar when the event page does, and name an inline calendar event.ics", () => {
    expect(offersAddToCalendar(eventOf("e-dst"))).toBe(true);
    expect(offersAddToCalendar(eventOf("e-postponed"))).toBe(true);
    expect(offersAddToCalendar(eventOf("e-cancelled"))).toBe(false);
    const deleted = {
      ...eventOf("e-dst"),
      status: "cancelled" as const,
      history: {
        uid: null,
        previousStarts: [],
        rescheduledAt: null,
        newDate: false,
        removed: { kind: "deleted" as const },
      },
    };
    expect(offersAddToCalendar(deleted)).toBe(false);
    expect(card("e-dst", "data:text/calendar;charset=utf-8;base64,QkVHSU4=")).toContain(
      'href="data:text/calendar;charset=utf-8;base64,QkVHSU4=" download="event.ics">Add to calendar</a>',
    );
    expect(card("e-dst", null)).not.toContain("ecp-button");
  });

  it("should be written once per event page, byte for byte the same at a later clock, and not at all with EVENT_EMBEDS=off", () => {
    const views = buildViews(fixtureSnapshot, {
      now: NOW_DATETIME,
      pastDays: 365,
      timeZone: "Europe/Amsterdam",
    });
    const render = (site: typeof TEST_SITE) => {
      const [cards, answers] = eventCardFileGroups(views.eventPages, site, () => "data:,");
      if (!cards || !answers) throw new Error("groups");
      return [cards, answers].map((group) =>
        group.items.map((item) => [group.path(item), group.render(item)]),
      );
    };
    const now = render(TEST_SITE);
    expect(now[0]?.length).toBe(views.eventPages.length);
    expect(now[1]?.length).toBe(views.eventPages.length);
    expect(now[0]?.map(([path]) => path)).toContain(
      "/embed/culture/events/_57656972642f49443f3c783e/index.html",
    );
    const later = render(siteWith({ now: NOW_DATETIME.plus({ days: 40 }) }));
    expect(later).toEqual(now);
    expect(render(siteWith({ eventEmbeds: false }))).toEqual([[], []]);
    // EVENT_ICS=inline: the card carries the event's calendar as the page does.
    const inline = render(siteWith({ eventIcs: "inline" }))[0]?.find(([path]) =>
      String(path).includes("/e-dst/"),
    );
    expect(inline?.[1]).toContain('href="data:," download="event.ics"');
  });

  it("should name a thumbnail readers can show in the oEmbed answer: the share card, else the site's raster copy, never an SVG", () => {
    const calendar = calendarOf("community");
    const base = eventOf("e-dst");
    const media = (name: string) => TEST_SITE.urls.absolute(`/media/${name}`);
    const pages = [
      ["raster", { url: media("0123456789abcdef0123456789abcdef.png"), width: 1200, height: 630 }],
      ["svg", { url: media("0123456789abcdef0123456789abcdef.svg"), width: 1200, height: 630 }],
      ["portal", { url: "https://portal.example.org/media/x.png", width: 1200, height: 630 }],
      [
        "unsized",
        { url: media("0123456789abcdef0123456789abcdef.jpg"), width: null, height: null },
      ],
    ].map(([id, image]) => ({
      calendar,
      event: {
        ...base,
        id: id as string,
        image: { alt: "", ...(image as object) },
      } as CalendarEvent,
    }));
    const thumbnails = (shareCard?: Parameters<typeof eventCardFileGroups>[3]) => {
      const answers = eventCardFileGroups(pages as never, TEST_SITE, () => "data:,", shareCard)[1];
      if (!answers) throw new Error("no oEmbed answers");
      return answers.items.map((item) => {
        const answer = JSON.parse(String(answers.render(item)));
        return [answer.thumbnail_url, answer.thumbnail_width, answer.thumbnail_height];
      });
    };
    const none = [undefined, undefined, undefined];
    expect(thumbnails()).toEqual([
      [media("0123456789abcdef0123456789abcdef.png"), 1200, 630],
      none,
      none,
      none,
    ]);
    const card = (id: string) => TEST_SITE.urls.absolute(`/cards/${id}.png`);
    const withCards = thumbnails((event) => ({ url: card(event.id), width: 1200, height: 630 }));
    expect(withCards).toEqual(pages.map(({ event }) => [card(event.id), 1200, 630]));
  });

  it("should give snippets whose addresses are absolute and whose text is escaped", () => {
    const snippets = eventEmbedSnippets(eventOf("Weird/ID?<x>"), calendarOf("culture"), TEST_SITE);
    expect(snippets.script).toBe(
      [
        '<a href="https://events.example.org/calendars/culture/events/_57656972642f49443f3c783e/" data-ecp-fallback>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &quot;Quotes&quot; \u2028</a>',
        '<script src="https://events.example.org/embed.js" data-calendar="culture" data-event="_57656972642f49443f3c783e" async></script>',
      ].join("\n"),
    );
    expect(snippets.element).toContain(
      '<event-calendar src="https://events.example.org/embed/culture/events/_57656972642f49443f3c783e/"><a href=',
    );
    expect(snippets.previewUrl).toBe("/embed/culture/events/_57656972642f49443f3c783e/");
  });
});

describe("widget of several calendars", () => {
  const eventsOf = (id: string) => fixtureSnapshot.events.filter((e) => e.calendarId === id);
  const page = (site = TEST_SITE, calendars = fixtureSnapshot.calendars) =>
    renderAllCalendarsPage({ calendars, eventsOf, site });

  it("should list the next five events of every calendar in start order, each with its calendar", () => {
    const html = page();
    const items = [
      ...html.matchAll(
        /<li class="ecp-event[^"]*cal-([a-z-]+)" data-calendar="[^"]+">\n<a[^>]*><span class="ecp-name" dir="auto">([^<]*)<\/span>[\s\S]*?<p class="ecp-cal" dir="auto">([^<]*)<\/p>/g,
      ),
    ].map((m) => [m[2], m[1], m[3]]);
    expect(items).toEqual([
      ["Night Walk Across the Clock Change", "community", "Community"],
      ["Online Lecture: City Archives", "culture", "Culture"],
      ["Harbour Concert", "culture", "Culture"],
      ["Poetry Night", "culture", "Culture"],
      [
        "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &quot;Quotes&quot; \u2028",
        "culture",
        "Culture",
      ],
    ]);
    // Zones are named when they are not the site's: the lecture is in New York.
    expect(html).toContain('<span class="ecp-zone">GMT-4</span>');
  });

  it("should carry every calendar in its legend, with the events file the script reads, under the site's folder", () => {
    const html = page(siteWith({ url: "https://example.org/agenda" }));
    expect(html).toContain(
      '<li class="cal-community" data-calendar="community" data-events-url="/agenda/api/calendars/community/events.json" dir="auto">Community</li>',
    );
    expect(html).toContain(
      '<li class="cal-culture" data-calendar="culture" data-events-url="/agenda/api/calendars/culture/events.json" dir="auto">Culture</li>',
    );
    expect(html).toContain('<link rel="stylesheet" href="/agenda/assets/calendars.css">');
    expect(html).toContain('<main id="ecp" class="ecp ecp--light ecp--multi"');
    expect(html).toContain('data-zone="Europe/Amsterdam"');
    expect(html).not.toContain('data-events-url="/api');
  });

  it("should escape a hostile calendar name, be valid HTML and carry no inline script or style", async () => {
    const html = page(TEST_SITE, [...fixtureSnapshot.calendars, hostileCalendar]);
    expect(html).toContain(
      'data-calendar="_54616c6b732026203c446562617465733e" data-events-url="/api/calendars/_54616c6b732026203c446562617465733e/events.json" dir="auto">Talks &quot;&amp;&quot; &lt;b&gt;Debates&lt;/b&gt;</li>',
    );
    expect(html).not.toContain("<b>Debates");
    await expectSafeAndValid(html);
  });
});

describe("docs-page, new embeds", () => {
  const example = { event: eventOf("e-dst"), calendar: calendarOf("community") };
  const site = {
    url: "https://events.example.org",
    urls: new SiteUrls("https://events.example.org"),
    title: "Events",
    lang: "en",
    eventEmbeds: true,
  };

  it("should show several calendars, an event's card and the element, each with snippets", async () => {
    const html = renderEmbedDocsPage(fixtureSnapshot.calendars, site, example);
    for (const expected of [
      '<h2 id="several">',
      "data-calendars=&quot;community,culture&quot;",
      "https://events.example.org/embed/_all/?calendars=community,culture&amp;view=month",
      '<h2 id="event">',
      "data-calendar=&quot;community&quot; data-event=&quot;e-dst&quot;",
      '<a href="/embed/community/events/e-dst/">Night Walk Across the Clock Change</a>',
      '<h2 id="element">',
      "&lt;event-calendar src=&quot;https://events.example.org/embed/community/?count=3&quot;&gt;",
      "&lt;event-calendar calendars=&quot;community,culture&quot; view=&quot;month&quot;&gt;",
      "<code>calendars</code><br><code>data-calendars</code>",
    ]) {
      expect(html).toContain(expected);
    }
    expect(html).not.toMatch(/<script/);
    expect(await problemsOf(html)).toEqual([]);
  });

  it("should say when event cards are switched off, and offer none", () => {
    const html = renderEmbedDocsPage(
      fixtureSnapshot.calendars,
      { ...site, eventEmbeds: false },
      example,
    );
    expect(html).toContain("Event cards are switched off on this site");
    expect(html).not.toContain("data-event=");
    expect(html).not.toContain("/oembed/{calendar}/events/");
  });
});
