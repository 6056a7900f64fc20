import { describe, expect, it } from "vitest";
import type { CalendarEvent } from "../../src/model/types.ts";
import { paths } from "../../src/model/url-scheme.ts";
import { eventDays, type SearchRecord, searchRecords } from "../../src/search/search-records.ts";
import { formatListTime, formatLocalDay } from "../../src/site/format.ts";
import { fixtureSnapshot } from "../fixtures/snapshot.ts";
import { withNewDate } from "../helpers/events.ts";

const OPTIONS = {
  lang: "en-GB",
  timeZone: "Europe/Amsterdam",
  labels: { allDay: "All day", onlineEvent: "Online event", hybridEvent: "In person and online" },
};

const records = searchRecords(fixtureSnapshot.events, fixtureSnapshot.calendars, OPTIONS);

function recordOf(id: string): SearchRecord {
  const event = fixtureSnapshot.events.find((e) => e.id === id) as CalendarEvent;
  const record = records.find((r) => r.url === paths.event(event.calendarId, event.id));
  if (!record) throw new Error(`no record for ${id}`);
  return record;
}

describe("searchRecords", () => {
  it("should make one record per event, linking to its page, with a sort key in the lists' order", () => {
    const bySortKey = [...records].sort((a, b) =>
      (a.sort.start ?? "") < (b.sort.start ?? "") ? -1 : 1,
    );
    expect(bySortKey.map((r) => r.url)).toEqual(
      fixtureSnapshot.events.map((e) => paths.event(e.calendarId, e.id)),
    );
    expect(new Set(records.map((r) => r.language))).toEqual(new Set(["en"]));
  });

  it("should put the title last in what a query matches, so a new title moves no other word", () => {
    const event = fixtureSnapshot.events.find((e) => e.id === "e-dst") as CalendarEvent;
    expect(recordOf("e-dst").content.endsWith(`\n${event.title}`)).toBe(true);
  });

  it("should index title, summary, description, place, address, organizer, categories and calendar", () => {
    const content = recordOf("e-dst").content;
    for (const part of [
      "Night Walk Across the Clock Change",
      "starts in winter time",
      "Meet at the fountain",
      "Vondelpark fountain",
      "1071 AA Amsterdam",
      "Buurtwerk Zuid",
      "Outdoors",
      "Community",
    ]) {
      expect(content, part).toContain(part);
    }
  });

  it("should offer the filters the search page uses", () => {
    expect(recordOf("e-dst").filters).toEqual({
      calendar: ["community"],
      category: ["outdoors"],
      place: ["Vondelpark fountain"],
      attendance: ["in-person"],
      status: ["scheduled"],
      day: ["2026-03-29"],
    });
    expect(recordOf("Weird/ID?<x>").filters.attendance).toEqual(["in-person", "online"]);
    expect(recordOf("Weird/ID?<x>").filters.category).toEqual(["Talks & Debates"]);
    expect(recordOf("e-online").filters.attendance).toEqual(["online"]);
    expect(recordOf("e-online").filters.place).toEqual([]);
    expect(recordOf("e-cancelled").filters.status).toEqual(["cancelled"]);
  });

  it("should put an event on every day it occupies in the site's zone, ends exclusive", () => {
    // All day from 15 to 17 May (the end, 18 May 00:00, is exclusive).
    expect(recordOf("e-multiday").filters.day).toEqual(["2026-05-15", "2026-05-16", "2026-05-17"]);
    expect(recordOf("e-allday").filters.day).toEqual(["2026-04-27"]);
    // Noon in New York is 18:00 in Amsterdam, the same day.
    expect(recordOf("e-online").filters.day).toEqual(["2026-04-02"]);
  });

  it("should count days exactly at midnight, across midnight and from another zone", () => {
    const base = fixtureSnapshot.events[0] as CalendarEvent;
    const at = (start: string, end: string, timeZone = "Europe/Amsterdam") =>
      eventDays({ ...base, start, end, timeZone, allDay: false }, "Europe/Amsterdam");
    expect(at("2026-03-20T22:00:00+01:00", "2026-03-21T00:00:00+01:00")).toEqual(["2026-03-20"]);
    expect(at("2026-03-20T22:00:00+01:00", "2026-03-21T01:00:00+01:00")).toEqual([
      "2026-03-20",
      "2026-03-21",
    ]);
    expect(at("2026-03-20T00:00:00+01:00", "2026-03-20T00:00:00+01:00")).toEqual(["2026-03-20"]);
    // 20:00 in New York is 01:00 the next day in Amsterdam.
    expect(
      at("2026-03-20T20:00:00-04:00", "2026-03-20T21:00:00-04:00", "America/New_York"),
    ).toEqual(["2026-03-21"]);
  });

  it("should carry the row as the lists show it: day heading, time, place, calendar, status", () => {
    const dst = fixtureSnapshot.events.find((e) => e.id === "e-dst") as CalendarEvent;
    expect(recordOf("e-dst").meta).toMatchObject({
      title: "Night Walk Across the Clock Change",
      day: "2026-03-29",
      dayLabel: formatLocalDay("2026-03-29", "en-GB", "Europe/Amsterdam"),
      time: formatListTime(dst, "en-GB", "Europe/Amsterdam"),
      allDay: "false",
      calendar: "Community",
      calendarClass: "cal-community",
      place: "Vondelpark fountain",
      status: "scheduled",
      attendanceLabel: "",
    });
    expect(recordOf("e-allday").meta).toMatchObject({ time: "All day", allDay: "true" });
    // In its own zone, named when it is not the site's, as on the site's lists.
    expect(recordOf("e-online").meta.time).toMatch(/^12:00–13:00 \S+/);
    expect(recordOf("e-online").meta.attendanceLabel).toBe("Online event");
    expect(recordOf("e-postponed").meta.status).toBe("postponed");
    expect(recordOf("e-dst").meta.newDate).toBe("false");
  });

  it("should mark an event with a recent new date for the New date badge", () => {
    const moved = fixtureSnapshot.events.map((event) =>
      event.id === "e-dst" ? withNewDate(event, "2026-03-28T01:30:00+01:00") : event,
    );
    const [record] = searchRecords(moved, fixtureSnapshot.calendars, OPTIONS).filter(
      (r) => r.url === paths.event("community", "e-dst"),
    );
    expect(record?.meta.newDate).toBe("true");
  });

  it("should keep hostile text as plain text for the browser to place with textContent", () => {
    const weird = recordOf("Weird/ID?<x>");
    expect(weird.meta.title).toBe('<script>alert("x")</script> & "Quotes" \u2028');
    expect(weird.url).toBe(paths.event("culture", "Weird/ID?<x>"));
    expect(weird.url).toMatch(/^\/calendars\/culture\/events\/_[0-9a-f]+\/$/);
  });

  it("should leave out events of unknown calendars", () => {
    const orphan = { ...(fixtureSnapshot.events[0] as CalendarEvent), calendarId: "gone" };
    expect(searchRecords([orphan], fixtureSnapshot.calendars, OPTIONS)).toEqual([]);
  });

  it("should file an event under each organization that publishes it, and a site of one portal under none", () => {
    const [event] = fixtureSnapshot.events as CalendarEvent[];
    const shared: CalendarEvent = {
      ...(event as CalendarEvent),
      source: "arts",
      merged: [
        {
          source: "clubs",
          calendarId: (event as CalendarEvent).calendarId,
          id: "guest",
          organizer: { name: "Sports Clubs", url: null, email: null },
        },
      ],
    };
    const [record] = searchRecords([shared], fixtureSnapshot.calendars, OPTIONS);
    expect(record?.filters.organization).toEqual(["arts", "clubs"]);
    expect(records.some((r) => "organization" in r.filters)).toBe(false);
  });
});
