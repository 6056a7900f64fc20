import { HtmlValidate } from "html-validate";
import { describe, expect, it } from "vitest";
import type { CalendarEvent } from "../../src/model/types.ts";
import { SiteUrls } from "../../src/model/url-scheme.ts";
import { renderEmbedDocsPage } from "../../src/widget/docs-page.ts";
import { renderEmbedPage } from "../../src/widget/embed-page.ts";
import { eventWhen } from "../../src/widget/event-when.ts";
import { WIDGET_OPTIONS } from "../../src/widget/options.ts";
import { fixtureSnapshot } from "../fixtures/snapshot.ts";
import { NOW_DATETIME } from "../helpers/clock.ts";

const now = NOW_DATETIME;
const site = {
  url: "https://events.example.org",
  urls: new SiteUrls("https://events.example.org"),
  title: "Events",
  lang: "en",
  now,
  eventEmbeds: true,
};
const calendarOf = (id: string) => {
  const calendar = fixtureSnapshot.calendars.find((c) => c.id === id);
  if (!calendar) throw new Error(id);
  return calendar;
};
const eventsOf = (id: string) => fixtureSnapshot.events.filter((e) => e.calendarId === id);
/** A calendar's widget page, with its events, for `site` with some settings changed. */
const widgetPage = (id: string, siteChanges: Partial<typeof site> = {}) =>
  renderEmbedPage({
    calendar: calendarOf(id),
    events: eventsOf(id),
    site: { ...site, ...siteChanges },
  });
const event = (id: string): CalendarEvent => {
  const found = fixtureSnapshot.events.find((e) => e.id === id);
  if (!found) throw new Error(id);
  return found;
};
const ctx = { locale: "en-GB", calendarZone: "Europe/Amsterdam", currentYear: 2026 };

const validator = new HtmlValidate({ extends: ["html-validate:recommended"] });

describe("embed-page", () => {
  const culture = widgetPage("culture");

  it("should list the next five upcoming events in order, linked to their pages in a new tab", () => {
    const titles = [...culture.matchAll(/<span class="ecp-name" dir="auto">([^<]*)<\/span>/g)].map(
      (m) => m[1],
    );
    expect(titles).toEqual([
      "Online Lecture: City Archives",
      "Harbour Concert",
      "Poetry Night",
      "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &quot;Quotes&quot; \u2028",
      "Open Studios Weekend",
    ]);
    expect(culture).toContain(
      '<a class="ecp-link" href="/calendars/culture/events/e-cancelled/" target="_blank" rel="noopener">',
    );
    expect(culture).toContain('<span class="ecp-badge ecp-badge--cancelled">Cancelled</span>');
  });

  it("should leave past events out of the list", () => {
    const community = widgetPage("community");
    expect(community).not.toContain("Winter Market");
    expect(community).toContain("Night Walk Across the Clock Change");
  });

  it("should carry no inline script, inline style or unescaped portal text", () => {
    expect(culture).not.toMatch(/<script(?![^>]*\bsrc=)/);
    expect(culture).not.toMatch(/<style|\sstyle=/);
    expect(culture).not.toContain('<script>alert("x")');
    expect(culture).not.toContain("<img");
  });

  it("should be valid HTML", async () => {
    const report = await validator.validateString(culture);
    expect(
      report.results.flatMap((r) => r.messages.map((m) => `${m.ruleId}: ${m.message}`)),
    ).toEqual([]);
  });

  it("should tell the script when the list goes stale and where the data is", () => {
    // The first listed event (the lecture) ends 2026-04-02 13:00 in New York.
    expect(culture).toContain('data-fresh-until="2026-04-02T17:00:00.000Z"');
    expect(culture).toContain('data-events-url="/api/calendars/culture/events.json"');
    expect(culture).toContain('data-color="#862e9c"');
  });

  it("should prefix site-relative links with the path of the site URL", () => {
    const html = widgetPage("culture", { urls: new SiteUrls("https://example.org/agenda") });
    expect(html).toContain('href="/agenda/embed/widget.css"');
    expect(html).toContain('href="/agenda/calendars/culture/events/e-online/"');
    expect(html).toContain(
      '<link rel="canonical" href="https://example.org/agenda/calendars/culture/">',
    );
  });

  it("should speak the site's language", () => {
    const html = widgetPage("culture", { lang: "nl" });
    expect(html).toContain('<html lang="nl-NL" dir="ltr">');
    expect(html).toContain(">Geannuleerd<");
    expect(html).toContain(">za 4 apr, 20:00<");
  });

  it("should keep the site's regional date style for its language", () => {
    const html = widgetPage("culture", { lang: "en-US" });
    expect(html).toContain('<html lang="en-US" dir="ltr">');
    expect(html).toContain('data-locale="en-US"');
    expect(html).toContain(">Sat, Apr 4, 20:00<");
    const belgian = widgetPage("culture", { lang: "nl-BE" });
    expect(belgian).toContain('<html lang="nl-BE" dir="ltr">');
    expect(belgian).toContain(">Geannuleerd<");
  });

  it("should say so when nothing is coming up", () => {
    const html = renderEmbedPage({ calendar: calendarOf("culture"), events: [], site });
    expect(html).toContain('<p class="ecp-empty">No upcoming events.</p>');
    expect(html).not.toContain("data-fresh-until");
  });
});

