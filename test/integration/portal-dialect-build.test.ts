import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DateTime } from "luxon";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { paths } from "../../src/model/url-scheme.ts";
import type { PublicEventsDocument } from "../../src/outputs/public-json-types.ts";
import {
  type DatasetEvent,
  type PortalDataset,
  type RunningPortal,
  startPortal,
} from "../../src/portal/index.ts";
import { NOW } from "../helpers/clock.ts";
import { type CommandRun, runScript } from "../helpers/demo-build.ts";
import { icalJsEvents } from "../helpers/ics-readers.ts";
import { envFileLines } from "../helpers/shell.ts";

/** Three zones, each with a clock change near the pinned build clock (2026-03-20). */
const ZONES = {
  prague: "Europe/Prague", // summer time from 29 March 2026
  "new-york": "America/New_York", // winter time from 1 November 2026
  sydney: "Australia/Sydney", // winter time from 5 April 2026
} as const;

type CalendarId = keyof typeof ZONES;

interface Planned {
  readonly calendarId: CalendarId;
  readonly id: string;
  readonly start: string;
  readonly end: string;
  readonly allDay?: boolean;
  readonly cancelled?: boolean;
  /** The instants (or dates) the published event must carry. */
  readonly published: { readonly start: string; readonly end: string };
}

/** The same wall-clock evening on both sides of each zone's change, an event across the change, an all-day day and a cancellation. */
const PLANNED: readonly Planned[] = [
  planned("prague", "p-before", "2026-03-26T19:00", "2026-03-26T21:00", "+01:00"),
  planned("prague", "p-after", "2026-04-02T19:00", "2026-04-02T21:00", "+02:00"),
  {
    calendarId: "prague",
    id: "p-night",
    start: "2026-03-29T01:30",
    end: "2026-03-29T04:00",
    published: { start: "2026-03-29T01:30:00+01:00", end: "2026-03-29T04:00:00+02:00" },
  },
  planned("new-york", "ny-before", "2026-10-29T19:00", "2026-10-29T21:00", "-04:00"),
  planned("new-york", "ny-after", "2026-11-05T19:00", "2026-11-05T21:00", "-05:00", true),
  planned("sydney", "syd-before", "2026-04-02T19:00", "2026-04-02T21:00", "+11:00"),
  planned("sydney", "syd-after", "2026-04-09T19:00", "2026-04-09T21:00", "+10:00"),
  {
    calendarId: "sydney",
    id: "syd-day",
    start: "2026-04-05",
    end: "2026-04-06",
    allDay: true,
    published: { start: "2026-04-05T00:00:00+11:00", end: "2026-04-06T00:00:00+10:00" },
  },
];

function planned(
  calendarId: CalendarId,
  id: string,
  start: string,
  end: string,
  offset: string,
  cancelled = false,
): Planned {
  return {
    calendarId,
    id,
    start,
    end,
    cancelled,
    published: { start: `${start}:00${offset}`, end: `${end}:00${offset}` },
  };
}

/** The dataset in the contract's form; the portal's dialect rewrites it on the wire. */
function dataset(): PortalDataset {
  const iso = (local: string, zone: string, allDay: boolean | undefined) =>
    allDay
      ? local
      : (DateTime.fromISO(local, { zone }).toISO({ suppressMilliseconds: true }) as string);
  return {
    version: 1,
    organizations: [{ id: "org", name: "Three Cities" }],
    calendars: Object.entries(ZONES).map(([id, timeZone]) => ({
      id,
      name: `Events in ${timeZone}`,
      description: "",
      timeZone,
      color: null,
      updatedAt: "2026-03-01T00:00:00Z",
      organizations: ["org"],
    })),
    events: PLANNED.map(
      (event, n): DatasetEvent => ({
        id: event.id,
        calendarId: event.calendarId,
        title: `Evening ${event.id}`,
        start: iso(event.start, ZONES[event.calendarId], event.allDay),
        end: iso(event.end, ZONES[event.calendarId], event.allDay),
        allDay: event.allDay ?? false,
        timeZone: ZONES[event.calendarId],
        status: event.cancelled ? "cancelled" : "scheduled",
        revision: 1,
        createdAt: "2026-02-01T10:00:00Z",
        updatedAt: `2026-03-0${1 + (n % 9)}T10:00:00Z`,
        summary: `Summary of ${event.id}`,
        description: `<p>About ${event.id}.</p>`,
        location: { name: "Hall", address: null, geo: { lat: 50.087, lon: 14.421 } },
        onlineUrl: null,
        attendanceMode: "offline",
        image: null,
        categories: [{ id: "evenings", name: "Evenings" }],
        organizer: { name: "Three Cities", email: null, url: null },
        registrationUrl: null,
      }),
    ),
  };
}

