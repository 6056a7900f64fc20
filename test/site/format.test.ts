import { describe, expect, it } from "vitest";
import { formatTimeRange, formatWhen, weekdayNames } from "../../src/site/format.ts";
import { fixtureSnapshot } from "../fixtures/snapshot.ts";

const event = (id: string) => {
  const found = fixtureSnapshot.events.find((e) => e.id === id);
  if (!found) throw new Error(id);
  return found;
};

describe("formatWhen", () => {
  it("should name both offsets for an event across the DST change", () => {
    const text = formatWhen(event("e-dst"), "en-GB");
    expect(text).toMatch(/29 March 2026.*01:30 CET\s–\s.*29 March 2026.*04:00 CEST$/);
  });

  it("should show an all-day event as its date only", () => {
    expect(formatWhen(event("e-allday"), "en-GB")).toMatch(/^Monday,? 27 April 2026$/);
  });

  it("should show a multi-day all-day event with its inclusive last day", () => {
    expect(formatWhen(event("e-multiday"), "en-GB")).toMatch(
      /^Friday,?\s15(\sMay)?\s–\sSunday,?\s17\sMay\s2026$/,
    );
  });

  it("should format in the event's zone and language, whatever the host zone", () => {
    expect(formatWhen(event("e-online"), "en-GB")).toMatch(/12:00.+13:00 GMT-4$/);
    expect(formatWhen(event("e-cancelled"), "nl")).toMatch(
      /^zaterdag 4 april 2026,? 20:00\s?–\s?22:00 CEST$/,
    );
  });

  it("should show only the start of an event without an end", () => {
    const text = formatWhen(event("Weird/ID?<x>"), "en-GB");
    expect(text).toMatch(/20 April 2026.* 18:00 CEST$/);
    expect(text).not.toContain("–");
  });
});

describe("formatTimeRange", () => {
  it("should give times of day for timed events and nothing for all-day ones", () => {
    expect(formatTimeRange(event("e-cancelled"), "en-GB")).toMatch(/^20:00\s?–\s?22:00$/);
    expect(formatTimeRange(event("e-allday"), "en-GB")).toBe("");
  });
});

describe("weekdayNames", () => {
  it("should start weeks on Monday", () => {
    expect(weekdayNames("en-GB", "long")[0]).toBe("Monday");
    expect(weekdayNames("nl", "long")[6]).toBe("zondag");
  });
});
