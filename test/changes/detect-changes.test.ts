import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import { type ChangeOptions, detectChanges } from "../../src/changes/detect-changes.ts";
import type { PublishedState } from "../../src/changes/published-state.ts";
import type { Calendar, CalendarEvent } from "../../src/model/types.ts";
import { NOW } from "../helpers/clock.ts";
import { calendarEvent, calendarOf } from "../helpers/events.ts";

const SITE = "https://events.example.org";
/** The first build of each sequence, at the pinned clock; the later ones are days after it. */
const T0 = NOW;

const options = (now: string, overrides: Partial<ChangeOptions> = {}): ChangeOptions => ({
  siteUrl: SITE,
  now: DateTime.fromISO(now, { zone: "utc" }),
  changeNoticeDays: 14,
  cancelledGraceDays: 30,
  feedPastDays: 30,
  pastDays: 365,
  ...overrides,
});

const CALENDARS = [calendarOf("culture", "Culture"), calendarOf("city", "City Events")];

function event(id: string, overrides: Partial<CalendarEvent> = {}): CalendarEvent {
  return calendarEvent({
    id,
    calendarId: "culture",
    title: `Event ${id}`,
    start: "2026-04-10T19:30:00+02:00",
    end: "2026-04-10T22:00:00+02:00",
    categories: [{ id: "arts", name: "Arts" }],
    sequence: 2,
    ...overrides,
  });
}

/** Builds in order, each compared with the state the one before left. */
function builds(
  ...steps: { now: string; events: CalendarEvent[]; calendars?: Calendar[] }[]
): ReturnType<typeof detectChanges>[] {
  let previous: PublishedState | null = null;
  return steps.map((step) => {
    const result = detectChanges(
      previous,
      { calendars: step.calendars ?? CALENDARS, events: step.events },
      options(step.now),
    );
    previous = result.next;
    return result;
  });
}

