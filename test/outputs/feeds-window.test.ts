import { describe, expect, it } from "vitest";
import { timedEvents } from "../../src/outputs/feeds-window.ts";
import { fixtureSnapshot } from "../fixtures/snapshot.ts";

/*
 * The events a feed or calendar file is made from: each calendar/event id
 * pair once (two VEVENTs with one UID would confuse every calendar app),
 * unreadable times skipped by name, in the one order every output shares.
 */
describe("timedEvents", () => {
  const events = fixtureSnapshot.events.filter((event) => !event.allDay).slice(0, 4);

  it("should keep one event of each calendar and id, say which it skipped, and sort by start", () => {
    const [first, second, third] = events;
    if (!first || !second || !third) throw new Error("the fixture has timed events");
    const copy = { ...second, title: "A second copy" };
    // The same id in another calendar is another event.
    const elsewhere = { ...first, calendarId: `${first.calendarId}-other` };
    const broken = { ...third, id: "broken", start: "not a time" };
    const warnings: string[] = [];
    const timed = timedEvents([third, copy, second, broken, elsewhere, first], (message) =>
      warnings.push(message),
    );
    expect(timed.map((entry) => entry.event)).toEqual(
      [third, copy, elsewhere, first].sort(
        (a, b) =>
          Date.parse(a.start) - Date.parse(b.start) ||
          (a.calendarId < b.calendarId ? -1 : a.calendarId > b.calendarId ? 1 : 0),
      ),
    );
    expect(warnings).toEqual([
      `skipped duplicate event "${second.id}" in calendar "${second.calendarId}"`,
      `skipped event "broken" in calendar "${third.calendarId}": invalid start/end or time zone`,
    ]);
  });
});
