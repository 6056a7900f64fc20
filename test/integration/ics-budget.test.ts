import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import ical from "node-ical";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_ICS_MAX_BYTES } from "../../src/config/site.ts";
import { type RunningPortal, startPortal } from "../../src/portal/index.ts";
import { type CommandRun, DEMO_NOW, runScript } from "../helpers/demo-build.ts";
import { hasPythonModule } from "../helpers/system.ts";
import { tempDir } from "../helpers/temp-dir.ts";
import { type PyCalendar, runPythonParser } from "../outputs/feeds-helpers.ts";
import { icalJsEvents, read } from "./published-site.ts";

/**
 * A large synthetic portal (1,800 events, about 1,500 of them in the
 * subscription window at some 780 bytes each) against the default size
 * budget of 1 MB: the site-wide calendar.ics is trimmed from the far future,
 * keeps every cancellation, says so in the build report and on the subscribe
 * page, and costs no VEVENT more than an untrimmed build.
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
}

function vevents(dir: string, file: string): Vevent[] {
  return icalJsEvents(read(dir, file)).map((event) => ({
    uid: event.uid,
    status: String(event.component.getFirstPropertyValue("status")),
    startMs: event.startDate.toJSDate().getTime(),
  }));
}

describe("subscription size budget", () => {
  let portal: RunningPortal;
  let dir: string;
  let run: CommandRun;
  let counters: Record<string, number>;

  beforeAll(async () => {
    portal = await startPortal({ port: 0, now: DEMO_NOW, seed: 1, synthetic: SYNTHETIC });
    const work = tempDir("ecp-ics-budget-");
    dir = join(work, "_site");
    const metrics = join(work, "metrics.json");
    run = await runScript("src/cli/build.ts", ["--output", dir, "--metrics", metrics], {
      EVENT_API_URL: portal.url,
      EVENT_API_TOKEN: portal.token,
      EVENT_API_CACHE_DIR: join(work, "cache"),
      RENDER_WORKERS: "0",
    });
    if (run.status !== 0) throw new Error(`build failed:\n${run.log}`);
    counters = (JSON.parse(readFileSync(metrics, "utf8")) as { counters: Record<string, number> })
      .counters;
  }, 240_000);

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
    expect(horizon).toBeGreaterThan(Date.parse(DEMO_NOW) + 90 * DAY);
    for (const event of site) {
      if (event.status !== "CANCELLED") expect(event.startMs).toBeLessThan(horizon);
    }
    // Cancellations beyond the horizon are there too.
    expect(site.some((event) => event.status === "CANCELLED" && event.startMs >= horizon)).toBe(
      true,
    );
  });

  it("should give calendar apps a file they read whole", () => {
    const text = read(dir, "calendar.ics");
    const viaNode = Object.values(ical.sync.parseICS(text)).filter(
      (component) => component?.type === "VEVENT",
    );
    expect(viaNode.length).toBe(vevents(dir, "calendar.ics").length);
    expect(text.endsWith("END:VCALENDAR\r\n")).toBe(true);
  });

  it.skipIf(!hasIcalendar)("should be read by Python's icalendar without errors", () => {
    const [parsed] = runPythonParser<PyCalendar[]>("ics-parse.py", [join(dir, "calendar.ics")]);
    expect(parsed?.errors).toEqual([]);
    expect(parsed?.events.length).toBe(vevents(dir, "calendar.ics").length);
  });

  it("should warn in the build report, naming the file", () => {
    const report = run.stdout.slice(run.stdout.indexOf("Build report"));
    expect(report).toMatch(/^ {2}warnings {3}1$/m);
    expect(report).toMatch(
      /^ {4}- \/calendar\.ics would be [\d,]+ bytes, over ICS_MAX_BYTES \(1,000,000 bytes\): left out \d+ events starting from 2026-\d\d-\d\d; now at most [\d,]+ bytes\./m,
    );
  });

  it("should steer subscribers to the calendar and category files on the subscribe page", () => {
    const page = read(dir, "subscribe/index.html");
    const notices = page.match(/class="notice trim-notice"/g) ?? [];
    // The site-wide panel only: the calendars' and categories' files are whole.
    expect(notices).toHaveLength(1);
    expect(page.indexOf("trim-notice")).toBeLessThan(page.indexOf('id="subscribe-calendar-'));
    expect(page).toMatch(/carries the events until \d+ \w+ 2026 at \d\d:\d\d only/);
    expect(page.match(/id="subscribe-calendar-cal-00\d"/g)).toHaveLength(CALENDARS.length);
    const category = /id="subscribe-category-([^"]+)"/.exec(page)?.[1];
    expect(category).toBeDefined();
    const categoryPage = read(dir, `categories/${category}/index.html`);
    expect(categoryPage).toContain(`id="subscribe-${category}"`);
    expect(categoryPage).not.toContain("trim-notice");
    expect(read(dir, "calendars/cal-001/index.html")).not.toContain("trim-notice");
  });

  it("should compute each event's VEVENT once, trimming included", () => {
    expect(counters["rendered.event.ics"]).toBe(EVENTS);
    expect(counters["ics.vevents"]).toBe(EVENTS);
  });
});
