import { describe, expect, it } from "vitest";
import { calendarIdsOf } from "../../src/model/event-calendars.ts";
import { groupEvents } from "../../src/model/group-events.ts";
import { calendarEvent } from "../helpers/events.ts";

const event = (id: string, calendarId: string) =>
  calendarEvent({
    id,
    calendarId,
    title: id,
    start: "2026-04-01T10:00:00+02:00",
    end: "2026-04-01T12:00:00+02:00",
  });

describe("group-events", () => {
  it("should put an event under each of its keys, each group in the events' order", () => {
    const market = event("market", "community");
    const concert = event("concert", "culture");
    const walk = event("walk", "community");
    const tags: Record<string, string[]> = { market: ["food", "outdoor"], walk: ["outdoor"] };

    const groups = groupEvents([market, concert, walk], (e) => tags[e.id] ?? []);

    expect([...groups]).toEqual([
      ["food", [market]],
      ["outdoor", [market, walk]],
    ]);
    expect(groupEvents([market, concert, walk], calendarIdsOf)).toEqual(
      new Map([
        ["community", [market, walk]],
        ["culture", [concert]],
      ]),
    );
  });
});
