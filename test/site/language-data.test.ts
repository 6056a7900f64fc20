import { describe, expect, it } from "vitest";
import type { Announcement } from "../../src/changes/published-state.ts";
import { readSiteConfig, type SiteConfig, siteInLanguage } from "../../src/config/site.ts";
import type { CalendarEvent, PortalSnapshot } from "../../src/model/types.ts";
import { paths } from "../../src/model/url-scheme.ts";
import { siteDataIn, textsIn } from "../../src/site/language-data.ts";
import { type SiteData, siteViews } from "../../src/site/load.ts";
import { fixtureSnapshot } from "../fixtures/snapshot.ts";
import { NOW } from "../helpers/clock.ts";

/*
 * The site's data as each of its languages publishes it: made once, each
 * language's texts where the portal translated them, its own week, the same
 * pages at the same paths.
 */

const site = readSiteConfig({
  SITE_URL: "https://events.example.org",
  SITE_NOW: NOW,
  SITE_LANGUAGES: "en-GB,fr,ar",
});
const [root, french, arabic] = site.languages.map((language) => siteInLanguage(site, language)) as [
  SiteConfig,
  SiteConfig,
  SiteConfig,
];

/** The fixture's "Poetry Night" twice more, a series; the portal translates one date into French. */
function snapshotWithSeries(): PortalSnapshot {
  const poetry = fixtureSnapshot.events.find((e) => e.id === "e-postponed") as CalendarEvent;
  const date = (id: string, day: string, extra: Partial<CalendarEvent> = {}): CalendarEvent => ({
    ...poetry,
    id,
    status: "scheduled",
    start: `2026-05-${day}T19:30:00+02:00`,
    end: `2026-05-${day}T21:00:00+02:00`,
    ...extra,
  });
  return {
    ...fixtureSnapshot,
    events: [
      ...fixtureSnapshot.events,
      date("poetry-2", "08", {
        translations: {
          fr: { title: "Soirée poésie", summary: "Des poèmes." },
          de: { title: "Lyrikabend" },
        },
      }),
      date("poetry-3", "15"),
    ],
  };
}

/** The site's data as the build makes it for the root, without images or changes. */
function dataOf(snapshot: PortalSnapshot, announcements: readonly Announcement[] = []): SiteData {
  return {
    ...snapshot,
    ...siteViews(snapshot, [], root),
    media: [],
    removed: [],
    announcements,
    removedRecords: [],
    activities: [],
    updatedAt: null,
  };
}

describe("siteDataIn", () => {
  it("should be the data itself for a language without translations and with the same week", () => {
    const data = dataOf(fixtureSnapshot);
    expect(siteDataIn(data, root, root)).toBe(data);
    expect(siteDataIn(data, french, root)).toBe(data);
  });

  it("should show a language's translation on a copy of the event that says so, the portal's own elsewhere", () => {
    const data = dataOf(snapshotWithSeries());
    const inFrench = siteDataIn(data, french, root);
    const shown = inFrench.views.eventPages.find((page) => page.event.id === "poetry-2")?.event;
    expect(shown).toMatchObject({
      title: "Soirée poésie",
      summary: "Des poèmes.",
      translated: { fields: ["title", "summary"], originalTitle: "Poetry Night" },
    });
    // The data is left as it was, for the other languages.
    const original = data.events.find((event) => event.id === "poetry-2");
    expect(original?.title).toBe("Poetry Night");
    expect(original).not.toHaveProperty("translated");
    // Every list shows the same copy.
    expect(inFrench.views.upcoming).toContain(shown);
    expect(siteDataIn(data, arabic, root).views.eventPages.map((p) => p.event.title)).toContain(
      "Poetry Night",
    );
  });

  it("should publish the same pages at the same paths in every language, a translated series too", () => {
    const data = dataOf(snapshotWithSeries());
    const pathsOf = (of: SiteData) => ({
      events: of.views.eventPages.map((page) => page.path),
      series: of.views.seriesPages.map((page) => page.path),
      months: of.views.monthPages.map((page) => page.path),
      when: of.when.pages.map((page) => page.path),
      places: of.views.placePages.map((page) => page.path),
    });
    const inFrench = siteDataIn(data, french, root);
    expect(pathsOf(inFrench)).toEqual(pathsOf(data));
    expect(pathsOf(siteDataIn(data, arabic, root))).toEqual(pathsOf(data));
    // One series of three dates, whichever title a date shows.
    const series = inFrench.views.seriesPages.find((page) => page.series.dates.length === 3);
    expect(series?.series.dates.map((event) => event.id).sort()).toEqual([
      "e-postponed",
      "poetry-2",
      "poetry-3",
    ]);
  });

  it("should lay out its month grids in its own week", () => {
    const data = dataOf(fixtureSnapshot);
    const inArabic = siteDataIn(data, arabic, root);
    expect(inArabic).not.toBe(data);
    const firstDay = (of: SiteData) => of.views.monthPages[0]?.weeks[0]?.[0]?.date;
    // The week starts on Monday in en-GB, Saturday in Arabic (CLDR).
    expect(new Date(`${firstDay(data)}T12:00:00Z`).getUTCDay()).toBe(1);
    expect(new Date(`${firstDay(inArabic)}T12:00:00Z`).getUTCDay()).toBe(6);
  });

  it("should announce changes with the language's pages and titles", () => {
    const event = snapshotWithSeries().events.find((e) => e.id === "poetry-2") as CalendarEvent;
    const url = root.urls.absolute(paths.event(event.calendarId, event.id));
    const announcement: Announcement = {
      id: `${url}#cancelled-2026-03-19`,
      kind: "cancelled",
      at: "2026-03-19T10:00:00Z",
      calendarId: event.calendarId,
      eventId: event.id,
      title: event.title,
      url,
      start: event.start,
      end: event.end,
      allDay: false,
      timeZone: event.timeZone,
      previousStart: null,
      previousEnd: null,
      categories: [],
    };
    const data = dataOf(snapshotWithSeries(), [announcement]);
    expect(siteDataIn(data, french, root).announcements).toEqual([
      {
        ...announcement,
        id: `https://events.example.org/fr${paths.event(event.calendarId, event.id)}#cancelled-2026-03-19`,
        url: `https://events.example.org/fr${paths.event(event.calendarId, event.id)}`,
        title: "Soirée poésie",
      },
    ]);
    expect(siteDataIn(data, root, root).announcements).toEqual([announcement]);
  });
});

describe("textsIn", () => {
  it("should take a translation of the very tag, else of the language alone", () => {
    const translations = { fr: { title: "fr" }, "fr-CA": { title: "fr-CA" }, pt: { title: "pt" } };
    expect(textsIn(translations, "fr-CA")?.title).toBe("fr-CA");
    expect(textsIn(translations, "fr-BE")?.title).toBe("fr");
    expect(textsIn(translations, "pt-BR")?.title).toBe("pt");
    expect(textsIn({ "pt-BR": { title: "x" } }, "pt")).toBeNull();
    expect(textsIn(translations, "de")).toBeNull();
  });
});
