import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type ICAL from "ical.js";
import { DateTime } from "luxon";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_ICS_MAX_BYTES } from "../../src/config/site.ts";
import { DEMO_ZONE } from "../../src/portal/demo-content.ts";
import { createSyntheticDataset, type RunningPortal, startPortal } from "../../src/portal/index.ts";
import { NOW, NOW_MS } from "../helpers/clock.ts";
import { type CommandRun, runScript } from "../helpers/demo-build.ts";
import { readSiteFile } from "../helpers/files.ts";
import { icalJsEvents, nodeIcalEvents } from "../helpers/ics-readers.ts";
import { parseIcs } from "../helpers/python-readers.ts";
import { hasPythonModule } from "../helpers/system-packages.ts";
import { tempDir } from "../helpers/temp-dir.ts";

/**
 * A large synthetic portal (1,800 events, about 1,500 of them in the
 * subscription window at some 780 bytes each) against the default size
 * budget of 1 MB: the site-wide calendar.ics is trimmed from the far future,
 * keeps every cancellation, says so in the build report and on the subscribe
 * page, and costs no VEVENT more than an untrimmed build. Then a portal whose
 * cancellations alone are over the budget: the file still fits, with the
 * cancellations nearest to now.
 */

const hasIcalendar = hasPythonModule("icalendar");
const SYNTHETIC = { calendars: 3, eventsPerCalendar: 600 };
const EVENTS = SYNTHETIC.calendars * SYNTHETIC.eventsPerCalendar;
const CALENDARS = ["cal-001", "cal-002", "cal-003"];
const DAY = 86_400_000;

interface Vevent {
  readonly uid: string;
  readonly status: string;
  readonly startMs: number;
  readonly endMs: number;
}

function vevents(dir: string, file: string): Vevent[] {
  return icalJsEvents(readSiteFile(dir, file)).map((event) => ({
    uid: event.uid,
    status: String(event.component.getFirstPropertyValue("status")),
    startMs: instant(event.startDate),
    endMs: instant(event.endDate),
  }));
}

/**
 * Epoch ms. A DATE (all-day event) is a local midnight of the synthetic
 * events' zone, as the build reads it: ical.js would take the host's zone.
 */
function instant(time: ICAL.Time): number {
  if (!time.isDate) return time.toJSDate().getTime();
  const { year, month, day } = time;
  return DateTime.fromObject({ year, month, day }, { zone: DEMO_ZONE }).toMillis();
}

const buildReport = (run: CommandRun) => run.stdout.slice(run.stdout.indexOf("Build report"));

