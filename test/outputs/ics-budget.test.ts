import { describe, expect, it } from "vitest";
import {
  type BudgetItem,
  fitToBudget,
  MIN_HORIZON_DAYS,
  MIN_SHORTENED_DESCRIPTION_BYTES,
} from "../../src/outputs/ics-budget.ts";

const DAY = 86_400_000;
const NOW = Date.parse("2026-03-20T12:00:00Z");

/** An event starting `day` days from now, lasting an hour. */
function item(day: number, overrides: Partial<BudgetItem> = {}): BudgetItem {
  const startMs = NOW + day * DAY;
  return {
    startMs,
    endMs: startMs + 3_600_000,
    bytes: 1000,
    descriptionBytes: 0,
    cancelled: false,
    ...overrides,
  };
}

const kept = (items: readonly BudgetItem[], dropped: readonly boolean[]) =>
  items.filter((_, index) => !dropped[index]);

describe("fitToBudget", () => {
  it("should leave a file that fits as it is", () => {
    const items = [item(1), item(2)];
    expect(
      fitToBudget({ items, fixedBytes: 500, maxBytes: 2500, nowMs: NOW, shortBytes: () => 0 }),
    ).toBeNull();
  });

  it("should cut the far future first, a whole start time at a time, and keep every cancellation", () => {
    const items = [
      item(-3),
      item(1),
      item(100),
      item(120),
      item(120),
      item(200, { cancelled: true }),
      item(300),
    ];
    const cut = fitToBudget({
      items,
      fixedBytes: 0,
      maxBytes: 4000,
      nowMs: NOW,
      shortBytes: () => {
        throw new Error("no description needs shortening");
      },
    });
    expect(cut?.dropped).toEqual([false, false, false, true, true, false, true]);
    expect(cut?.horizonMs).toBe(NOW + 120 * DAY);
    expect(cut).toMatchObject({
      fullBytes: 7000,
      bytes: 4000,
      droppedFuture: 3,
      droppedPast: 0,
      shortenedCount: 0,
      overBudget: false,
    });
  });

  it("should shorten the longest descriptions before cutting nearer than the minimum horizon", () => {
    const near = MIN_HORIZON_DAYS - 10;
    const items = [
      item(near, { bytes: 3000, descriptionBytes: 2500 }),
      item(near + 1, { bytes: 1500, descriptionBytes: 1000 }),
      item(near + 2, { bytes: 400, descriptionBytes: MIN_SHORTENED_DESCRIPTION_BYTES - 1 }),
    ];
    const asked: number[] = [];
    const cut = fitToBudget({
      items,
      fixedBytes: 100,
      maxBytes: 3000,
      nowMs: NOW,
      shortBytes: (index) => {
        asked.push(index);
        return 500;
      },
    });
    // 100 + 3000 + 1500 + 400 = 5000; shortening the longest one saves 2500.
    expect(asked).toEqual([0]);
    expect(cut).toMatchObject({
      shortened: [true, false, false],
      dropped: [false, false, false],
      bytes: 2500,
      horizonMs: null,
      shortenedCount: 1,
    });
  });

  it("should then cut the nearer future, then the past oldest first", () => {
    const items = [item(-20), item(-10), item(-1), item(5), item(6)];
    const cut = fitToBudget({
      items,
      fixedBytes: 0,
      maxBytes: 2000,
      nowMs: NOW,
      shortBytes: () => 0,
    });
    expect(cut?.dropped).toEqual([true, false, false, true, true]);
    expect(cut).toMatchObject({ droppedFuture: 2, droppedPast: 1, horizonMs: NOW + 5 * DAY });
    expect(kept(items, cut?.dropped ?? []).map((i) => i.startMs)).toEqual([
      NOW - 10 * DAY,
      NOW - DAY,
    ]);
  });

  it("should say when the cancellations alone are over the budget, and keep them all", () => {
    const items = [item(1, { cancelled: true }), item(2, { cancelled: true }), item(3)];
    const cut = fitToBudget({
      items,
      fixedBytes: 0,
      maxBytes: 1500,
      nowMs: NOW,
      shortBytes: () => 0,
    });
    expect(cut?.dropped).toEqual([false, false, true]);
    expect(cut).toMatchObject({ overBudget: true, bytes: 2000 });
  });
});