describe("a build from the settings check-api proposes, saved as a .env file", () => {
  let portal: RunningPortal;
  let work: string;
  let site: string;
  let build: CommandRun;
  let check: CommandRun;

  beforeAll(async () => {
    portal = await startPortal({
      port: 0,
      now: NOW,
      dataset: dataset(),
      dialect: "variant",
      auth: "header:X-Api-Key",
      paging: "envelope-links",
      pageSizeMax: 2,
    });
    const start = { EVENT_API_URL: portal.url, EVENT_API_TOKEN: portal.token };
    // The real command, from a new user's start: URL and token only.
    check = await runScript("src/cli/check-api.ts", [], start);
    // Saved as a settings file, as a site owner would keep them; the token stays in the environment.
    work = mkdtempSync(join(tmpdir(), "ecp-dialect-build-"));
    const envFile = join(work, "portal.env");
    writeFileSync(envFile, envFileLines(check.stdout));
    const output = join(work, "_site");
    build = await runScript("src/cli/build.ts", ["--output", output], {
      ENV_FILE: envFile,
      EVENT_API_TOKEN: portal.token,
      EVENT_API_CACHE_DIR: join(work, ".cache"),
    });
    site = output;
  });

  afterAll(async () => {
    await portal?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it("should get one block from check-api that the build accepts", () => {
    expect(check.status).toBe(1);
    expect(check.stdout).toContain(
      "The portal accepts the token as EVENT_API_AUTH=header:X-Api-Key.",
    );
    expect(check.stdout).toMatch(
      /^export EVENT_API_FIELD_MAP='\{.*"event":\{"start":"dateFrom","end":"dateTo",/m,
    );
    expect(check.log).not.toContain(portal.token);
    expect(build.status, build.log).toBe(0);
    expect(build.log).not.toContain(portal.token);
  });

  it("should publish every event at its portal time in its own zone, across the clock changes", () => {
    for (const calendarId of Object.keys(ZONES) as CalendarId[]) {
      const file = join(site, "api", "calendars", calendarId, "events.json");
      const document = JSON.parse(readFileSync(file, "utf8")) as PublicEventsDocument;
      const got = document.events.map((event) => ({
        id: event.id,
        start: event.start,
        end: event.end,
        allDay: event.allDay,
        timeZone: event.timeZone,
        status: event.status,
        summary: event.summary,
      }));
      // The mirror lists events by start.
      const want = PLANNED.filter((event) => event.calendarId === calendarId)
        .sort((a, b) => Date.parse(a.published.start) - Date.parse(b.published.start))
        .map((event) => ({
          id: event.id,
          ...event.published,
          allDay: event.allDay ?? false,
          timeZone: ZONES[calendarId],
          status: event.cancelled ? "cancelled" : "scheduled",
          summary: `Summary of ${event.id}`,
        }));
      expect(got, calendarId).toEqual(want);
    }
  });

  it("should give calendar apps the same instants, with each event's zone (ical.js)", () => {
    for (const event of PLANNED.filter((e) => !e.allDay)) {
      const folder = paths.event(event.calendarId, event.id).slice(1);
      const [vevent] = icalJsEvents(readFileSync(join(site, folder, "event.ics"), "utf8"));
      expect(vevent?.startDate.zone?.tzid, event.id).toBe(ZONES[event.calendarId]);
      expect(vevent?.startDate.toJSDate().toISOString(), event.id).toBe(
        new Date(event.published.start).toISOString(),
      );
      expect(vevent?.endDate.toJSDate().toISOString(), event.id).toBe(
        new Date(event.published.end).toISOString(),
      );
      // Wall-clock time as the portal entered it.
      expect(vevent?.startDate.toString().slice(0, 16), event.id).toBe(event.start);
    }
    const day = PLANNED.find((e) => e.allDay) as Planned;
    const folder = paths.event(day.calendarId, day.id).slice(1);
    const [allDay] = icalJsEvents(readFileSync(join(site, folder, "event.ics"), "utf8"));
    expect(allDay?.startDate.isDate).toBe(true);
    expect(allDay?.startDate.toString()).toBe(day.start);
    expect(allDay?.endDate.toString()).toBe(day.end);
  });
});
