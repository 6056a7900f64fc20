import { describe, expect, it } from "vitest";
import { detectSeriesRule } from "../../src/series/series-rule.ts";
import { describeSeriesRule } from "../../src/series/series-text.ts";

/** Timed dates at `time` local, Amsterdam offsets as the portal writes them. */
function dated(days: readonly string[], time = "19:30") {
  return days.map((day) => ({
    // Summer time from the last Sunday of March to the last of October, as in 2026.
    start: `${day}T${time}:00${day >= "2026-03-29" && day < "2026-10-25" ? "+02:00" : "+01:00"}`,
    allDay: false,
    timeZone: "Europe/Amsterdam",
  }));
}

describe("series rules", () => {
  it("should find a weekly rule, across a daylight-saving change, and say it in English and Dutch", () => {
    const rule = detectSeriesRule(dated(["2026-03-19", "2026-03-26", "2026-04-02", "2026-04-09"]));
    expect(rule).toEqual({ kind: "weekly", interval: 1, weekday: 4, time: "19:30" });
    if (!rule) throw new Error("no rule");
    expect(describeSeriesRule(rule, "en-GB")).toBe("Every Thursday, 19:30");
    expect(describeSeriesRule(rule, "nl")).toBe("Elke donderdag om 19:30");
    expect(describeSeriesRule(rule, "en-US")).toBe("Every Thursday, 07:30 PM");
  });

  it("should find every other week", () => {
    const rule = detectSeriesRule(dated(["2026-03-17", "2026-03-31", "2026-04-14"], "19:00"));
    expect(rule).toEqual({ kind: "weekly", interval: 2, weekday: 2, time: "19:00" });
    if (!rule) throw new Error("no rule");
    expect(describeSeriesRule(rule, "en-GB")).toBe("Every other Tuesday, 19:00");
    expect(describeSeriesRule(rule, "nl")).toBe("Om de week op dinsdag om 19:00");
  });

  it("should find the first or last weekday of each month", () => {
    const first = detectSeriesRule(dated(["2026-03-02", "2026-04-06", "2026-05-04"], "20:00"));
    expect(first).toEqual({ kind: "monthly", ordinal: 1, weekday: 1, time: "20:00" });
    // Last Fridays: the 4th or the 5th Friday of their month.
    const last = detectSeriesRule(dated(["2026-03-27", "2026-04-24", "2026-05-29"], "20:30"));
    expect(last).toEqual({ kind: "monthly", ordinal: -1, weekday: 5, time: "20:30" });
    if (!first || !last) throw new Error("no rule");
    expect(describeSeriesRule(first, "en-GB")).toBe("Every first Monday of the month, 20:00");
    expect(describeSeriesRule(last, "nl")).toBe("Elke laatste vrijdag van de maand om 20:30");
  });

  it("should say an all-day rule without a time", () => {
    const days = ["2026-04-04", "2026-04-11", "2026-04-18"].map((day) => ({
      start: `${day}T00:00:00+02:00`,
      allDay: true,
      timeZone: "Europe/Amsterdam",
    }));
    const rule = detectSeriesRule(days);
    expect(rule).toEqual({ kind: "weekly", interval: 1, weekday: 6, time: null });
    if (!rule) throw new Error("no rule");
    expect(describeSeriesRule(rule, "en-GB")).toBe("Every Saturday");
    expect(describeSeriesRule(rule, "nl")).toBe("Elke zaterdag");
  });

  it("should give no rule where none fits every date", () => {
    // A skipped week.
    expect(detectSeriesRule(dated(["2026-03-19", "2026-03-26", "2026-04-09"]))).toBeNull();
    // Another time once.
    expect(
      detectSeriesRule([...dated(["2026-03-19", "2026-03-26"]), ...dated(["2026-04-02"], "20:00")]),
    ).toBeNull();
    // Irregular days.
    expect(detectSeriesRule(dated(["2026-03-19", "2026-03-23", "2026-04-30"]))).toBeNull();
    // Two dates fit any interval: no rule from them.
    expect(detectSeriesRule(dated(["2026-03-19", "2026-03-26"]))).toBeNull();
    // A month left out.
    expect(detectSeriesRule(dated(["2026-03-02", "2026-05-04", "2026-06-01"]))).toBeNull();
  });
});
