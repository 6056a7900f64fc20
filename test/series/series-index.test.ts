import { describe, expect, it } from "vitest";
import { byStart } from "../../src/model/order.ts";
import type { CalendarEvent, Place } from "../../src/model/types.ts";
import { PlaceIndex } from "../../src/places/place-index.ts";
import { SeriesIndex } from "../../src/series/series-index.ts";
import { buildViews } from "../../src/site/views.ts";
import { NOW, NOW_DATETIME } from "../helpers/clock.ts";
import { calendarEvent } from "../helpers/events.ts";

const hall: Place = { name: "Hall", address: null, geo: null };
const park: Place = { name: "Park", address: null, geo: null };

/** A Thursday evening `weeks` weeks after 19 March 2026 (NOW is Friday 20 March). */
function thursday(id: string, weeks: number, fields: Partial<CalendarEvent> = {}): CalendarEvent {
  const day = new Date(Date.UTC(2026, 2, 19 + 7 * weeks)).toISOString().slice(0, 10);
  const offset = day >= "2026-03-29" ? "+02:00" : "+01:00";
  return calendarEvent({
    id,
    calendarId: "culture",
    title: "Open Studio Night",
    start: `${day}T19:30:00${offset}`,
    end: `${day}T22:00:00${offset}`,
    location: hall,
    ...fields,
  });
}

function indexOf(events: readonly CalendarEvent[]) {
  const nowMs = Date.parse(NOW);
  const upcoming = events.filter((e) => Date.parse(e.end) >= nowMs);
  const past = events.filter((e) => Date.parse(e.end) < nowMs).reverse();
  const places = new PlaceIndex(upcoming, past);
  return new SeriesIndex(upcoming, past, places, ["community", "culture"]);
}

describe("series detection", () => {
  it("should group events of one calendar with the same title and place, and leave one-off events out", () => {
    const others = [
      // Same title elsewhere, or in another calendar: other series, here one-offs.
      thursday("e", 3, { location: park }),
      thursday("f", 4, { calendarId: "community" }),
      thursday("g", 5, { title: "Poetry Evening" }),
    ];
    const index = indexOf([
      thursday("a", 0),
      thursday("b", 1, { title: "open studio  NIGHT" }),
      thursday("c", 2),
      thursday("d", 3),
      ...others,
    ]);
    expect(index.all).toHaveLength(1);
    const series = index.all[0];
    expect(series?.upcoming.map((e) => e.id)).toEqual(["b", "c", "d"]);
    expect(series?.past.map((e) => e.id)).toEqual(["a"]);
    expect(series?.dates.map((e) => e.id)).toEqual(["b", "c", "d", "a"]);
    expect(series?.path).toMatch(
      /^\/calendars\/culture\/series\/open-studio-night-[0-9a-f]{10}\/$/,
    );
    expect(series?.rule).toEqual({ kind: "weekly", interval: 1, weekday: 4, time: "19:30" });
    expect(series?.place?.name).toBe("Hall");
    for (const event of others) expect(index.of(event)).toBeUndefined();
    const lone = indexOf([thursday("x", 1), thursday("y", 2, { title: "Other" })]);
    expect(lone.all).toEqual([]);
  });

  it("should take the portal's series id over the rule", () => {
    const index = indexOf([
      thursday("a", 1, { seriesId: "S-1", title: "Studio, part 1" }),
      thursday("b", 2, { seriesId: "S-1", title: "Studio, part 2", location: park }),
      // Same title and place but not in the portal's series: its own (here none).
      thursday("c", 3, { title: "Studio, part 1" }),
    ]);
    expect(index.all).toHaveLength(1);
    expect(index.all[0]?.key).toBe("_532d31");
    expect(index.all[0]?.upcoming.map((e) => e.id)).toEqual(["a", "b"]);
    expect(index.all[0]?.rule).toBeNull();
  });

  it("should name the next date that takes place, and a few more for an event page", () => {
    const events = [
      thursday("a", 1, { status: "cancelled" }),
      ...Array.from({ length: 9 }, (_, i) => thursday(`n${i}`, i + 2)),
    ];
    const index = indexOf(events);
    const series = index.all[0];
    expect(series?.next?.id).toBe("n0");
    const fromCancelled = index.otherDates(events[0] as CalendarEvent);
    expect(fromCancelled?.next?.id).toBe("n0");
    expect(fromCancelled?.upcoming.map((e) => e.id)).toEqual(["n1", "n2", "n3", "n4", "n5"]);
    const fromNext = index.otherDates(events[1] as CalendarEvent);
    expect(fromNext?.next).toBeNull();
    expect(fromNext?.upcoming.map((e) => e.id)).toEqual(["a", "n1", "n2", "n3", "n4"]);
    expect(index.moreAfter(events[0] as CalendarEvent)).toBe(9);
    expect(index.moreAfter(events[9] as CalendarEvent)).toBe(0);
  });
});

describe("COLLAPSE_SERIES", () => {
  const snapshot = {
    source: "test",
    fetchedAt: NOW,
    calendars: [
      {
        id: "culture",
        name: "Culture",
        description: "",
        timeZone: "Europe/Amsterdam",
        color: null,
        updatedAt: null,
      },
    ],
    events: [
      ...Array.from({ length: 4 }, (_, i) => thursday(`s${i}`, i + 1)),
      thursday("one-off", 2, { title: "Poetry Evening" }),
    ].sort(byStart),
    warnings: [],
  };
  const options = { now: NOW_DATETIME, pastDays: 365, timeZone: "Europe/Amsterdam" };
  const ids = (views: ReturnType<typeof buildViews>) =>
    views.allEventsPages.flatMap((page) => page.days.flatMap((day) => day.events.map((e) => e.id)));

  it("should list every date by default", () => {
    const views = buildViews(snapshot, options);
    expect(ids(views)).toEqual(["s0", "one-off", "s1", "s2", "s3"]);
  });

  it("should show each series once, at its next date, when set", () => {
    const views = buildViews(snapshot, { ...options, collapseSeries: true });
    expect(ids(views)).toEqual(["s0", "one-off"]);
    expect(views.homeDays.flatMap((day) => day.events.map((e) => e.id))).toEqual(["s0", "one-off"]);
    const calendarList = views.listPages.find((page) => page.kind === "upcoming");
    expect(calendarList?.days.flatMap((day) => day.events.map((e) => e.id))).toEqual([
      "s0",
      "one-off",
    ]);
    // The counts stay the events' counts; the series page keeps every date.
    expect(views.calendars[0]?.upcoming).toHaveLength(5);
    expect(views.series.moreAfter(snapshot.events[0] as CalendarEvent)).toBe(3);
    expect(views.seriesPages[0]?.series.upcoming).toHaveLength(4);
  });
});
