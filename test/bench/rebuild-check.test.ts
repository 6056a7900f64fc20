import { describe, expect, it } from "vitest";
import { benchRebuildCheck } from "../../bench/rebuild-check.ts";

/** The benchmark's counts (never its timings) on a small portal, so it keeps working. */
describe("benchRebuildCheck", () => {
  it("should count one request per list page, 304 for all but what one edit changed, and a build per edit", async () => {
    // 3 calendars of 60 events: the portal's pages of 50 make 2 pages each.
    const figures = await benchRebuildCheck({
      sizes: [[3, 60]],
      latencyMs: 0,
      edits: 4,
      intervalMinutes: 5,
    });

    const [check, largerPages] = figures.perCheck;
    expect(check?.events).toBe(180);
    expect(check?.unchanged).toMatchObject({ requests: 7, notModified: 7 });
    // The calendar list (its calendar's updatedAt) and the edited page changed.
    expect(check?.oneEdit).toMatchObject({ requests: 7, notModified: 5 });
    // Unchanged, it reads the build state and no list's body; an edit adds the changed bodies.
    expect(check?.unchanged.bytes).toBe(check?.stateBytes);
    expect(check?.oneEdit.bytes).toBeGreaterThan(check?.stateBytes ?? 0);
    expect(check?.stateGzipBytes).toBeLessThan(check?.stateBytes ?? 0);
    // Pages of 100: one per calendar.
    expect(largerPages).toMatchObject({
      pageSize: 100,
      unchanged: { requests: 4, notModified: 4 },
    });
    const [day] = figures.days;
    expect(day?.checks).toBe(288);
    expect(day?.buildsNoChange).toBeGreaterThan(0);
    expect(day?.buildsNoChange).toBeLessThanOrEqual(day?.buildsNoChangeExact ?? 0);
    expect(figures.dayWithEdits.buildsForEdits).toBe(4);
    expect(figures.dayWithEdits.delayMinutes.max).toBeLessThanOrEqual(figures.intervalMinutes);
  });
});
