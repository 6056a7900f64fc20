import { describe, expect, it } from "vitest";
import { byStart, sortedByStart } from "../../src/model/order.ts";

/*
 * The site's one order of events (src/model/order.ts): what every list,
 * feed and calendar file is written in, so it must not depend on how it is
 * computed.
 */

interface Item {
  readonly start: string;
  readonly calendarId: string;
  readonly id: string;
}

/** A deterministic generator: the same items on every run. */
function items(count: number, seed: number): Item[] {
  let state = seed;
  const next = (n: number) => {
    state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0;
    return state % n;
  };
  const starts = [
    "2026-03-20T10:00:00Z",
    "2026-03-20T11:00:00+01:00", // the same instant as the one before
    "2026-03-21T09:30:00-04:00",
    "2026-03-19",
    "not a date",
    "",
  ];
  return Array.from({ length: count }, () => ({
    start: starts[next(starts.length)] ?? "",
    calendarId: ["b", "a", "ä", "A"][next(4)] ?? "",
    id: `e${next(20)}`,
  }));
}

describe("the site's order of events", () => {
  it("should sort by start instant, then calendar id, then event id, by code unit", () => {
    const sorted = sortedByStart([
      { start: "2026-03-20T12:00:00+01:00", calendarId: "b", id: "2" },
      { start: "2026-03-20T10:59:00Z", calendarId: "z", id: "0" },
      { start: "2026-03-20T11:00:00Z", calendarId: "a", id: "9" },
      { start: "2026-03-20T11:00:00Z", calendarId: "B", id: "1" },
      { start: "2026-03-20T11:00:00Z", calendarId: "a", id: "10" },
    ]);
    expect(sorted.map((item) => `${item.calendarId}/${item.id}`)).toEqual([
      "z/0", // the earliest instant
      // The others start at one instant, 11:00 UTC: "B" before "a" before "b", "10" before "9".
      "B/1",
      "a/10",
      "a/9",
      "b/2",
    ]);
  });

  it("should give sortedByStart the order of sort(byStart), invalid starts and ties included", () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const list = items(500, seed);
      expect(sortedByStart(list)).toEqual([...list].sort(byStart));
    }
  });
});