describe("event-when", () => {
  it("should show a DST-crossing night in the event's zone with both offsets", () => {
    expect(eventWhen(event("e-dst"), ctx)).toEqual({
      start: { datetime: "2026-03-29T01:30:00+01:00", text: "Sun 29 Mar, 01:30" },
      end: { datetime: "2026-03-29T04:00:00+02:00", text: "04:00" },
      zone: null,
    });
  });

  it("should show an all-day event as its date and a multi-day one with its last day", () => {
    expect(eventWhen(event("e-allday"), ctx)).toEqual({
      start: { datetime: "2026-04-27", text: "Mon 27 Apr" },
      end: null,
      zone: null,
    });
    expect(eventWhen(event("e-multiday"), ctx)).toEqual({
      start: { datetime: "2026-05-15", text: "Fri 15 May" },
      end: { datetime: "2026-05-17", text: "Sun 17 May" },
      zone: null,
    });
  });

  it("should name the zone of an event held in another zone than its calendar", () => {
    const when = eventWhen(event("e-online"), ctx);
    expect(when.start.text).toBe("Thu 2 Apr, 12:00");
    expect(when.zone).toBe("GMT-4");
  });

  it("should show the year of dates outside the current year", () => {
    expect(eventWhen(event("e-allday"), { ...ctx, currentYear: 2025 }).start.text).toBe(
      "Mon, 27 Apr 2026",
    );
  });

  it("should show a timed event without duration as a single time", () => {
    expect(eventWhen(event("Weird/ID?<x>"), ctx).end).toBeNull();
  });
});

describe("docs-page", () => {
  const html = renderEmbedDocsPage(fixtureSnapshot.calendars, site);

  it("should document every option with its attribute and default", () => {
    for (const option of WIDGET_OPTIONS) {
      expect(html).toContain(`<code>${option.name}</code><br><code>${option.attribute}</code>`);
    }
  });

  it("should give each calendar its snippets, escaped as code", () => {
    expect(html).toContain(
      "&lt;script src=&quot;https://events.example.org/embed.js&quot; data-calendar=&quot;culture&quot; async&gt;&lt;/script&gt;",
    );
    expect(html).not.toMatch(/<script/);
  });

  it("should be valid HTML", async () => {
    const report = await validator.validateString(html);
    expect(
      report.results.flatMap((r) => r.messages.map((m) => `${m.ruleId}: ${m.message}`)),
    ).toEqual([]);
  });
});
