import { describe, expect, it } from "vitest";
import type { IcsTrim } from "../../src/outputs/ics.ts";
import { trimWarning } from "../../src/outputs/ics-trim-warning.ts";

const TRIM: IcsTrim = {
  maxBytes: 1_000_000,
  fullBytes: 1_214_794,
  bytes: 999_606,
  horizon: "2026-08-04T00:00:00.000Z",
  droppedFuture: 275,
  droppedPast: 0,
  droppedCurrent: 0,
  shortened: 0,
  droppedCancelledFuture: 0,
  cancelledHorizon: null,
  droppedCancelledPast: 0,
  cancelledPastUntil: null,
  droppedCancelledCurrent: 0,
  overBudget: false,
};

const HEAD =
  "/calendar.ics would be 1,214,794 bytes, over ICS_MAX_BYTES (1,000,000 bytes): left out 275 events starting from 2026-08-04; now at most 999,606 bytes.";

describe("trimWarning", () => {
  it("should point to the other subscriptions when they carry every event left out", () => {
    expect(trimWarning("/calendar.ics", TRIM, 0)).toBe(
      `${HEAD} Subscribers of the calendar and category files get the rest.`,
    );
  });

  it("should say how many events left out are in no subscription at all", () => {
    expect(trimWarning("/calendar.ics", TRIM, 12)).toBe(
      `${HEAD} Subscribers of the calendar and category files get the rest, but 12 events of them are in no subscription at all: every file that would hold them is over ICS_MAX_BYTES too.`,
    );
    expect(trimWarning("/calendar.ics", TRIM, 1)).toContain(
      "but 1 event of them is in no subscription at all",
    );
  });

  it("should not point to other subscriptions when none carries any event left out", () => {
    expect(trimWarning("/calendar.ics", TRIM, 275)).toBe(
      `${HEAD} None of the events left out is in another subscription: every file that would hold them is over ICS_MAX_BYTES too.`,
    );
  });
});
