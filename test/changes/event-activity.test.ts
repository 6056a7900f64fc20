import { describe, expect, it } from "vitest";
import { eventActivities } from "../../src/changes/event-activity.ts";
import type { PublishedEventRecord, PublishedState } from "../../src/changes/published-state.ts";
import { NOW, NOW_MS } from "../helpers/clock.ts";

const record = (
  id: string,
  sequence: number,
  start = "2026-04-01T19:00:00+02:00",
): PublishedEventRecord => ({
  calendarId: "culture",
  id,
  title: id,
  start,
  end: start,
  allDay: false,
  timeZone: "Europe/Amsterdam",
  status: "scheduled",
  sequence,
  url: `https://events.example.org/calendars/culture/events/${id}/`,
  uid: `culture.${id}@events.example.org`,
  categories: [],
  previousStarts: [],
  rescheduledAt: null,
});

const state = (
  events: PublishedEventRecord[],
  activities: PublishedState["activities"] = [],
): PublishedState => ({
  version: 1,
  siteUrl: "https://events.example.org",
  publishedAt: "2026-03-20T11:00:00Z",
  events,
  removed: [],
  announcements: [],
  activities,
});

const keys = (...ids: string[]) => new Set(ids.map((id) => `culture\u0000${id}`));
const options = (...ids: string[]) => ({
  currentKeys: keys(...ids),
  horizonMs: NOW_MS - 365 * 86_400_000,
  at: NOW,
  keepFromMs: NOW_MS - 14 * 86_400_000,
});

describe("eventActivities", () => {
  it("should announce nothing without a previous state", () => {
    expect(eventActivities(null, [record("a", 1)], options("a"))).toEqual([]);
  });

  it("should create new events, update those with a higher SEQUENCE and delete those gone from the portal", () => {
    const before = state([record("kept", 1), record("changed", 1), record("deleted", 2)]);
    const now = [record("kept", 1), record("changed", 2), record("new", 1)];
    const found = eventActivities(before, now, options("kept", "changed", "new"));
    expect(found.map((a) => [a.kind, a.eventId, a.sequence, a.at])).toEqual([
      ["update", "changed", 2, NOW],
      ["delete", "deleted", 2, NOW],
      ["create", "new", 1, NOW],
    ]);
  });

  it("should not take an event that aged out of the site for a deletion", () => {
    const old = record("old", 1, "2024-01-01T10:00:00+01:00");
    expect(eventActivities(state([old]), [], options())).toEqual([]);
  });

  it("should keep earlier publishes' activities for a while, newest first", () => {
    const earlier = {
      kind: "create" as const,
      calendarId: "culture",
      eventId: "a",
      sequence: 1,
      at: "2026-03-19T12:00:00Z",
    };
    const expired = { ...earlier, eventId: "b", at: "2026-02-01T12:00:00Z" };
    const found = eventActivities(
      state([record("a", 1)], [earlier, expired]),
      [record("a", 1), record("c", 1)],
      options("a", "c"),
    );
    expect(found.map((a) => [a.kind, a.eventId])).toEqual([
      ["create", "c"],
      ["create", "a"],
    ]);
  });
});
