import { readFile } from "node:fs/promises";
import { join } from "node:path";
import fc from "fast-check";
import ICAL from "ical.js";
import ical from "node-ical";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type BudgetItem,
  fitToBudget,
  MIN_HORIZON_DAYS,
  MIN_SHORTENED_DESCRIPTION_BYTES,
} from "../../src/outputs/ics-budget.ts";
import { fixtureSnapshot } from "../fixtures/snapshot.ts";
import { NOW_MS } from "../helpers/clock.ts";
import { buildFixtureSite, removeFixtureSite } from "../helpers/plugin-site.ts";
import { siteWith } from "../helpers/test-site.ts";

const DAY = 86_400_000;

/** An event starting `day` days from now, lasting an hour. */
function item(day: number, overrides: Partial<BudgetItem> = {}): BudgetItem {
  const startMs = NOW_MS + day * DAY;
  return {
    startMs,
    endMs: startMs + 3_600_000,
    bytes: 1000,
    descriptionBytes: 0,
    cancelled: false,
    ...overrides,
  };
}

/** `items` cut at the tests' clock to `maxBytes` with `fixedBytes` of the calendar's own; a shortened description takes `shortBytes`. */
const fitted = (items: BudgetItem[], fixedBytes: number, maxBytes: number, shortBytes = 0) =>
  fitToBudget({ items, fixedBytes, maxBytes, nowMs: NOW_MS, shortBytes: () => shortBytes });

const kept = (items: readonly BudgetItem[], dropped: readonly boolean[]) =>
  items.filter((_, index) => !dropped[index]);

describe("fitToBudget", () => {
  it("should leave a file that fits as it is", () => {
    const items = [item(1), item(2)];
    expect(fitted(items, 500, 2500)).toBeNull();
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
      nowMs: NOW_MS,
      shortBytes: () => {
        throw new Error("no description needs shortening");
      },
    });
    expect(cut?.dropped).toEqual([false, false, false, true, true, false, true]);
    expect(cut?.horizonMs).toBe(NOW_MS + 120 * DAY);
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
      nowMs: NOW_MS,
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
    const cut = fitted(items, 0, 2000);
    expect(cut?.dropped).toEqual([true, false, false, true, true]);
    expect(cut).toMatchObject({ droppedFuture: 2, droppedPast: 1, horizonMs: NOW_MS + 5 * DAY });
    expect(kept(items, cut?.dropped ?? []).map((i) => i.startMs)).toEqual([
      NOW_MS - 10 * DAY,
      NOW_MS - DAY,
    ]);
  });

  it("should leave out the cancellations farthest from now, ahead or over, once they alone are over the budget", () => {
    const items = [
      item(-25, { cancelled: true }),
      item(-2, { cancelled: true }),
      item(-0.02),
      item(1, { cancelled: true }),
      item(2),
      item(3, { cancelled: true }),
      item(40, { cancelled: true }),
      item(40, { cancelled: true }),
      item(150, { cancelled: true }),
    ];
    const cut = fitted(items, 500, 3600);
    // Every other event goes first; then 150 days ahead, both of 40 days ahead
    // (one start time, at once) and 25 days over, before 3 days ahead.
    expect(cut?.dropped).toEqual([true, false, true, false, true, false, true, true, true]);
    expect(kept(items, cut?.dropped ?? []).every((i) => i.cancelled)).toBe(true);
    expect(cut).toMatchObject({
      fullBytes: 9500,
      bytes: 3500,
      droppedFuture: 1,
      droppedPast: 0,
      droppedCurrent: 1,
      droppedCancelledFuture: 3,
      cancelledHorizonMs: NOW_MS + 40 * DAY,
      droppedCancelledPast: 1,
      cancelledPastUntilMs: NOW_MS - 25 * DAY + 3_600_000,
      droppedCancelledCurrent: 0,
      overBudget: false,
    });
  });

  it("should measure a cancellation's distance from now by its end when over, by its start when ahead", () => {
    /** Cancelled, ended `days` days ago. */
    const over = (days: number) => item(-days - 1, { cancelled: true, endMs: NOW_MS - days * DAY });
    const cut = (items: BudgetItem[]) => fitted(items, 0, 2000);
    // Over 10 days ago is farther than 9 days ahead.
    expect(
      cut([over(10), item(1, { cancelled: true }), item(9, { cancelled: true })]),
    ).toMatchObject({
      dropped: [true, false, false],
      droppedCancelledPast: 1,
      cancelledPastUntilMs: NOW_MS - 10 * DAY,
    });
    // 8 days ago is nearer; at the same distance the future goes first.
    expect(
      cut([over(8), item(1, { cancelled: true }), item(9, { cancelled: true })]),
    ).toMatchObject({
      dropped: [false, false, true],
      droppedCancelledFuture: 1,
      cancelledHorizonMs: NOW_MS + 9 * DAY,
    });
    expect(
      cut([over(9), item(1, { cancelled: true }), item(9, { cancelled: true })]),
    ).toMatchObject({
      dropped: [false, false, true],
      droppedCancelledFuture: 1,
      droppedCancelledPast: 0,
    });
  });

  it("should shorten the cancellations' long descriptions before leaving any out", () => {
    const items = [
      item(1, { cancelled: true, bytes: 2000, descriptionBytes: 1500 }),
      item(2, { cancelled: true }),
      item(3),
    ];
    const cut = fitted(items, 0, 2000, 600);
    expect(cut).toMatchObject({
      dropped: [false, false, true],
      shortened: [true, false, false],
      bytes: 1600,
      shortenedCount: 1,
      droppedCancelledFuture: 0,
      overBudget: false,
    });
  });

  it("should cut the last start time only down to one event", () => {
    const items = [item(1), item(1), item(1)];
    const cut = fitted(items, 500, 1500);
    expect(cut).toMatchObject({
      dropped: [false, true, true],
      bytes: 1500,
      droppedFuture: 2,
      horizonMs: NOW_MS + DAY,
      overBudget: false,
    });
  });

  it("should keep one event, the nearest to now, when even that is over the budget (RFC 5545 3.6)", () => {
    const cancellations = [
      item(-1, { cancelled: true }),
      item(1, { cancelled: true }),
      item(30, { cancelled: true }),
    ];
    const cut = fitted([item(2), ...cancellations], 1500, 2000);
    expect(cut).toMatchObject({
      dropped: [true, false, true, true],
      bytes: 2500,
      droppedFuture: 1,
      droppedCancelledFuture: 2,
      droppedCancelledPast: 0,
      overBudget: true,
    });
    const alone = fitted([item(-3), item(-1), item(4)], 1500, 1000);
    // Without cancellations the last left is the most recent past event (the order of step 3).
    expect(alone).toMatchObject({ dropped: [true, false, true], bytes: 2500, overBudget: true });
  });
});