describe("detectChanges", () => {
  it("should know no changes without a previous state, and publish the portal's events as they are", () => {
    const dated = { updatedAt: "2026-03-01T09:00:00Z" };
    const events = [event("a", dated), event("b", dated)];
    const result = detectChanges(null, { calendars: CALENDARS, events }, options(T0));
    expect(result.report).toBeNull();
    expect(result.removed).toEqual([]);
    expect(result.announcements).toEqual([]);
    expect(result.events[0]).toBe(events[0]);
    expect(result.next.events.map((r) => [r.uid, r.sequence, r.url])).toEqual([
      [`culture.a@events.example.org`, 2, `${SITE}/calendars/culture/events/a/`],
      [`culture.b@events.example.org`, 2, `${SITE}/calendars/culture/events/b/`],
    ]);
  });

  it("should date an event the portal gives no times by when its content was first published, until it changes", () => {
    const later = "2026-03-21T08:00:00Z";
    const [first, same, edited] = builds(
      { now: T0, events: [event("a")] },
      { now: later, events: [event("a")] },
      { now: "2026-03-22T08:00:00Z", events: [event("a", { summary: "Now with a summary" })] },
    );
    // DTSTAMP, feed dates and "Data updated" read updatedAt: they stay put while nothing changes.
    expect(first?.events[0]?.updatedAt).toBe(T0);
    expect(same?.events[0]?.updatedAt).toBe(T0);
    expect(edited?.events[0]?.updatedAt).toBe("2026-03-22T08:00:00Z");
    // An event the portal dates keeps the portal's time, and its record no digest.
    const dated = builds({ now: T0, events: [event("b", { createdAt: "2026-03-01T09:00:00Z" })] });
    expect(dated[0]?.events[0]?.updatedAt).toBeNull();
    expect(dated[0]?.next.events[0]?.seen).toBeUndefined();
  });

  it("should keep a deleted event as a cancellation with a higher SEQUENCE until it would have ended or the grace period, whichever is later", () => {
    const soon = event("soon", {
      start: "2026-03-22T19:00:00+01:00",
      end: "2026-03-22T21:00:00+01:00",
    });
    const far = event("far", {
      start: "2026-09-01T19:00:00+02:00",
      end: "2026-09-01T21:00:00+02:00",
    });
    const [, deleted, later, expired] = builds(
      { now: T0, events: [soon, far] },
      { now: "2026-03-21T12:00:00Z", events: [] },
      { now: "2026-04-19T12:00:00Z", events: [] },
      { now: "2026-04-21T12:00:00Z", events: [] },
    );
    expect(deleted?.removed.map((e) => [e.id, e.status, e.sequence, e.history?.removed])).toEqual([
      ["soon", "cancelled", 3, { kind: "deleted" }],
      ["far", "cancelled", 3, { kind: "deleted" }],
    ]);
    expect(deleted?.next.removed.map((r) => [r.id, r.until])).toEqual([
      ["soon", "2026-04-20T12:00:00Z"],
      ["far", "2026-09-01T19:00:00Z"],
    ]);
    expect(deleted?.announcements.map((a) => [a.kind, a.eventId, a.at])).toEqual([
      ["cancelled", "far", "2026-03-21T12:00:00Z"],
      ["cancelled", "soon", "2026-03-21T12:00:00Z"],
    ]);
    expect(deleted?.report?.deleted.map((item) => item.title)).toEqual(["Event soon", "Event far"]);
    // The same cancellation in later builds, until it expires; no second announcement.
    expect(later?.removed).toEqual(deleted?.removed);
    expect(later?.report?.deleted).toEqual([]);
    expect(expired?.removed.map((e) => e.id)).toEqual(["far"]);
  });

  it("should not cancel a deleted event that had already left the subscriptions, but report it", () => {
    const old = event("old", {
      start: "2026-01-10T19:00:00+01:00",
      end: "2026-01-10T21:00:00+01:00",
    });
    const [, deleted] = builds(
      { now: T0, events: [old] },
      { now: "2026-03-21T12:00:00Z", events: [] },
    );
    expect(deleted?.removed).toEqual([]);
    expect(deleted?.announcements).toEqual([]);
    expect(deleted?.report?.deleted).toEqual([{ title: "Event old", detail: null }]);
  });

  it("should never lower SEQUENCE, and raise it for a change the portal's revision missed", () => {
    const [, renamed, same] = builds(
      { now: T0, events: [event("a", { sequence: 7 })] },
      { now: "2026-03-21T12:00:00Z", events: [event("a", { sequence: 3, title: "Renamed" })] },
      { now: "2026-03-22T12:00:00Z", events: [event("a", { sequence: 3, title: "Renamed" })] },
    );
    expect(renamed?.events[0]?.sequence).toBe(8);
    expect(same?.events[0]?.sequence).toBe(8);
    expect(renamed?.report?.changed).toEqual([{ title: "Renamed", detail: null }]);
    expect(same?.report?.changed).toEqual([]);
  });

  it("should announce a new date, keep the old start for JSON-LD, and show the badge for the notice period only", () => {
    const moved = event("a", {
      start: "2026-04-11T19:30:00+02:00",
      end: "2026-04-11T22:00:00+02:00",
      sequence: 3,
    });
    const [, change, week, month] = builds(
      { now: T0, events: [event("a")] },
      { now: "2026-03-21T12:00:00Z", events: [moved] },
      { now: "2026-03-28T12:00:00Z", events: [moved] },
      { now: "2026-04-05T12:00:00Z", events: [moved] },
    );
    expect(change?.announcements).toMatchObject([
      {
        id: `${SITE}/calendars/culture/events/a/#moved-20260321T120000Z`,
        kind: "moved",
        at: "2026-03-21T12:00:00Z",
        start: "2026-04-11T19:30:00+02:00",
        previousStart: "2026-04-10T19:30:00+02:00",
      },
    ]);
    expect(change?.events[0]?.history).toEqual({
      uid: null,
      previousStarts: ["2026-04-10T19:30:00+02:00"],
      rescheduledAt: "2026-03-21T12:00:00Z",
      newDate: true,
      removed: null,
    });
    expect(week?.announcements.map((a) => a.id)).toEqual(change?.announcements.map((a) => a.id));
    expect(week?.events[0]?.history?.newDate).toBe(true);
    expect(month?.announcements).toEqual([]);
    expect(month?.events[0]?.history).toMatchObject({
      newDate: false,
      previousStarts: ["2026-04-10T19:30:00+02:00"],
    });
    expect(change?.report?.moved[0]?.detail).toBe(
      "new date Sat 11 Apr 2026 19:30, was Fri 10 Apr 2026 19:30",
    );
  });

  it("should announce cancellations, postponements and reinstatements, but not corrections to events that are over", () => {
    const past = { start: "2026-03-01T19:00:00+01:00", end: "2026-03-01T21:00:00+01:00" };
    const [, second, third] = builds(
      { now: T0, events: [event("c"), event("p"), event("gone", past)] },
      {
        now: "2026-03-21T12:00:00Z",
        events: [
          event("c", { status: "cancelled", sequence: 3 }),
          event("p", { status: "postponed", sequence: 3 }),
          event("gone", { ...past, status: "cancelled", sequence: 3 }),
        ],
      },
      {
        now: "2026-03-22T12:00:00Z",
        events: [
          event("c", { status: "scheduled", sequence: 4 }),
          event("p", {
            start: "2026-05-01T19:30:00+02:00",
            end: "2026-05-01T22:00:00+02:00",
            sequence: 4,
          }),
          event("gone", { ...past, status: "cancelled", sequence: 3 }),
        ],
      },
    );
    expect(second?.announcements.map((a) => [a.kind, a.eventId])).toEqual([
      ["cancelled", "c"],
      ["postponed", "p"],
    ]);
    expect(second?.report?.cancelled.map((i) => i.title)).toEqual(["Event c", "Event gone"]);
    const fresh = third?.announcements.filter((a) => a.at === "2026-03-22T12:00:00Z");
    expect(fresh?.map((a) => [a.kind, a.eventId])).toEqual([
      ["reinstated", "c"],
      ["moved", "p"],
    ]);
  });

  it("should treat a move to another calendar as a move: the UID stays, the calendar it left gets a cancellation", () => {
    const [, moved, back] = builds(
      { now: T0, events: [event("a")] },
      { now: "2026-03-21T12:00:00Z", events: [event("a", { calendarId: "city", sequence: 3 })] },
      { now: "2026-03-22T12:00:00Z", events: [event("a", { sequence: 4 })] },
    );
    expect(moved?.events[0]?.history).toMatchObject({ uid: "culture.a@events.example.org" });
    expect(moved?.removed).toMatchObject([
      {
        calendarId: "culture",
        id: "a",
        status: "cancelled",
        sequence: 3,
        history: { removed: { kind: "moved", calendarId: "city", calendarName: "City Events" } },
      },
    ]);
    expect(moved?.announcements).toEqual([]);
    expect(moved?.report?.moved).toEqual([
      { title: "Event a", detail: 'to calendar "City Events"' },
    ]);
    expect(moved?.report?.deleted).toEqual([]);
    expect(moved?.report?.added).toEqual([]);
    // Back again: its own UID; the cancellation in its first calendar is gone, the other one has one now.
    expect(back?.events[0]?.history).toBeUndefined();
    expect(back?.removed.map((e) => [e.calendarId, e.history?.removed])).toEqual([
      ["city", { kind: "moved", calendarId: "culture", calendarName: "Culture" }],
    ]);
  });

  it("should bring a deleted event back as reinstated, above the cancellation's SEQUENCE", () => {
    const [, deleted, restored] = builds(
      { now: T0, events: [event("a")] },
      { now: "2026-03-21T12:00:00Z", events: [] },
      { now: "2026-03-22T12:00:00Z", events: [event("a")] },
    );
    expect(deleted?.removed.map((e) => e.sequence)).toEqual([3]);
    expect(restored?.removed).toEqual([]);
    expect(restored?.events[0]?.sequence).toBe(4);
    expect(restored?.report?.reinstated).toEqual([{ title: "Event a", detail: null }]);
    expect(restored?.announcements.at(0)).toMatchObject({ kind: "reinstated", eventId: "a" });
  });

  it("should not cancel the events of a calendar that is gone altogether", () => {
    const [, gone] = builds(
      { now: T0, events: [event("a"), event("b", { calendarId: "city" })] },
      {
        now: "2026-03-21T12:00:00Z",
        events: [event("b", { calendarId: "city" })],
        calendars: [calendarOf("city")],
      },
    );
    expect(gone?.removed).toEqual([]);
    expect(gone?.announcements).toEqual([]);
    expect(gone?.report?.deleted).toEqual([{ title: "Event a", detail: "with its calendar" }]);
  });
});