describe("subscription size budget", () => {
  let portal: RunningPortal;
  let dir: string;
  let run: CommandRun;
  let counters: Record<string, number>;

  beforeAll(async () => {
    portal = await startPortal({ port: 0, now: NOW, seed: 1, synthetic: SYNTHETIC });
    const work = tempDir("ecp-ics-budget-");
    dir = join(work, "_site");
    const metrics = join(work, "metrics.json");
    run = await runScript("src/cli/build.ts", ["--output", dir, "--metrics", metrics], {
      EVENT_API_URL: portal.url,
      EVENT_API_TOKEN: portal.token,
      EVENT_API_CACHE_DIR: join(work, "cache"),
      // About calendar files: without the 7,200 share cards 1,800 events would have.
      SHARE_CARDS: "off",
      // A complete accessibility statement: the report's one warning is the budget's.
      ACCESSIBILITY_CONTACT: "access@example.org",
      ACCESSIBILITY_STATEMENT_DATE: "2026-03-01",
    });
    if (run.status !== 0) throw new Error(`build failed:\n${run.log}`);
    counters = (JSON.parse(readFileSync(metrics, "utf8")) as { counters: Record<string, number> })
      .counters;
  });

  afterAll(async () => {
    await portal?.close();
  });

  it("should keep the site-wide calendar under the budget and leave the far future out, never a cancellation", () => {
    expect(statSync(join(dir, "calendar.ics")).size).toBeLessThanOrEqual(DEFAULT_ICS_MAX_BYTES);
    const site = vevents(dir, "calendar.ics");
    // The calendars' own files fit: together they hold the whole window.
    const whole = CALENDARS.flatMap((calendar) =>
      vevents(dir, `calendars/${calendar}/calendar.ics`),
    );
    for (const calendar of CALENDARS) {
      expect(statSync(join(dir, `calendars/${calendar}/calendar.ics`)).size).toBeLessThan(
        DEFAULT_ICS_MAX_BYTES,
      );
    }
    const kept = new Set(site.map((event) => event.uid));
    const left = whole.filter((event) => !kept.has(event.uid));
    expect(site.length).toBeGreaterThan(1000);
    expect(left.length).toBeGreaterThan(50);
    // Every cancellation is kept; what was left out is the far future only.
    const cancelled = whole.filter((event) => event.status === "CANCELLED");
    expect(cancelled.length).toBeGreaterThan(10);
    for (const event of cancelled) expect(kept, event.uid).toContain(event.uid);
    const horizon = Math.min(...left.map((event) => event.startMs));
    expect(horizon).toBeGreaterThan(NOW_MS + 90 * DAY);
    for (const event of site) {
      if (event.status !== "CANCELLED") expect(event.startMs).toBeLessThan(horizon);
    }
    // Cancellations beyond the horizon are there too.
    expect(site.some((event) => event.status === "CANCELLED" && event.startMs >= horizon)).toBe(
      true,
    );
  });

  it("should give calendar apps a file they read whole", () => {
    const text = readSiteFile(dir, "calendar.ics");
    const viaNode = nodeIcalEvents(text);
    expect(viaNode.length).toBe(vevents(dir, "calendar.ics").length);
    expect(text.endsWith("END:VCALENDAR\r\n")).toBe(true);
  });

  it.skipIf(!hasIcalendar)("should be read by Python's icalendar without errors", () => {
    const [parsed] = parseIcs([join(dir, "calendar.ics")]);
    expect(parsed?.errors).toEqual([]);
    expect(parsed?.events.length).toBe(vevents(dir, "calendar.ics").length);
  });

  it("should warn in the build report, naming the file", () => {
    const report = buildReport(run);
    expect(report).toMatch(/^ {2}warnings {3}1$/m);
    expect(report).toMatch(
      /^ {4}- \/calendar\.ics would be [\d,]+ bytes, over ICS_MAX_BYTES \(1,000,000 bytes\): left out \d+ events starting from 2026-\d\d-\d\d; now at most [\d,]+ bytes\./m,
    );
  });

  it("should steer subscribers to the calendar and category files on the subscribe page", () => {
    const page = readSiteFile(dir, "subscribe/index.html");
    const notices = page.match(/class="notice trim-notice"/g) ?? [];
    // The site-wide panel only: the calendars' and categories' files are whole.
    expect(notices).toHaveLength(1);
    expect(page.indexOf("trim-notice")).toBeLessThan(page.indexOf('id="subscribe-calendar-'));
    expect(page).toMatch(/carries the events until \d+ \w+ 2026 at \d\d:\d\d only/);
    expect(page.match(/id="subscribe-calendar-cal-00\d"/g)).toHaveLength(CALENDARS.length);
    const category = /id="subscribe-category-([^"]+)"/.exec(page)?.[1];
    expect(category).toBeDefined();
    const categoryPage = readSiteFile(dir, `categories/${category}/index.html`);
    expect(categoryPage).toContain(`id="subscribe-${category}"`);
    expect(categoryPage).not.toContain("trim-notice");
    expect(readSiteFile(dir, "calendars/cal-001/index.html")).not.toContain("trim-notice");
  });

  it("should compute each event's VEVENT once, trimming included", () => {
    expect(counters["rendered.event.ics"]).toBe(EVENTS);
    expect(counters["ics.vevents"]).toBe(EVENTS);
  });
});

/**
 * Five in six events cancelled (a venue closed for a season): some 1,000
 * cancellations in the window, more than twice a budget of 300 KB (set lower
 * than the default for a smaller portal, the same cut). With
 * CANCELLED_GRACE_DAYS at 60, cancellations reach as far back as the
 * portal's events, so both ends are cut.
 */
