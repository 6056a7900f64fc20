import { describe, expect, it } from "vitest";
import { type WhenKey, whenRange } from "../../../src/site/when/ranges.ts";
import {
  fromWeekInfo,
  ISO_WEEK,
  type WeekRules,
  weekRules,
} from "../../../src/site/when/week-rules.ts";

// 2026-03-20 is a Friday; 2026-03-21 a Saturday, 2026-03-22 a Sunday.
const FRIDAY = "2026-03-20";

/** A when page on a given day: the page, today, and the first and last day it covers. */
type Covers = readonly [key: WhenKey, today: string, first: string, last: string];

function expectCovers(rules: WeekRules, cases: readonly Covers[]): void {
  for (const [key, today, first, last] of cases) {
    expect(whenRange(key, today, rules), `${key} on ${today}`).toEqual({ first, last });
  }
}

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
    expectCovers(gb, [
      ["today", FRIDAY, FRIDAY, FRIDAY],
      ["tomorrow", "2026-03-31", "2026-04-01", "2026-04-01"],
    ]);
  });

  it("should give the coming weekend on a weekday and what is left of it on a weekend day", () => {
    expectCovers(gb, [
      ["weekend", FRIDAY, "2026-03-21", "2026-03-22"],
      ["weekend", "2026-03-21", "2026-03-21", "2026-03-22"],
      ["weekend", "2026-03-22", "2026-03-22", "2026-03-22"],
      // The Monday after: the next weekend.
      ["weekend", "2026-03-23", "2026-03-28", "2026-03-29"],
    ]);
  });

  it("should follow a Friday-Saturday weekend", () => {
    expectCovers(weekRules("he-IL"), [
      ["weekend", "2026-03-19", "2026-03-20", "2026-03-21"],
      // On Sunday the Friday-Saturday weekend is over: the next one.
      ["weekend", "2026-03-22", "2026-03-27", "2026-03-28"],
    ]);
  });

  it("should take a one-day weekend and a weekend that runs across the week's end as one run", () => {
    expectCovers({ firstDay: 1, weekend: [7] }, [["weekend", FRIDAY, "2026-03-22", "2026-03-22"]]);
    expectCovers({ firstDay: 1, weekend: [1, 7] }, [
      ["weekend", FRIDAY, "2026-03-22", "2026-03-23"],
    ]);
  });

  it("should end this week before the locale's first day and start next week on it", () => {
    expectCovers(gb, [
      ["week", FRIDAY, FRIDAY, "2026-03-22"],
      ["next-week", FRIDAY, "2026-03-23", "2026-03-29"],
    ]);
    expectCovers(weekRules("en-US"), [
      ["week", FRIDAY, FRIDAY, "2026-03-21"],
      ["next-week", FRIDAY, "2026-03-22", "2026-03-28"],
    ]);
  });

  it("should make the week's last day a week of one day, and its first day a whole week", () => {
    expectCovers(gb, [
      ["week", "2026-03-22", "2026-03-22", "2026-03-22"],
      ["week", "2026-03-23", "2026-03-23", "2026-03-29"],
      ["next-week", "2026-03-22", "2026-03-23", "2026-03-29"],
    ]);
  });

  it("should run this month to its last day, February of a leap year included", () => {
    expectCovers(gb, [
      ["month", FRIDAY, FRIDAY, "2026-03-31"],
      ["month", "2028-02-10", "2028-02-10", "2028-02-29"],
      ["month", "2026-12-31", "2026-12-31", "2026-12-31"],
    ]);
  });
});
