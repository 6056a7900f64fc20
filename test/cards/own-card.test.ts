import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import { hasOwnCard } from "../../src/cards/share-cards.ts";
import type { CalendarEvent } from "../../src/model/types.ts";

/** Which events get share cards of their own at a build's clock (SHARE_CARDS_DAYS). */

const site = {
  // 20 March, 13:00 in Amsterdam: days are counted from that date there.
  now: DateTime.fromISO("2026-03-20T12:00:00Z", { zone: "utc" }),
  timeZone: "Europe/Amsterdam",
};
const event = (start: string, end = start) => ({ start, end }) as CalendarEvent;

describe("hasOwnCard", () => {
  it("should give cards to the events starting up to the end of the day SHARE_CARDS_DAYS ahead, in the site's zone", () => {
    const tomorrow = hasOwnCard(site, 1);
    expect(tomorrow(event("2026-03-21T23:30:00+01:00", "2026-03-22T00:30:00+01:00"))).toBe(true);
    expect(tomorrow(event("2026-03-22T00:00:00+01:00", "2026-03-22T01:00:00+01:00"))).toBe(false);
    // The same instant written in another zone: the site's day decides.
    expect(tomorrow(event("2026-03-21T18:30:00-05:00", "2026-03-21T19:30:00-05:00"))).toBe(false);
    // Sixty days on, across the clock change of 29 March: the end of 19 May, in summer time.
    const twoMonths = hasOwnCard(site, 60);
    expect(twoMonths(event("2026-05-19T23:59:00+02:00"))).toBe(true);
    expect(twoMonths(event("2026-05-20T00:00:00+02:00"))).toBe(false);
  });

  it("should give none to an event that has ended, and keep those under way", () => {
    const own = hasOwnCard(site, 60);
    expect(own(event("2026-03-20T10:00:00+01:00", "2026-03-20T12:00:00+01:00"))).toBe(false);
    expect(own(event("2026-03-20T12:00:00+01:00", "2026-03-20T14:00:00+01:00"))).toBe(true);
    expect(own(event("2026-03-01T10:00:00+01:00", "2026-04-30T18:00:00+02:00"))).toBe(true);
  });

  it("should reach every event ahead when the days go past what a calendar can count", () => {
    const own = hasOwnCard(site, 1_000_000_000);
    expect(own(event("2099-12-31T10:00:00+01:00"))).toBe(true);
  });
});
