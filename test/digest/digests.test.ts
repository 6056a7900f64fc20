import { describe, expect, it } from "vitest";
import type { Announcement } from "../../src/changes/published-state.ts";
import type { DigestList } from "../../src/digest/digest-content.ts";
import { type DigestData, Digests } from "../../src/digest/digests.ts";
import type { CalendarEvent } from "../../src/model/types.ts";
import { calendarEvent, calendarOf } from "../helpers/events.ts";
import { TEST_SITE } from "../helpers/test-site.ts";

/*
 * NOW is Friday 20 March 2026: the latest digest is of the week from Monday
 * 16 March, out since Sunday 15 March at midnight in Amsterdam (14 March,
 * 23:00 UTC); "since last week" is the seven days before that.
 */

const CALENDARS = [calendarOf("culture", "Culture"), calendarOf("sport", "Sport")];
const MUSIC = { id: "music", name: "Music" };

const event = (fields: Partial<CalendarEvent> & Pick<CalendarEvent, "id" | "start" | "end">) =>
  calendarEvent({ calendarId: "culture", title: fields.id, ...fields });

const EVENTS: CalendarEvent[] = [
  // All day from Saturday 14 to Tuesday 17 March: listed once, under the week's first day.
  event({
    id: "exhibition",
    start: "2026-03-14T00:00:00+01:00",
    end: "2026-03-18T00:00:00+01:00",
    allDay: true,
  }),
  event({
    id: "concert",
    start: "2026-03-16T19:30:00+01:00",
    end: "2026-03-16T21:00:00+01:00",
    categories: [MUSIC],
    location: {
      name: "Town Hall",
      address: null,
      geo: null,
    },
  }),
  // Wednesday 19:00 in New York is Thursday 00:00 in Amsterdam: Thursday's, at its own time.
  event({
    id: "new-york",
    calendarId: "sport",
    start: "2026-03-18T19:00:00-04:00",
    end: "2026-03-18T21:00:00-04:00",
    timeZone: "America/New_York",
  }),
  event({
    id: "called-off",
    calendarId: "sport",
    start: "2026-03-21T10:00:00+01:00",
    end: "2026-03-21T12:00:00+01:00",
    status: "cancelled",
  }),
  // The next week: not in this digest.
  event({ id: "later", start: "2026-03-23T10:00:00+01:00", end: "2026-03-23T11:00:00+01:00" }),
];

/** Thirteen events on Tuesday 17 March. */
const BUSY_DAY = Array.from({ length: 13 }, (_, i) =>
  event({
    id: `busy-${String(i).padStart(2, "0")}`,
    calendarId: "sport",
    start: `2026-03-17T${String(8 + i).padStart(2, "0")}:00:00+01:00`,
    end: `2026-03-17T${String(8 + i).padStart(2, "0")}:30:00+01:00`,
  }),
);

/** Created on 10 March (within the seven days), on 15 March (after the digest came out), on 1 March. */
const CREATED = [
  event({
    id: "announced",
    start: "2026-04-18T20:00:00+02:00",
    end: "2026-04-18T22:00:00+02:00",
    createdAt: "2026-03-10T09:00:00Z",
    image: { url: "https://events.example.org/media/a.png", alt: "", width: 8, height: 8 },
  }),
  event({
    id: "announced-cancelled",
    start: "2026-04-19T20:00:00+02:00",
    end: "2026-04-19T22:00:00+02:00",
    createdAt: "2026-03-11T09:00:00Z",
    status: "cancelled",
  }),
  event({
    id: "too-late",
    start: "2026-04-20T20:00:00+02:00",
    end: "2026-04-20T22:00:00+02:00",
    createdAt: "2026-03-15T09:00:00Z",
  }),
  event({
    id: "too-early",
    start: "2026-04-21T20:00:00+02:00",
    end: "2026-04-21T22:00:00+02:00",
    createdAt: "2026-03-01T09:00:00Z",
  }),
];

