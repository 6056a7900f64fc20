import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DateTime } from "luxon";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readApiConfig } from "../../src/config/api.ts";
import type { PortalSnapshot } from "../../src/model/types.ts";
import {
  selectFeedEvents,
  selectSubscriptionEvents,
  timedEvents,
} from "../../src/outputs/feeds-window.ts";
import { PublicJson } from "../../src/outputs/public-json.ts";
import { type RunningPortal, startPortal } from "../../src/portal/index.ts";
import { DateChanges, nextDateChange } from "../../src/rebuild/next-change.ts";
import { buildViews } from "../../src/site/views.ts";
import { loadSnapshot } from "../../src/snapshot/load-snapshot.ts";
import { NOW, NOW_DATETIME, NOW_MS } from "../helpers/clock.ts";

/**
 * The next date-relative change must be exactly when an output first differs:
 * nothing published changes before it (no missed moment), and an event moment
 * changes something (no needless build). Checked by rendering the
 * date-relative parts of every output (page views, feeds, subscriptions,
 * public JSON) just before and at each moment, over many moments of the demo.
 */

const ZONE = "Europe/Amsterdam";
const WINDOWS = { pastDays: 365, feedPastDays: 30, cancelledGraceDays: 30, timeZone: ZONE };
let portal: RunningPortal;
let snapshot: PortalSnapshot;

let cacheDir: string;

beforeAll(async () => {
  portal = await startPortal({ port: 0, now: NOW });
  cacheDir = mkdtempSync(join(tmpdir(), "ecp-next-change-"));
  ({ snapshot } = await loadSnapshot({
    config: readApiConfig({
      EVENT_API_URL: portal.url,
      EVENT_API_TOKEN: portal.token,
      EVENT_API_CACHE_DIR: cacheDir,
    }),
    defaultTimeZone: ZONE,
    now: new Date(NOW),
    sink: null,
  }));
});

afterAll(async () => {
  await portal.close();
  rmSync(cacheDir, { recursive: true, force: true });
});

/** Every date-relative output of a build at `ms`, as one comparable text. */
function outputsAt(ms: number): string {
  const now = DateTime.fromMillis(ms, { zone: "utc" });
  const views = buildViews(snapshot, { now, pastDays: WINDOWS.pastDays, timeZone: ZONE });
  const timed = timedEvents(snapshot.events, () => undefined);
  const ids = (list: readonly { event: { id: string } }[]) => list.map((t) => t.event.id);
  const site = { url: "https://events.example.org", now, pastDays: WINDOWS.pastDays };
  return JSON.stringify({
    events: views.events.map((e) => e.id),
    upcoming: views.upcoming.map((e) => e.id),
    today: views.monthPages.flatMap((m) =>
      m.weeks
        .flat()
        .filter((d) => d.isToday)
        .map((d) => d.date),
    ),
    month: now.setZone(ZONE).toFormat("yyyy-MM"),
    feeds: ids(
      selectFeedEvents(timed, { now, feedPastDays: WINDOWS.feedPastDays, feedMaxItems: 200 }),
    ),
    subscriptions: ids(selectSubscriptionEvents(timed, { now, ...WINDOWS })),
    calendarsJson: new PublicJson(snapshot, site).calendarsJson(),
  });
}

describe("nextDateChange", () => {
  it("should name the first moment at which an output changes, moment after moment", () => {
    let nowMs = NOW_MS;
    const kinds = new Set<string>();
    for (let step = 0; step < 25; step++) {
      const next = nextDateChange(
        snapshot,
        { now: DateTime.fromMillis(nowMs, { zone: "utc" }), ...WINDOWS },
        0,
      );
      expect(next).not.toBeNull();
      const at = next?.at ?? 0;
      expect(at).toBeGreaterThan(nowMs);
      const before = outputsAt(nowMs);
      expect(outputsAt(at - 1), `nothing may change before ${next?.reason}`).toBe(before);
      if (!next?.reason.startsWith("the day changes")) {
        expect(outputsAt(at), `${next?.reason} changes an output`).not.toBe(before);
      }
      kinds.add(next?.reason.replace(/^event .* in calendar "[^"]+" /, "") ?? "");
      nowMs = at;
    }
    expect([...kinds].sort()).toEqual(
      expect.arrayContaining(["ends", "the day changes in Europe/Amsterdam"]),
    );
  });

  it("should answer as the rebuild check's sorted moments do, at every moment and between", () => {
    // A build asks once, in one pass; the check asks many times, by search:
    // the same rule must give the same change either way.
    const changes = new DateChanges(snapshot, WINDOWS);
    let nowMs = NOW_MS - 40 * 86_400_000;
    const reasons = new Set<string>();
    for (let step = 0; step < 200; step++) {
      for (const at of [nowMs, nowMs + 1_800_000]) {
        const now = DateTime.fromMillis(at, { zone: "utc" });
        const once = nextDateChange(snapshot, { now, ...WINDOWS }, 7_200_000);
        expect(once).toEqual(changes.next(now, 7_200_000));
        reasons.add(once?.reason ?? "");
      }
      nowMs = changes.next(DateTime.fromMillis(nowMs, { zone: "utc" }), 0)?.at ?? nowMs + 1;
    }
    expect(reasons.size).toBeGreaterThan(50);
  });

  it("should let event moments wait for the delay, but never the day change", () => {
    const now = NOW_DATETIME;
    const exact = nextDateChange(snapshot, { now, ...WINDOWS }, 0);
    const delayed = nextDateChange(snapshot, { now, ...WINDOWS }, 3_600_000);
    const midnight = now.setZone(ZONE).startOf("day").plus({ days: 1 }).toMillis();

    expect(exact?.rebuildAt).toBe(exact?.at);
    expect(delayed?.at).toBe(exact?.at);
    expect(delayed?.rebuildAt).toBe(Math.min((exact?.at ?? 0) + 3_600_000, midnight));
    const longDelay = nextDateChange(snapshot, { now, ...WINDOWS }, 7 * 86_400_000);
    expect(longDelay?.rebuildAt).toBe(midnight);
    expect(longDelay?.rebuildReason).toBe("the day changes in Europe/Amsterdam");
  });
});
