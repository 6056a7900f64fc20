import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import type { Calendar, CalendarEvent, PortalSnapshot } from "../../../src/model/types.ts";
import { whenDocument } from "../../../src/outputs/when-json.ts";
import { DateChanges } from "../../../src/rebuild/next-change.ts";
import { buildViews } from "../../../src/site/views.ts";
import { eventDays } from "../../../src/site/when/event-days.ts";
import type { WhenKey } from "../../../src/site/when/ranges.ts";
import { buildWhenViews, type WhenPage } from "../../../src/site/when/when-views.ts";
import { NOW } from "../../helpers/clock.ts";
import { calendarEvent } from "../../helpers/events.ts";

/*
 * NOW is Friday 20 March 2026, 13:00 in Amsterdam (CET, +01:00); the clocks
 * go forward in the night of Saturday 28 to Sunday 29 March.
 */

const AMSTERDAM = "Europe/Amsterdam";

function calendar(id: string, timeZone = AMSTERDAM): Calendar {
  return { id, name: id, description: "", timeZone, color: null, updatedAt: null };
}

function snapshot(events: CalendarEvent[], calendars = [calendar("city")]): PortalSnapshot {
  return {
    source: "http://127.0.0.1/",
    fetchedAt: NOW,
    calendars,
    events: [...events].sort((a, b) => Date.parse(a.start) - Date.parse(b.start)),
    warnings: [],
  };
}

function whenViews(data: PortalSnapshot, now = NOW, lang = "en-GB", timeZone = AMSTERDAM) {
  const at = DateTime.fromISO(now, { zone: "utc" });
  const views = buildViews(data, { now: at, pastDays: 30, timeZone });
  return buildWhenViews(views, { now: at, timeZone, lang });
}

function event(id: string, start: string, end: string, fields: Partial<CalendarEvent> = {}) {
  return calendarEvent({ id, calendarId: "city", title: id, start, end, ...fields });
}

function page(pages: readonly WhenPage[], key: WhenKey, calendarId: string | null = null) {
  const found = pages.find((p) => p.key === key && (p.calendar?.id ?? null) === calendarId);
  if (!found) throw new Error(`no ${key} page for ${calendarId}`);
  return found;
}

/** The ids each view lists, by the day they are listed under. */
function shown(when: WhenPage, view: number): Record<string, string[]> {
  const key = String(view);
  const out: Record<string, string[]> = {};
  for (const day of when.days) {
    if (!day.in.split(" ").includes(key)) continue;
    const rows = day.rows.filter((row) => (row.in ?? day.in).split(" ").includes(key));
    out[day.date] = rows.map((row) => row.event.id);
  }
  return out;
}

describe("when an event is on a day", () => {
  it("should end an event at its exclusive end: one ending at midnight is not on the next day", () => {
    const late = event("late", "2026-03-20T20:00:00+01:00", "2026-03-21T00:00:00+01:00");
    expect(eventDays(late, AMSTERDAM)).toEqual({ first: "2026-03-20", last: "2026-03-20" });
    // In another zone, the same instants.
    expect(eventDays(late, "UTC")).toEqual({ first: "2026-03-20", last: "2026-03-20" });
    expect(eventDays(late, "America/New_York")).toEqual({
      first: "2026-03-20",
      last: "2026-03-20",
    });
    const past = event("past", "2026-03-20T20:00:00+01:00", "2026-03-21T00:00:01+01:00");
    expect(eventDays(past, AMSTERDAM).last).toBe("2026-03-21");
  });

  it("should put an event without an end on the day it starts", () => {
    const point = event("point", "2026-03-21T00:00:00+01:00", "2026-03-21T00:00:00+01:00");
    expect(eventDays(point, AMSTERDAM)).toEqual({ first: "2026-03-21", last: "2026-03-21" });
  });

  it("should keep an all-day event on its own dates in any zone", () => {
    const fair = event("fair", "2026-03-21T00:00:00-04:00", "2026-03-23T00:00:00-04:00", {
      allDay: true,
      timeZone: "America/New_York",
    });
    expect(eventDays(fair, AMSTERDAM)).toEqual({ first: "2026-03-21", last: "2026-03-22" });
    expect(eventDays(fair, "Asia/Tokyo")).toEqual({ first: "2026-03-21", last: "2026-03-22" });
  });

  it("should place a timed event of another zone on the days of the page's zone", () => {
    // 19:00 in New York is 00:00 the next day in Amsterdam.
    const talk = event("talk", "2026-03-20T19:00:00-04:00", "2026-03-20T20:00:00-04:00", {
      timeZone: "America/New_York",
    });
    expect(eventDays(talk, "America/New_York").first).toBe("2026-03-20");
    expect(eventDays(talk, AMSTERDAM)).toEqual({ first: "2026-03-21", last: "2026-03-21" });
  });
});

