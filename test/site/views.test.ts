import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import type { CalendarEvent } from "../../src/model/types.ts";
import { buildViews, EVENTS_PER_LIST_PAGE } from "../../src/site/views.ts";
import { fixtureSnapshot } from "../fixtures/snapshot.ts";
import { NOW_DATETIME } from "../helpers/clock.ts";

const now = NOW_DATETIME;
const views = buildViews(fixtureSnapshot, { now, pastDays: 365, timeZone: "Europe/Amsterdam" });

describe("buildViews", () => {
  it("should split events into upcoming and past at the build clock", () => {
    expect(views.upcoming.map((e) => e.id)).not.toContain("e-past");
    const community = views.calendars.find((c) => c.calendar.id === "community");
    expect(community?.past.map((e) => e.id)).toEqual(["e-past"]);
    expect(views.upcoming).toHaveLength(fixtureSnapshot.events.length - 1);
  });

  it("should drop events that ended before the past window", () => {
    const narrow = buildViews(fixtureSnapshot, { now, pastDays: 7, timeZone: "Europe/Amsterdam" });
    expect(narrow.eventPages.map((p) => p.event.id)).not.toContain("e-past");
  });

  it("should create month pages only for months that have events, linked to each other", () => {
    const months = views.monthPages.filter((m) => m.calendar.id === "culture");
    expect(months.map((m) => `${m.year}-${m.month}`)).toEqual(["2026-4", "2026-5"]);
    expect(months[0]?.next?.path).toBe("/calendars/culture/2026/05/");
    expect(months[1]?.previous?.path).toBe("/calendars/culture/2026/04/");
    expect(months[0]?.previous).toBeNull();
  });

  it("should place a multi-day event on every day it spans, and not on its exclusive end", () => {
    const may = views.monthPages.find((m) => m.calendar.id === "culture" && m.month === 5);
    const days = may?.weeks.flat().filter((d) => d.events.some((e) => e.id === "e-multiday"));
    expect(days?.map((d) => d.date)).toEqual(["2026-05-15", "2026-05-16", "2026-05-17"]);
  });

  it("should lay month grids out in whole ISO weeks", () => {
    for (const month of views.monthPages) {
      for (const week of month.weeks) expect(week).toHaveLength(7);
      expect(DateTime.fromISO(month.weeks[0]?.[0]?.date ?? "").weekday).toBe(1);
    }
  });

  it("should start the month grids' weeks on the locale's first day: Sunday, Saturday", () => {
    for (const [firstDay, last] of [
      [7, 6],
      [6, 5],
    ]) {
      const weeks = buildViews(fixtureSnapshot, {
        now,
        pastDays: 365,
        timeZone: "Europe/Amsterdam",
        firstDay,
      });
      for (const month of weeks.monthPages) {
        const days = month.weeks.flat();
        expect(days.length % 7).toBe(0);
        for (const week of month.weeks) {
          expect(week).toHaveLength(7);
          expect(DateTime.fromISO(week[0]?.date ?? "").weekday).toBe(firstDay);
          expect(DateTime.fromISO(week[6]?.date ?? "").weekday).toBe(last);
        }
        // Every day of the month is in the grid once, in order.
        const inMonth = days.filter((day) => Number(day.date.slice(5, 7)) === month.month);
        expect(inMonth.map((day) => Number(day.date.slice(8)))).toEqual(
          Array.from({ length: inMonth.length }, (_, i) => i + 1),
        );
      }
    }
    // April 2026 begins on a Wednesday: a Sunday week starts on 29 March, a Saturday one on 28 March.
    const april = (firstDay: number) =>
      buildViews(fixtureSnapshot, {
        now,
        pastDays: 365,
        timeZone: "Europe/Amsterdam",
        firstDay,
      }).monthPages.find((m) => m.calendar.id === "culture" && m.month === 4)?.weeks[0]?.[0]?.date;
    expect(april(7)).toBe("2026-03-29");
    expect(april(6)).toBe("2026-03-28");
    expect(april(1)).toBe("2026-03-30");
  });

  it("should group a calendar's list by local day and paginate it", () => {
    const many: CalendarEvent[] = Array.from({ length: EVENTS_PER_LIST_PAGE + 5 }, (_, i) => ({
      ...(fixtureSnapshot.events[1] as CalendarEvent),
      id: `many-${i}`,
      start: DateTime.fromISO("2026-06-01T10:00:00+02:00").plus({ days: i }).toISO() ?? "",
      end: DateTime.fromISO("2026-06-01T11:00:00+02:00").plus({ days: i }).toISO() ?? "",
    }));
    const paged = buildViews(
      { ...fixtureSnapshot, events: many },
      { now, pastDays: 30, timeZone: "UTC" },
    );
    const pages = paged.listPages.filter(
      (p) => p.calendar.id === "community" && p.kind === "upcoming",
    );
    expect(pages.map((p) => p.path)).toEqual([
      "/calendars/community/",
      "/calendars/community/page/2/",
    ]);
    expect(pages[0]?.nextPath).toBe("/calendars/community/page/2/");
    expect(pages[1]?.days.flatMap((d) => d.events)).toHaveLength(5);
  });

  it("should list categories with their events and id-based paths", () => {
    const markets = views.categories.find((c) => c.category.id === "markets");
    expect(markets?.path).toBe("/categories/markets/");
    expect(markets?.upcoming.map((e) => e.id)).toEqual(["e-allday"]);
    expect(markets?.past.map((e) => e.id)).toEqual(["e-past"]);
    const hostile = views.categories.find((c) => c.category.id === "Talks & Debates");
    expect(hostile?.path).toMatch(/^\/categories\/_[0-9a-f]+\/$/);
  });

  it("should page a category's upcoming events like a calendar's list", () => {
    const many: CalendarEvent[] = Array.from({ length: 2 * EVENTS_PER_LIST_PAGE + 3 }, (_, i) => ({
      ...(fixtureSnapshot.events[1] as CalendarEvent),
      id: `market-${i}`,
      categories: [{ id: "markets", name: "Markets" }],
      start: DateTime.fromISO("2026-06-01T10:00:00+02:00").plus({ days: i }).toISO() ?? "",
      end: DateTime.fromISO("2026-06-01T11:00:00+02:00").plus({ days: i }).toISO() ?? "",
    }));
    const paged = buildViews(
      { ...fixtureSnapshot, events: many },
      { now, pastDays: 30, timeZone: "UTC" },
    );
    const pages = paged.categoryPages.filter((p) => p.summary.category.id === "markets");
    const upcoming = paged.categories.find((c) => c.category.id === "markets")?.upcoming ?? [];
    expect(upcoming.length).toBeGreaterThan(EVENTS_PER_LIST_PAGE);
    expect(pages.map((p) => p.path)).toEqual(
      Array.from({ length: Math.ceil(upcoming.length / EVENTS_PER_LIST_PAGE) }, (_, i) =>
        i === 0 ? "/categories/markets/" : `/categories/markets/page/${i + 1}/`,
      ),
    );
    expect(pages[0]?.nextPath).toBe("/categories/markets/page/2/");
    expect(pages.at(-1)?.nextPath).toBeNull();
    // Every upcoming event once, in order, across the pages.
    expect(pages.flatMap((p) => p.days.flatMap((d) => d.events)).map((e) => e.id)).toEqual(
      upcoming.map((e) => e.id),
    );
  });
});
