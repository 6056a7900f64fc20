import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import { dayAround, monthGrid } from "../../src/site/month-grid.ts";

/** The grid as Luxon lays it out: the month's first and last days, whole weeks from `firstDay`. */
function luxonGrid(year: number, month: number, firstDay: number) {
  const first = DateTime.fromObject({ year, month, day: 1 }, { zone: "UTC" });
  const start = first.minus({ days: (first.weekday - firstDay + 7) % 7 });
  const last = first.endOf("month").startOf("day");
  const end = last.plus({ days: (firstDay + 6 - last.weekday) % 7 });
  const weeks: { date: string; inMonth: boolean }[][] = [];
  for (let day = start; day <= end; day = day.plus({ days: 1 })) {
    if (day.weekday === firstDay) weeks.push([]);
    weeks[weeks.length - 1]?.push({ date: day.toISODate() ?? "", inMonth: day.month === month });
  }
  return weeks;
}

describe("monthGrid", () => {
  it("should lay out every month of two centuries as Luxon does, from any first day of the week", () => {
    let grids = 0;
    for (let year = 1900; year <= 2100; year += year < 2020 || year > 2032 ? 7 : 1) {
      for (let month = 1; month <= 12; month++) {
        for (let firstDay = 1; firstDay <= 7; firstDay++) {
          expect(monthGrid(year, month, firstDay), `${year}-${month} from ${firstDay}`).toEqual(
            luxonGrid(year, month, firstDay),
          );
          grids++;
        }
      }
    }
    expect(grids).toBeGreaterThan(2900);
  });

  it("should name the days around a month, across the ends of months and years", () => {
    expect(dayAround(2026, 3, "first", -1)).toBe("2026-02-28");
    expect(dayAround(2024, 3, "first", -1)).toBe("2024-02-29");
    expect(dayAround(2026, 12, "last", 2)).toBe("2027-01-02");
    expect(dayAround(2026, 1, "first", -2)).toBe("2025-12-30");
  });
});