function announcement(fields: Partial<Announcement> & Pick<Announcement, "eventId" | "at">) {
  const url = `https://events.example.org/calendars/culture/events/${fields.eventId}/`;
  return {
    id: `${url}#cancelled-${fields.at}`,
    kind: "cancelled",
    calendarId: "culture",
    title: `Show ${fields.eventId}`,
    url,
    start: "2026-03-27T20:00:00+01:00",
    end: "2026-03-27T22:00:00+01:00",
    allDay: false,
    timeZone: "Europe/Amsterdam",
    previousStart: null,
    previousEnd: null,
    categories: [],
    ...fields,
  } satisfies Announcement;
}

const ANNOUNCEMENTS: Announcement[] = [
  announcement({ eventId: "after", at: "2026-03-16T08:00:00Z" }),
  announcement({ eventId: "within", at: "2026-03-12T08:00:00Z" }),
  announcement({ eventId: "before", at: "2026-03-02T08:00:00Z" }),
];

const data = (events: CalendarEvent[], announcements: Announcement[] = []): DigestData => ({
  events,
  calendars: CALENDARS,
  categories: [MUSIC],
  announcements,
});

const headings = (sections: readonly DigestList[]) => sections.map((section) => section.heading);
const titles = (list: DigestList | undefined) => list?.lines.map((line) => line.title);

