import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MIN_HORIZON_DAYS } from "../../src/outputs/ics-budget.ts";
import { type PortalDataset, type RunningPortal, startPortal } from "../../src/portal/index.ts";
import { createSyntheticDataset } from "../../src/portal/synthetic-dataset.ts";
import { hoursAfterNow, NOW, NOW_MS } from "../helpers/clock.ts";
import { portalEvent } from "../helpers/events.ts";
import { meteredBuild } from "../helpers/metered-build.ts";
import { tempDir } from "../helpers/temp-dir.ts";

/*
 * A calendar file over its size budget (ICS_MAX_BYTES) is cut by what is far
 * ahead of the clock (src/outputs/ics-budget.ts): an event left out for
 * starting more than MIN_HORIZON_DAYS ahead is carried again once it comes
 * within them, though no event ended and no day began. That is a moment of
 * the build's next date change: the rebuild check asks for a build then
 * (the build state's nextChange), and a later build before it trusts the
 * page record (src/eleventy/page-record.ts), whose calendar pages say how
 * their file was cut. Here one calendar's file leaves out its far event for
 * two hours; an edit in another calendar three hours later must not keep
 * the first calendar's page as it was.
 */

const DAY_MS = 86_400_000;
/** The far event: coming within the horizon two hours after NOW. */
const FAR_START = new Date(NOW_MS + MIN_HORIZON_DAYS * DAY_MS + 2 * 3_600_000);
const LATER = hoursAfterNow(3);
const LONG = `<p>${"A long description of a concert, with everything about it. ".repeat(25)}</p>`;

/** Six evenings in ten days and the far one, in cal-001; one event in cal-002 to edit. */
function dataset(): PortalDataset {
  const base = createSyntheticDataset({ calendars: 2, eventsPerCalendar: 1, seed: 1, now: NOW });
  const stamped = (fields: Parameters<typeof portalEvent>[0]) => ({
    ...portalEvent(fields),
    revision: 1,
    createdAt: "2026-03-01T00:00:00Z",
    updatedAt: "2026-03-01T00:00:00Z",
  });
  const evening = (day: number) => new Date(NOW_MS + day * DAY_MS + 6 * 3_600_000);
  const hoursLater = (date: Date, hours: number) => new Date(date.getTime() + hours * 3_600_000);
  const iso = (date: Date) => date.toISOString().replace(".000Z", "Z");
  return {
    ...base,
    events: [
      ...[10, 11, 12, 13, 14, 15].map((day) =>
        stamped({
          id: `evening-${day}`,
          calendarId: "cal-001",
          title: `Evening concert ${day}`,
          start: iso(evening(day)),
          end: iso(hoursLater(evening(day), 2)),
          description: LONG,
        }),
      ),
      stamped({
        id: "far",
        calendarId: "cal-001",
        title: "Summer concert",
        start: iso(FAR_START),
        end: iso(hoursLater(FAR_START, 2)),
        description: LONG,
      }),
      stamped({
        id: "other",
        calendarId: "cal-002",
        title: "Walk",
        start: iso(evening(20)),
        end: iso(hoursLater(evening(20), 2)),
      }),
    ],
  };
}

let portal: RunningPortal;
const work = tempDir("ecp-budget-date-");

beforeAll(async () => {
  portal = await startPortal({ port: 0, now: NOW, dataset: dataset() });
});

afterAll(async () => {
  await portal.close();
});

const readSite = (site: string, path: string) => readFileSync(join(site, path), "utf8");
const CALENDAR_FILE = "calendars/cal-001/calendar.ics";
const CALENDAR_PAGE = "calendars/cal-001/index.html";
/** What the calendar's page says of its file's cut. */
const trimNotice = (html: string) => /<p class="notice trim-notice">(.*?)<\/p>/s.exec(html)?.[1];

let count = 0;
function build(name: string, now: string, env: Record<string, string>) {
  const site = join(work, name, "site");
  return meteredBuild(site, {
    portal,
    cacheDir: join(work, name, "cache"),
    metricsFile: join(work, `metrics-${++count}.json`),
    env: { SITE_NOW: now, SHARE_CARDS: "off", ...env },
  }).then((metrics) => ({ site, metrics }));
}

describe("a calendar file cut to its size budget", () => {
  it("should be built again when the clock alone cuts it otherwise, and its page with it", async () => {
    // The file's size whole, and its far event's: the budget leaves out the far one alone.
    const whole = await build("whole", NOW, {});
    const file = readSite(whole.site, CALENDAR_FILE);
    const far = file.split("BEGIN:VEVENT").find((part) => part.includes("SUMMARY:Summer concert"));
    const budget = Buffer.byteLength(file) - Math.floor(Buffer.byteLength(far ?? "") / 2);
    const settings = { ICS_MAX_BYTES: String(budget), PAGE_RECORD: "on" };

    const first = await build("site", NOW, settings);
    expect(readSite(first.site, CALENDAR_FILE)).not.toContain("Summer concert");
    expect(trimNotice(readSite(first.site, CALENDAR_PAGE))).toContain("until");
    const state = JSON.parse(readSite(first.site, "api/build-state.json")) as {
      nextChange: { at: string; reason: string } | null;
    };
    expect(Date.parse(state.nextChange?.at ?? "")).toBe(
      FAR_START.getTime() - MIN_HORIZON_DAYS * DAY_MS,
    );
    expect(state.nextChange?.reason).toContain("size budget");

    // Three hours on, an edit elsewhere: the record may not vouch for the page of the cut file.
    portal.updateEvent("cal-002", "other", { title: "Evening walk" });
    const later = await build("site", LATER, settings);
    const fresh = await build("fresh", LATER, settings);
    expect(readSite(later.site, CALENDAR_FILE)).toContain("Summer concert");
    expect(readSite(later.site, CALENDAR_FILE)).toBe(readSite(fresh.site, CALENDAR_FILE));
    expect(trimNotice(readSite(later.site, CALENDAR_PAGE))).toBe(
      trimNotice(readSite(fresh.site, CALENDAR_PAGE)),
    );
    expect(trimNotice(readSite(later.site, CALENDAR_PAGE))).not.toContain("until");
  }, 180_000);
});