describe("when the clock alone changes a cut", () => {
  /** The cut at `nowMs`, without the moment it names. */
  const cutAt = (items: BudgetItem[], maxBytes: number, nowMs: number) => {
    const cut = fitToBudget({ items, fixedBytes: 0, maxBytes, nowMs, shortBytes: () => 400 });
    if (!cut) return null;
    const { changesAtMs: _, ...rest } = cut;
    return rest;
  };

  it("should name the moment an event left out for being far ahead comes within the horizon", () => {
    // Left out, the far one makes the file fit; once within the horizon it stays, and a
    // description is shortened instead. No event ends in between: only the cut says so.
    const items = [
      item(1, { descriptionBytes: 600 }),
      item(2, { descriptionBytes: 600 }),
      item(100, { descriptionBytes: 600 }),
    ];
    const cut = fitted(items, 0, 2500, 400);
    const moment = (items[2]?.startMs ?? 0) - MIN_HORIZON_DAYS * DAY;
    expect(cut?.dropped).toEqual([false, false, true]);
    expect(cut?.changesAtMs).toBe(moment);
    expect(cutAt(items, 2500, moment - 1)).toEqual(cutAt(items, 2500, NOW_MS));
    expect(cutAt(items, 2500, moment)).toMatchObject({
      dropped: [false, false, false],
      shortened: [true, false, false],
      horizonMs: null,
    });
  });

  it("should name the moment an event left out of the nearer future starts", () => {
    const items = [item(-1), item(1), item(2)];
    const cut = fitted(items, 0, 2000);
    expect(cut?.dropped).toEqual([false, false, true]);
    expect(cut?.changesAtMs).toBe(items[2]?.startMs);
    expect(cutAt(items, 2000, (items[2]?.startMs ?? 0) - 1)).toEqual(cutAt(items, 2000, NOW_MS));
    expect(cutAt(items, 2000, items[2]?.startMs ?? 0)?.dropped).toEqual([true, false, false]);
  });

  it("should cut the same events at every moment before the one it names and the next end", () => {
    const anItem = fc.record({
      day: fc.integer({ min: -40, max: 200 }),
      hours: fc.integer({ min: 0, max: 23 }),
      length: fc.integer({ min: 1, max: 60 }),
      bytes: fc.integer({ min: 300, max: 3000 }),
      descriptionBytes: fc.oneof(fc.constant(0), fc.integer({ min: 100, max: 2000 })),
      cancelled: fc.boolean(),
    });
    fc.assert(
      fc.property(
        fc.array(anItem, { minLength: 2, maxLength: 14 }),
        fc.integer({ min: 1000, max: 20_000 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (drawn, maxBytes, where) => {
          const items = drawn
            .map((each) => {
              const startMs = NOW_MS + each.day * DAY + each.hours * 3_600_000;
              return { ...each, startMs, endMs: startMs + each.length * 3_600_000 };
            })
            .sort((a, b) => a.startMs - b.startMs);
          const cut = fitToBudget({
            items,
            fixedBytes: 0,
            maxBytes,
            nowMs: NOW_MS,
            shortBytes: () => 400,
          });
          if (!cut) return;
          // An item's end is the build's own date change (endedFrom: the instant after it).
          const ends = items.map((each) => each.endMs + 1).filter((at) => at > NOW_MS);
          const until = Math.min(cut.changesAtMs ?? Number.POSITIVE_INFINITY, ...ends);
          const later = NOW_MS + Math.floor((Math.min(until, NOW_MS + 400 * DAY) - NOW_MS) * where);
          expect(later).toBeLessThan(until);
          expect(cutAt(items, maxBytes, later)).toEqual(cutAt(items, maxBytes, NOW_MS));
        },
      ),
      { seed: 20261205, numRuns: 3000 },
    );
  });
});

describe("a budget smaller than a calendar's header and one event", () => {
  let outDir = "";
  let files: string[] = [];
  let warnings: readonly string[] = [];

  beforeAll(async () => {
    ({ outDir, files, warnings } = await buildFixtureSite(
      fixtureSnapshot,
      siteWith({ icsMaxBytes: 1000 }),
    ));
  });

  afterAll(async () => {
    await removeFixtureSite(outDir);
  });

  it("should keep one event in every subscription, the cancellation in the site's, and say the budget is exceeded", async () => {
    const subscriptions = files.filter((file) => file.endsWith("calendar.ics"));
    expect(subscriptions.length).toBeGreaterThan(3);
    for (const file of subscriptions) {
      const text = await readFile(join(outDir, file), "utf8");
      expect(Buffer.byteLength(text), file).toBeGreaterThan(1000);
      // RFC 5545 3.6: a calendar holds at least one component.
      const vevents = new ICAL.Component(ICAL.parse(text)).getAllSubcomponents("vevent");
      expect(vevents, file).toHaveLength(1);
      const viaNode = Object.values(ical.sync.parseICS(text)).filter(
        (component) => component?.type === "VEVENT",
      );
      expect(viaNode, file).toHaveLength(1);
      const warning = warnings.find((line) => line.startsWith(`/${file} `));
      expect(warning, file).toMatch(
        / with a single event\b.*: ICS_MAX_BYTES is smaller than the calendar's header and one event\./,
      );
    }
    // A file of one event says so without a list of what was left out.
    const alone = warnings.filter((line) => / is [\d,]+ bytes with a single event, /.test(line));
    expect(alone.length).toBeGreaterThan(0);
    for (const line of alone) {
      expect(line).toMatch(
        /^\/\S+\/calendar\.ics is [\d,]+ bytes with a single event, over ICS_MAX_BYTES \(1,000 bytes\): ICS_MAX_BYTES is smaller than the calendar's header and one event\.$/,
      );
    }
    expect(warnings.find((line) => line.startsWith("/calendar.ics "))).toMatch(
      /^\/calendar\.ics would be [\d,]+ bytes, over ICS_MAX_BYTES \(1,000 bytes\): left out 6 events starting from 2026-03-29, left out 1 past event; still [\d,]+ bytes with a single event: /,
    );
    const site = await readFile(join(outDir, "calendar.ics"), "utf8");
    const [kept] = new ICAL.Component(ICAL.parse(site)).getAllSubcomponents("vevent");
    expect(kept?.getFirstPropertyValue("status")).toBe("CANCELLED");
    expect(String(kept?.getFirstPropertyValue("uid"))).toBe(
      "culture.e-cancelled@events.example.org",
    );
  });
  it("should say how many of the events left out reach no subscription at all", async () => {
    // Every file keeps one event: an event kept by none of them reaches no subscriber.
    const reached = new Set<string>();
    for (const file of files.filter((name) => name.endsWith("calendar.ics"))) {
      const text = await readFile(join(outDir, file), "utf8");
      for (const vevent of new ICAL.Component(ICAL.parse(text)).getAllSubcomponents("vevent"))
        reached.add(String(vevent.getFirstPropertyValue("uid")));
    }
    const site = warnings.find((line) => line.startsWith("/calendar.ics ")) ?? "";
    // The site's file holds every event of the window: the one it keeps, and those it leaves out.
    const leftOut = [...site.matchAll(/left out (\d+) /g)].reduce(
      (sum, match) => sum + Number(match[1]),
      0,
    );
    const unreached = leftOut + 1 - reached.size;
    expect(unreached).toBeGreaterThan(0);
    expect(unreached).toBeLessThan(leftOut);
    expect(site).toMatch(
      new RegExp(
        `Subscribers of the calendar and category files get the rest, but ${unreached} events of them are in no subscription at all: every file that would hold them is over ICS_MAX_BYTES too\\.$`,
      ),
    );
  });
});
