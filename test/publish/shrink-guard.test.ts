import { describe, expect, it } from "vitest";
import { PublishError } from "../../src/errors.ts";
import { checkShrink, type ManifestCounts } from "../../src/publish/shrink-guard.ts";

function manifest(calendars: Record<string, number>): ManifestCounts {
  const entries = Object.entries(calendars).map(([id, events]) => ({
    id,
    name: `Calendar ${id}`,
    events,
  }));
  return {
    calendars: entries,
    totals: { events: entries.reduce((sum, entry) => sum + entry.events, 0) },
  };
}

function blocked(run: () => unknown): PublishError {
  try {
    run();
  } catch (error) {
    if (error instanceof PublishError) return error;
    throw error;
  }
  throw new Error("expected the shrink guard to block");
}

describe("checkShrink", () => {
  const previous = manifest({ music: 60, talks: 40 });

  it("should block a drop of 60% with a message that says how many and how to allow it", () => {
    const error = blocked(() =>
      checkShrink({ previous, next: manifest({ music: 24, talks: 16 }) }),
    );

    expect(error.message).toMatch(
      /^Shrink guard: not publishing, events would drop from 100 to 40 \(-60, 60%; the limit is 50%\)\./,
    );
    expect(error.message).toContain("ALLOW_SHRINK=1");
    expect(error.message).toContain("SHRINK_GUARD_MAX_DROP");
  });

  it("should publish the same drop when allowed for this build, with a warning", () => {
    const result = checkShrink({ previous, next: manifest({ music: 24, talks: 16 }), allow: true });

    expect(result.status).toBe("allowed");
    expect(result.warnings[0]).toMatch(
      /^shrink allowed for this build: events would drop from 100 to 40/,
    );
  });

  it("should publish a drop within a raised limit", () => {
    const result = checkShrink({
      previous,
      next: manifest({ music: 24, talks: 16 }),
      maxDropShare: 0.8,
    });
    expect(result.status).toBe("ok");
  });

  it("should publish growth and small drops", () => {
    expect(checkShrink({ previous, next: manifest({ music: 90, talks: 45 }) }).status).toBe("ok");
    expect(checkShrink({ previous, next: manifest({ music: 55, talks: 35 }) })).toMatchObject({
      status: "ok",
      warnings: [],
    });
  });

  it("should publish a first build", () => {
    expect(checkShrink({ previous: null, next: manifest({ music: 3 }) })).toEqual({
      status: "first-build",
      previousEvents: null,
      nextEvents: 3,
      warnings: [],
    });
  });

  it("should block an emptied site however small it was", () => {
    const error = blocked(() =>
      checkShrink({ previous: manifest({ music: 4 }), next: manifest({ music: 0 }) }),
    );
    expect(error.message).toMatch(/the site would have no events \(it had 4\)/);
  });

  it("should let a small site lose a few events to time passing", () => {
    const result = checkShrink({ previous: manifest({ music: 6 }), next: manifest({ music: 2 }) });
    expect(result.status).toBe("ok");
  });

  it("should block when a sizeable calendar vanishes, naming it", () => {
    const next = manifest({ music: 60, jazz: 10 });
    const error = blocked(() => checkShrink({ previous, next }));
    expect(error.message).toMatch(/calendar "Calendar talks" \(40 events\) would disappear/);
  });

  it("should report a small vanished calendar and a halved one as warnings", () => {
    const before = manifest({ music: 60, talks: 40, kids: 3 });
    const result = checkShrink({
      previous: before,
      next: manifest({ music: 60, talks: 19, extra: 30 }),
    });

    expect(result.status).toBe("ok");
    expect(result.warnings).toEqual([
      'calendar "Calendar talks" would drop from 40 to 19 events',
      'calendar "Calendar kids" (3 events) would disappear',
    ]);
  });

  describe("in a site of several sources", () => {
    /** Two organizations' calendars, and each organization's events as the manifest counts them. */
    const sites = (arts: number, clubs: number): ManifestCounts => ({
      ...manifest({ "arts~music": arts, "clubs~sport": clubs }),
      sources: [
        { id: "arts", name: "Arts Council", events: arts },
        { id: "clubs", name: "Sports Clubs", events: clubs },
      ],
    });

    it("should block one organization losing most of its events while the other grew", () => {
      // 100 + 100 -> 180 + 40: the site's total falls by 20% only.
      const error = blocked(() => checkShrink({ previous: sites(100, 100), next: sites(180, 40) }));
      expect(error.message).toMatch(
        /^Shrink guard: not publishing, source "Sports Clubs"'s events would drop from 100 to 40 \(-60, 60%; the limit is 50%\)\./,
      );
    });

    it("should pass an organization's smaller drop, and one allowed for the build", () => {
      expect(checkShrink({ previous: sites(100, 100), next: sites(100, 60) }).status).toBe("ok");
      const allowed = checkShrink({ previous: sites(100, 100), next: sites(180, 40), allow: true });
      expect(allowed.status).toBe("allowed");
      expect(allowed.warnings[0]).toMatch(/^shrink allowed for this build: source "Sports Clubs"/);
    });

    it("should not count a source taken out of the file as a loss of its own", () => {
      const without: ManifestCounts = {
        ...manifest({ "arts~music": 100, "clubs~sport": 100 }),
        sources: [{ id: "arts", name: "Arts Council", events: 100 }],
      };
      expect(checkShrink({ previous: sites(100, 100), next: without }).status).toBe("ok");
    });
  });
});