describe("the when pages", () => {
  const data = snapshot([
    event("exhibition", "2026-03-18T10:00:00+01:00", "2026-03-22T17:00:00+01:00"),
    event("morning", "2026-03-20T09:00:00+01:00", "2026-03-20T10:00:00+01:00"),
    event("late", "2026-03-20T20:00:00+01:00", "2026-03-21T00:00:00+01:00"),
    event("midnight", "2026-03-21T00:00:00+01:00", "2026-03-21T02:00:00+01:00"),
    event("market", "2026-03-21T00:00:00+01:00", "2026-03-22T00:00:00+01:00", { allDay: true }),
    event("sunday", "2026-03-22T11:00:00+01:00", "2026-03-22T12:00:00+01:00"),
    event("monday", "2026-03-23T19:00:00+01:00", "2026-03-23T21:00:00+01:00"),
    event("dst-sunday", "2026-03-29T23:30:00+02:00", "2026-03-29T23:45:00+02:00"),
    event("dst-monday", "2026-03-30T00:30:00+02:00", "2026-03-30T01:00:00+02:00"),
    event("april", "2026-04-02T19:00:00+02:00", "2026-04-02T21:00:00+02:00"),
  ]);
  const { pages } = whenViews(data);

  it("should list today's events, also the ones over by now, and a long event under today", () => {
    const today = page(pages, "today");
    expect(shown(today, 0)).toEqual({ "2026-03-20": ["exhibition", "morning", "late"] });
    expect(today.variants[0]?.today).toBe("2026-03-20");
    expect(today.path).toBe("/when/today/");
    expect(today.jsonPath).toBe("/api/when/today.json");
  });

  it("should hold tomorrow's list as the second view, shown once the visitor's clock is there", () => {
    const today = page(pages, "today");
    expect(shown(today, 1)).toEqual({ "2026-03-21": ["exhibition", "midnight", "market"] });
    expect(today.bounds).toEqual([
      "2026-03-20T00:00:00+01:00",
      "2026-03-21T00:00:00+01:00",
      "2026-03-22T00:00:00+01:00",
    ]);
    // The build's view is the visible one: the second view's day is hidden.
    expect(today.days.map((day) => [day.date, day.hidden])).toEqual([
      ["2026-03-20", false],
      ["2026-03-21", true],
    ]);
  });

  it("should list an event that continues from an earlier day under the range's first day", () => {
    const week = page(pages, "week");
    // Monday-first weeks (en-GB): Friday to Sunday.
    expect(shown(week, 0)).toEqual({
      "2026-03-20": ["exhibition", "morning", "late"],
      "2026-03-21": ["midnight", "market"],
      "2026-03-22": ["sunday"],
    });
    expect(shown(week, 1)).toEqual({
      "2026-03-21": ["exhibition", "midnight", "market"],
      "2026-03-22": ["sunday"],
    });
    // On Saturday the exhibition moves to Saturday: a row of the second view only.
    const saturday = week.days.find((day) => day.date === "2026-03-21");
    expect(saturday?.in).toBe("0 1");
    expect(saturday?.rows.map((row) => [row.event.id, row.in, row.hidden])).toEqual([
      ["exhibition", "1", true],
      ["midnight", null, false],
      ["market", null, false],
    ]);
  });

  it("should cover this weekend, next week across the clock change, and the rest of the month", () => {
    expect(shown(page(pages, "weekend"), 0)).toEqual({
      "2026-03-21": ["exhibition", "midnight", "market"],
      "2026-03-22": ["sunday"],
    });
    // Sunday 29 March has 23 hours: 23:30 is still Sunday, 00:30 is Monday (next week's end is Sunday).
    expect(shown(page(pages, "next-week"), 0)).toEqual({
      "2026-03-23": ["monday"],
      "2026-03-29": ["dst-sunday"],
    });
    expect(Object.keys(shown(page(pages, "month"), 0))).toEqual([
      "2026-03-20",
      "2026-03-21",
      "2026-03-22",
      "2026-03-23",
      "2026-03-29",
      "2026-03-30",
    ]);
  });

  it("should start and end its days at the zone's midnights on a clock change", () => {
    const { pages: dstPages } = whenViews(data, "2026-03-28T12:00:00Z");
    const today = page(dstPages, "today");
    expect(today.bounds).toEqual([
      "2026-03-28T00:00:00+01:00",
      "2026-03-29T00:00:00+01:00",
      "2026-03-30T00:00:00+02:00",
    ]);
    expect(shown(today, 1)).toEqual({ "2026-03-29": ["dst-sunday"] });
    expect(shown(page(dstPages, "tomorrow"), 0)).toEqual({ "2026-03-29": ["dst-sunday"] });
    expect(shown(page(dstPages, "tomorrow"), 1)).toEqual({ "2026-03-30": ["dst-monday"] });
  });

  it("should say what comes next when a range is empty: the first scheduled event after it", () => {
    const quiet = snapshot([
      event("called-off", "2026-03-24T19:00:00+01:00", "2026-03-24T20:00:00+01:00", {
        status: "cancelled",
      }),
      event("someday", "2026-03-25T19:00:00+01:00", "2026-03-25T20:00:00+01:00", {
        status: "postponed",
      }),
      event("choir", "2026-03-26T19:00:00+01:00", "2026-03-26T20:00:00+01:00"),
      event("later", "2026-03-27T19:00:00+01:00", "2026-03-27T20:00:00+01:00"),
    ]);
    const { pages: quietPages } = whenViews(quiet);
    const today = page(quietPages, "today");
    expect(today.days).toEqual([]);
    expect(today.empty.map((item) => [item.value?.id, item.in, item.hidden])).toEqual([
      ["choir", "0 1", false],
    ]);
    expect(page(quietPages, "week").variants[0]?.next?.id).toBe("choir");
    // Next week holds the choir: nothing to say instead.
    expect(page(quietPages, "next-week").empty).toEqual([]);
    // After the last event, nothing is next.
    expect(page(quietPages, "month").empty).toEqual([]);
    const { pages: afterAll } = whenViews(quiet, "2026-03-28T12:00:00Z");
    expect(page(afterAll, "today").empty.map((item) => item.value)).toEqual([null]);
  });

  it("should give each calendar its own pages, in its own zone", () => {
    const split = snapshot(
      [
        event("dutch", "2026-03-20T19:00:00+01:00", "2026-03-20T20:00:00+01:00"),
        event("nyc", "2026-03-19T22:00:00-04:00", "2026-03-19T23:00:00-04:00", {
          calendarId: "new-york",
          timeZone: "America/New_York",
        }),
      ],
      [calendar("city"), calendar("new-york", "America/New_York")],
    );
    // 01:00 on Friday in Amsterdam is 21:00 on Thursday in New York.
    const { pages: all, scopes } = whenViews(split, "2026-03-20T00:00:00Z");
    expect(scopes.map((scope) => scope.calendarId)).toEqual([null, "city", "new-york"]);
    const nyToday = page(all, "today", "new-york");
    expect(nyToday.path).toBe("/calendars/new-york/when/today/");
    expect(nyToday.jsonPath).toBe("/api/calendars/new-york/when/today.json");
    expect(nyToday.variants[0]?.today).toBe("2026-03-19");
    expect(shown(nyToday, 0)).toEqual({ "2026-03-19": ["nyc"] });
    expect(nyToday.bounds[1]).toBe("2026-03-20T00:00:00-04:00");
    // Site-wide, in Amsterdam, that talk is on Friday (03:00), with the Dutch event.
    expect(shown(page(all, "today"), 0)).toEqual({ "2026-03-20": ["nyc", "dutch"] });
    expect(shown(page(all, "today", "city"), 0)).toEqual({ "2026-03-20": ["dutch"] });
  });

  it("should follow the locale's weekend: Friday and Saturday in he-IL", () => {
    const { pages: il } = whenViews(data, "2026-03-19T12:00:00Z", "he-IL");
    expect(page(il, "weekend").variants.map((v) => v.range)).toEqual([
      { first: "2026-03-20", last: "2026-03-21" },
      { first: "2026-03-20", last: "2026-03-21" },
    ]);
    expect(Object.keys(shown(page(il, "weekend"), 0))).toEqual(["2026-03-20", "2026-03-21"]);
  });

  it("should give the same pages and JSON at any hour of the same day", () => {
    const documents = (now: string) =>
      whenViews(data, now).pages.map((p) => JSON.stringify(whenDocument(p, "https://x.example")));
    const noon = documents(NOW);
    expect(documents("2026-03-19T23:00:00Z")).toEqual(noon); // 00:00 in Amsterdam
    expect(documents("2026-03-20T22:59:59Z")).toEqual(noon); // 23:59:59 in Amsterdam
    expect(documents("2026-03-20T23:00:00Z")).not.toEqual(noon);
  });

  it("should turn over only at moments the rebuild check knows: midnights of its zones", () => {
    const split = snapshot(
      [event("dutch", "2026-03-20T19:00:00+01:00", "2026-03-20T20:00:00+01:00")],
      [calendar("city"), calendar("new-york", "America/New_York")],
    );
    const { pages: all } = whenViews(split);
    const changes = new DateChanges(split, {
      timeZone: AMSTERDAM,
      pastDays: 30,
      feedPastDays: 30,
      cancelledGraceDays: 30,
    });
    const bounds = new Set(all.flatMap((p) => p.bounds.map((b) => Date.parse(b))));
    expect(bounds.size).toBe(6); // three midnights in each of two zones
    for (const bound of bounds) {
      if (bound <= Date.parse(NOW)) continue;
      const before = DateTime.fromMillis(bound - 1, { zone: "utc" });
      expect(changes.next(before, 0)?.at).toBe(bound);
    }
  });
});
