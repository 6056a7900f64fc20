import { describe, expect, it } from "vitest";
import { whenRange } from "../../../src/site/when/ranges.ts";
import { fromWeekInfo, ISO_WEEK, weekRules } from "../../../src/site/when/week-rules.ts";

// 2026-03-20 is a Friday; 2026-03-21 a Saturday, 2026-03-22 a Sunday.
const FRIDAY = "2026-03-20";

describe("the week rules of a locale", () => {
  it("should start the week on Monday and keep Saturday and Sunday as the weekend for en-GB and nl", () => {
    expect(weekRules("en-GB")).toEqual({ firstDay: 1, weekend: [6, 7] });
    expect(weekRules("nl")).toEqual({ firstDay: 1, weekend: [6, 7] });
    expect(weekRules("nl-NL")).toEqual({ firstDay: 1, weekend: [6, 7] });
  });

  it("should start the week on Sunday for en-US", () => {
    expect(weekRules("en-US")).toEqual({ firstDay: 7, weekend: [6, 7] });
  });

  it("should read a Friday-Saturday weekend where the locale has one", () => {
    expect(weekRules("he-IL").weekend).toEqual([5, 6]);
    expect(weekRules("ar-EG")).toEqual({ firstDay: 6, weekend: [5, 6] });
  });

  it("should fall back to ISO 8601 weeks when Intl gives no usable week data", () => {
    expect(fromWeekInfo(undefined)).toEqual(ISO_WEEK);
    expect(fromWeekInfo({ firstDay: 9, weekend: ["sat"] })).toEqual(ISO_WEEK);
    expect(fromWeekInfo({ firstDay: 7, weekend: [7, 6, 6] })).toEqual({
      firstDay: 7,
      weekend: [6, 7],
    });
  });
});

describe("the days a when page covers", () => {
  const gb = weekRules("en-GB");

  it("should cover today and tomorrow as single days, also across a month's end", () => {
    expect(whenRange("today", FRIDAY, gb)).toEqual({ first: FRIDAY, last: FRIDAY });
    expect(whenRange("tomorrow", "2026-03-31", gb)).toEqual({
      first: "2026-04-01",
      last: "2026-04-01",
    });
  });

  it("should give the coming weekend on a weekday and what is left of it on a weekend day", () => {
    expect(whenRange("weekend", FRIDAY, gb)).toEqual({ first: "2026-03-21", last: "2026-03-22" });
    expect(whenRange("weekend", "2026-03-21", gb)).toEqual({
      first: "2026-03-21",
      last: "2026-03-22",
    });
    expect(whenRange("weekend", "2026-03-22", gb)).toEqual({
      first: "2026-03-22",
      last: "2026-03-22",
    });
    // The Monday after: the next weekend.
    expect(whenRange("weekend", "2026-03-23", gb)).toEqual({
      first: "2026-03-28",
      last: "2026-03-29",
    });
  });

  it("should follow a Friday-Saturday weekend", () => {
    const il = weekRules("he-IL");
    expect(whenRange("weekend", "2026-03-19", il)).toEqual({
      first: "2026-03-20",
      last: "2026-03-21",
    });
    // On Sunday the Friday-Saturday weekend is over: the next one.
    expect(whenRange("weekend", "2026-03-22", il)).toEqual({
      first: "2026-03-27",
      last: "2026-03-28",
    });
  });

  it("should take a one-day weekend and a weekend that runs across the week's end as one run", () => {
    expect(whenRange("weekend", FRIDAY, { firstDay: 1, weekend: [7] })).toEqual({
      first: "2026-03-22",
      last: "2026-03-22",
    });
    expect(whenRange("weekend", FRIDAY, { firstDay: 1, weekend: [1, 7] })).toEqual({
      first: "2026-03-22",
      last: "2026-03-23",
    });
  });

  it("should end this week before the locale's first day and start next week on it", () => {
    expect(whenRange("week", FRIDAY, gb)).toEqual({ first: FRIDAY, last: "2026-03-22" });
    expect(whenRange("next-week", FRIDAY, gb)).toEqual({
      first: "2026-03-23",
      last: "2026-03-29",
    });
    const us = weekRules("en-US");
    expect(whenRange("week", FRIDAY, us)).toEqual({ first: FRIDAY, last: "2026-03-21" });
    expect(whenRange("next-week", FRIDAY, us)).toEqual({
      first: "2026-03-22",
      last: "2026-03-28",
    });
  });

  it("should make the week's last day a week of one day, and its first day a whole week", () => {
    expect(whenRange("week", "2026-03-22", gb)).toEqual({
      first: "2026-03-22",
      last: "2026-03-22",
    });
    expect(whenRange("week", "2026-03-23", gb)).toEqual({
      first: "2026-03-23",
      last: "2026-03-29",
    });
    expect(whenRange("next-week", "2026-03-22", gb)).toEqual({
      first: "2026-03-23",
      last: "2026-03-29",
    });
  });

  it("should run this month to its last day, February of a leap year included", () => {
    expect(whenRange("month", FRIDAY, gb)).toEqual({ first: FRIDAY, last: "2026-03-31" });
    expect(whenRange("month", "2028-02-10", gb)).toEqual({
      first: "2028-02-10",
      last: "2028-02-29",
    });
    expect(whenRange("month", "2026-12-31", gb)).toEqual({
      first: "2026-12-31",
      last: "2026-12-31",
    });
  });
});
