import { describe, expect, it } from "vitest";
import { groupUpcomingAndPast } from "../../src/model/upcoming-and-past.ts";
import { calendarEvent } from "../helpers/events.ts";

const at = (id: string, place: string | null, start: string) =>
  calendarEvent({
    id,
    calendarId: "community",
    title: id,
    start,
    end: start,
    location: place === null ? null : { name: place, address: null, geo: null },
  });

describe("upcoming-and-past", () => {
  it("should group each event once under its key, keep each list's order and leave out events of no group", () => {
    const soon = at("soon", "Hall", "2026-04-01T10:00:00+02:00");
    const later = at("later", "Park", "2026-04-02T10:00:00+02:00");
    const online = at("online", null, "2026-04-03T10:00:00+02:00");
    const again = at("again", "Hall", "2026-04-04T10:00:00+02:00");
    const recent = at("recent", "Hall", "2026-03-10T10:00:00+01:00");
    const older = at("older", "Square", "2026-03-01T10:00:00+01:00");

    const groups = groupUpcomingAndPast(
      [soon, later, online, again],
      [recent, older],
      (event) => event.location?.name ?? null,
    );

    // In the order each group's first event comes, upcoming before past.
    expect([...groups.keys()]).toEqual(["Hall", "Park", "Square"]);
    expect(groups.get("Hall")).toEqual({ upcoming: [soon, again], past: [recent] });
    expect(groups.get("Park")).toEqual({ upcoming: [later], past: [] });
    expect(groups.get("Square")).toEqual({ upcoming: [], past: [older] });
  });
});