describe("subscription size budget, with more cancellations than it holds", () => {
  const PORTAL = { calendars: 4, eventsPerCalendar: 300, keepEvery: 6 };
  const BUDGET = 300_000;
  let portal: RunningPortal;
  let dir: string;
  let run: CommandRun;

  /** How far from now an event is, for its cancellation: by its start ahead, by its end when over. */
  const distance = (event: Vevent) =>
    event.startMs > NOW_MS ? event.startMs - NOW_MS : Math.max(0, NOW_MS - event.endMs);

  beforeAll(async () => {
    const dataset = createSyntheticDataset({
      calendars: PORTAL.calendars,
      eventsPerCalendar: PORTAL.eventsPerCalendar,
      seed: 1,
      now: NOW,
    });
    const events = dataset.events.map((event, index) =>
      index % PORTAL.keepEvery === 0
        ? { ...event, status: "scheduled" as const }
        : { ...event, status: "cancelled" as const },
    );
    portal = await startPortal({ port: 0, now: NOW, dataset: { ...dataset, events } });
    const work = tempDir("ecp-ics-budget-cancelled-");
    dir = join(work, "_site");
    run = await runScript("src/cli/build.ts", ["--output", dir], {
      EVENT_API_URL: portal.url,
      EVENT_API_TOKEN: portal.token,
      EVENT_API_CACHE_DIR: join(work, "cache"),
      CANCELLED_GRACE_DAYS: "60",
      ICS_MAX_BYTES: String(BUDGET),
      SHARE_CARDS: "off",
      // A complete accessibility statement: the report's one warning is the budget's.
      ACCESSIBILITY_CONTACT: "access@example.org",
      ACCESSIBILITY_STATEMENT_DATE: "2026-03-01",
    });
    if (run.status !== 0) throw new Error(`build failed:\n${run.log}`);
  });

  afterAll(async () => {
    await portal?.close();
  });

  const calendarFiles = () =>
    Array.from(
      { length: PORTAL.calendars },
      (_, i) => `calendars/cal-${String(i + 1).padStart(3, "0")}/calendar.ics`,
    );

  /** The whole window, from the calendars' own files, which fit. */
  const whole = () =>
    calendarFiles().flatMap((file) => {
      expect(statSync(join(dir, file)).size, file).toBeLessThan(BUDGET);
      return vevents(dir, file);
    });

  it("should keep the site-wide calendar under the budget with the cancellations nearest to now", () => {
    const cancelled = whole().filter((event) => event.status === "CANCELLED");
    // The premise: their VEVENTs alone are more than twice the budget.
    const cancelledBytes = calendarFiles()
      .flatMap((file) => readSiteFile(dir, file).split("BEGIN:VEVENT\r\n").slice(1))
      .filter((vevent) => vevent.includes("\r\nSTATUS:CANCELLED\r\n"))
      .reduce((sum, vevent) => sum + Buffer.byteLength(`BEGIN:VEVENT\r\n${vevent}`), 0);
    expect(cancelledBytes).toBeGreaterThan(2 * BUDGET);

    expect(statSync(join(dir, "calendar.ics")).size).toBeLessThanOrEqual(BUDGET);
    const site = vevents(dir, "calendar.ics");
    // Every other event went first: only cancellations are left.
    expect(site.length).toBeGreaterThan(250);
    expect(site.every((event) => event.status === "CANCELLED")).toBe(true);

    const kept = new Set(site.map((event) => event.uid));
    const left = cancelled.filter((event) => !kept.has(event.uid));
    expect(kept.size + left.length).toBe(cancelled.length);
    // Those left out are all farther from now than any kept, on both sides of now.
    const farthestKept = Math.max(...site.map(distance));
    const nearestLeft = Math.min(...left.map(distance));
    expect(farthestKept).toBeLessThanOrEqual(nearestLeft);
    expect(left.filter((event) => event.startMs > NOW_MS).length).toBeGreaterThan(30);
    expect(left.filter((event) => event.endMs < NOW_MS).length).toBeGreaterThan(30);
    // Cancellations of events under way are kept, and weeks on either side.
    expect(site.some((event) => event.startMs <= NOW_MS && event.endMs >= NOW_MS)).toBe(true);
    expect(farthestKept).toBeGreaterThan(30 * DAY);
  });

  it("should give calendar apps a file they read whole", () => {
    const text = readSiteFile(dir, "calendar.ics");
    const viaNode = nodeIcalEvents(text);
    expect(viaNode.length).toBe(vevents(dir, "calendar.ics").length);
    expect(viaNode.every((event) => event.type === "VEVENT" && event.status === "CANCELLED")).toBe(
      true,
    );
  });

  it("should name in the build report the cancellations left out and their dates", () => {
    const report = buildReport(run);
    expect(report).toMatch(/^ {2}warnings {3}1$/m);
    const warning = /^ {4}- (\/calendar\.ics would be .*)$/m.exec(report)?.[1] ?? "";
    expect(warning).toMatch(
      /^\/calendar\.ics would be [\d,]+ bytes, over ICS_MAX_BYTES \(300,000 bytes\): left out [\d,]+ events starting from \d{4}-\d\d-\d\d, left out [\d,]+ past events, (left out [\d,]+ events? under way, )?left out [\d,]+ cancellations of events starting from \d{4}-\d\d-\d\d, left out [\d,]+ cancellations of events that ended by \d{4}-\d\d-\d\d; now at most [\d,]+ bytes\./,
    );
    const kept = new Set(vevents(dir, "calendar.ics").map((event) => event.uid));
    const left = whole().filter((event) => event.status === "CANCELLED" && !kept.has(event.uid));
    const ahead = left.filter((event) => event.startMs > NOW_MS);
    const over = left.filter((event) => event.endMs < NOW_MS);
    expect(ahead.length + over.length).toBe(left.length);
    const date = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    expect(warning).toContain(
      `left out ${ahead.length.toLocaleString("en-US")} cancellations of events starting from ${date(Math.min(...ahead.map((e) => e.startMs)))}`,
    );
    expect(warning).toContain(
      `left out ${over.length.toLocaleString("en-US")} cancellations of events that ended by ${date(Math.max(...over.map((e) => e.endMs)))}`,
    );
  });

  it.skipIf(!hasIcalendar)("should be read by Python's icalendar without errors", () => {
    const [parsed] = parseIcs([join(dir, "calendar.ics")]);
    expect(parsed?.errors).toEqual([]);
    expect(parsed?.events.length).toBe(vevents(dir, "calendar.ics").length);
  });
});
