import { describe, expect, it } from "vitest";
import type { CalendarEvent } from "../../src/model/types.ts";
import { sameEvents } from "../../src/sources/same-events.ts";
import { calendarEvent as event } from "../helpers/events.ts";

const SOURCES = [
  { id: "culture", name: "Culture House" },
  { id: "city", name: "City Hall" },
];

const hall = {
  id: null,
  name: "Town Hall",
  address: null,
  geo: null,
};

function copy(source: string, calendarId: string, id: string, extra: Partial<CalendarEvent> = {}) {
  return event({
    id,
    calendarId: `${source}~${calendarId}`,
    source,
    title: "Jazz Night",
    start: "2026-04-03T20:00:00+02:00",
    end: "2026-04-03T22:00:00+02:00",
    location: hall,
    ...extra,
  });
}

describe("same-events", () => {
  it("should merge copies of two sources with the same title, start and place into the first source's", () => {
    const warnings: string[] = [];
    const joined = sameEvents(
      [
        copy("city", "culture", "77", {
          title: "  JAZZ   níght ",
          start: "2026-04-03T18:00:00Z",
          location: { ...hall, id: "venue-9", name: "town hall" },
        }),
        copy("culture", "music", "1"),
      ],
      SOURCES,
      (w) => warnings.push(w),
    );
    expect(warnings).toEqual([]);
    expect(joined.events).toHaveLength(1);
    const [kept] = joined.events;
    expect(kept?.source).toBe("culture");
    expect(kept?.id).toBe("1");
    expect(kept?.merged).toEqual([
      { source: "city", calendarId: "city~culture", id: "77", organizer: expect.any(Object) },
    ]);
    expect(joined.warnings).toEqual([
      expect.stringMatching(
        /^merged: event "77" of calendar "city~culture" \(source city\) is event "1"/,
      ),
    ]);
  });

  it("should keep events apart that differ in start, place or title, and a source's own duplicates", () => {
    const events = [
      copy("culture", "music", "1"),
      copy("culture", "music", "2"),
      copy("city", "culture", "3", { start: "2026-04-03T20:30:00+02:00" }),
      copy("city", "culture", "4", { location: { ...hall, name: "Old Church" } }),
      copy("city", "culture", "5", { title: "Jazz Nights" }),
    ];
    expect(sameEvents(events, SOURCES, () => {}).events.map((e) => e.id)).toEqual([
      "1",
      "2",
      "3",
      "4",
      "5",
    ]);
  });

  it("should merge an explicit link whatever the copies say, and warn of a link to nothing", () => {
    const warnings: string[] = [];
    const joined = sameEvents(
      [
        copy("culture", "music", "1"),
        copy("city", "culture", "9", { title: "Jazz in the hall", sameAs: "culture:1" }),
        copy("city", "culture", "10", { title: "Other", sameAs: "culture:404" }),
      ],
      SOURCES,
      (w) => warnings.push(w),
    );
    expect(joined.events.map((e) => [e.id, e.merged?.map((m) => m.id)])).toEqual([
      ["1", ["9"]],
      ["10", undefined],
    ]);
    expect(warnings).toEqual([expect.stringContaining('sameAs "culture:404" names no event')]);
  });
});