describe("digests", () => {
  it("should have a digest for the site, each calendar and each category", () => {
    const digests = new Digests(data(EVENTS), TEST_SITE);
    expect(digests.scopes).toEqual([
      { kind: "site" },
      { kind: "calendar", id: "culture", name: "Culture" },
      { kind: "calendar", id: "sport", name: "Sport" },
      { kind: "category", id: "music", name: "Music" },
    ]);
    expect(digests.of({ kind: "site" }).map((d) => d.week.first)).toEqual([
      "2026-03-16",
      "2026-03-09",
      "2026-03-02",
      "2026-02-23",
    ]);
  });

  it("should list the week's events under their days in the site's zone, each time in the event's own zone", () => {
    const digest = new Digests(data(EVENTS), TEST_SITE).latest({ kind: "site" });
    expect(digest.subject).toMatch(/^Events next week: 16\s*–\s*22 March$/);
    expect(digest.intro).toBe("4 events from Monday 16 March to Sunday 22 March.");
    expect(headings(digest.sections)).toEqual([
      "Monday 16 March",
      "Thursday 19 March",
      "Saturday 21 March",
    ]);
    const [monday, thursday, saturday] = digest.sections;
    expect(monday?.lines.map((line) => [line.title, line.when, line.place])).toEqual([
      ["exhibition", "All day", null],
      ["concert", "19:30–21:00", "Town Hall"],
    ]);
    expect(thursday?.lines[0]).toMatchObject({ title: "new-york", when: "19:00–21:00 GMT-4" });
    expect(saturday?.lines[0]).toMatchObject({ title: "called-off", status: "Cancelled" });
    expect(monday?.lines[1]?.url).toBe(
      "https://events.example.org/calendars/culture/events/concert/",
    );
  });

  it("should show ten events of a day and link to the rest on the site", () => {
    const digest = new Digests(data(BUSY_DAY), TEST_SITE).latest({ kind: "site" });
    const [tuesday] = digest.sections;
    expect(tuesday?.lines).toHaveLength(10);
    expect(tuesday?.more).toBe(3);
    expect(tuesday?.moreUrl).toBe(
      "https://events.example.org/search/?when=range&from=2026-03-17&to=2026-03-17",
    );
    const sport = new Digests(data(BUSY_DAY), TEST_SITE).latest({
      kind: "calendar",
      id: "sport",
      name: "Sport",
    });
    expect(sport.sections[0]?.moreUrl).toBe(
      "https://events.example.org/search/?calendar=sport&when=range&from=2026-03-17&to=2026-03-17",
    );
  });

  it("should tell what was created in the seven days before it came out, not cancelled and not over", () => {
    const digest = new Digests(data([...EVENTS, ...CREATED]), TEST_SITE).latest({ kind: "site" });
    const fresh = digest.sections.find((s) => s.heading === "New since last week");
    expect(titles(fresh)).toEqual(["announced"]);
    expect(fresh?.lines[0]?.when).toBe("Saturday, 18 April 2026, 20:00–22:00 CEST");
    // An image without a text alternative is described by the event's title.
    expect(fresh?.lines[0]?.image).toEqual({
      url: "https://events.example.org/media/a.png",
      alt: "announced",
    });
    // The week before: created from 28 February to 6 March.
    const before = new Digests(data([...EVENTS, ...CREATED]), TEST_SITE).of({ kind: "site" })[1];
    expect(titles(before?.sections.find((s) => s.heading === "New since last week"))).toEqual([
      "too-early",
    ]);
  });

  it("should tell the changes announced in those seven days, in the scopes of their events", () => {
    const digests = new Digests(data(EVENTS, ANNOUNCEMENTS), TEST_SITE);
    const changes = digests
      .latest({ kind: "site" })
      .sections.find((s) => s.heading === "Changes since last week");
    expect(changes?.lines.map((line) => [line.title, line.url])).toEqual([
      [
        "Cancelled: Show within (Friday 27 March 20:00)",
        "https://events.example.org/calendars/culture/events/within/#change",
      ],
    ]);
    const culture = digests.latest({ kind: "calendar", id: "culture", name: "Culture" });
    const sport = digests.latest({ kind: "calendar", id: "sport", name: "Sport" });
    expect(headings(culture.sections)).toContain("Changes since last week");
    expect(headings(sport.sections)).not.toContain("Changes since last week");
  });

  it("should hold a calendar's and a category's digests to their events, named in the subject", () => {
    const digests = new Digests(data(EVENTS), TEST_SITE);
    const sport = digests.latest({ kind: "calendar", id: "sport", name: "Sport" });
    expect(sport.subject).toMatch(/^Sport · Events next week: /);
    expect(sport.sections.flatMap((s) => titles(s))).toEqual(["new-york", "called-off"]);
    const music = digests.latest({ kind: "category", id: "music", name: "Music" });
    expect(music.sections.flatMap((s) => titles(s))).toEqual(["concert"]);
    expect(music.feedUrl).toBe("https://events.example.org/categories/music/digest/feed.xml");
  });

  it("should name as inputs what a scope's digests are made from, so an equal text means equal digests", () => {
    const culture = { kind: "calendar", id: "culture", name: "Culture" } as const;
    const sport = { kind: "calendar", id: "sport", name: "Sport" } as const;
    const all = [...EVENTS, ...CREATED];
    const before = new Digests(data(all, ANNOUNCEMENTS), TEST_SITE);
    // The same data, later the same week: the same inputs, and the same digests.
    const later = new Digests(data(all, ANNOUNCEMENTS), {
      ...TEST_SITE,
      now: TEST_SITE.now.plus({ hours: 30 }),
    });
    for (const scope of before.scopes) {
      expect(later.inputs(scope)).toBe(before.inputs(scope));
      expect(later.of(scope)).toEqual(before.of(scope));
    }
    // A sport event's new title: the site's and sport's inputs change, culture's and music's do not.
    const retitled = all.map((e) => (e.id === "called-off" ? { ...e, title: "Rained off" } : e));
    const after = new Digests(data(retitled, ANNOUNCEMENTS), TEST_SITE);
    const changed = before.scopes.filter((scope) => after.inputs(scope) !== before.inputs(scope));
    expect(changed).toEqual([{ kind: "site" }, sport]);
    expect(after.latest(sport)).not.toEqual(before.latest(sport));
    expect(after.of(culture)).toEqual(before.of(culture));
    // A new announcement within the week before: its calendar's inputs change.
    const announced = new Digests(
      data(all, [...ANNOUNCEMENTS, announcement({ eventId: "extra", at: "2026-03-13T08:00:00Z" })]),
      TEST_SITE,
    );
    expect(announced.inputs(culture)).not.toBe(before.inputs(culture));
    expect(announced.inputs(sport)).toBe(before.inputs(sport));
    // Another language: every scope's.
    const dutch = new Digests(data(all, ANNOUNCEMENTS), { ...TEST_SITE, lang: "nl" });
    for (const scope of before.scopes) expect(dutch.inputs(scope)).not.toBe(before.inputs(scope));
  });
});
