import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { DateTime } from "luxon";
import { ListRecorder } from "../src/api/list-recorder.ts";
import { calendarIdOf, PortalClient } from "../src/api/portal-client.ts";
import { defineCommand, readCommandLine } from "../src/cli/command-line.ts";
import { type ApiConfig, readApiConfig } from "../src/config/api.ts";
import { DEFAULT_DATE_DELAY_MS } from "../src/config/publish.ts";
import { readSiteConfig } from "../src/config/site.ts";
import { normalizeSnapshot } from "../src/model/normalize-snapshot.ts";
import type { PortalSnapshot } from "../src/model/types.ts";
import type { WireRecord } from "../src/model/wire.ts";
import { createSyntheticDataset, type RunningPortal, startPortal } from "../src/portal/index.ts";
import { DateChanges } from "../src/rebuild/next-change.ts";
import { rebuildIfChanged } from "../src/rebuild/rebuild-if-changed.ts";
import { writePublishedState } from "../test/helpers/build-state.ts";

/**
 * The rebuild check, measured (docs/deploy.md, "What a check costs"):
 *  - requests, bytes read and seconds of one check at each size, against the
 *    reference portal with `latencyMs` per request: unchanged (every page 304)
 *    and after one edit; with the portal's default pages (50 events), and at
 *    the largest size also with pages of 100 (`EVENT_API_PAGE_SIZE`);
 *  - builds requested over a simulated day, checking every `intervalMinutes`:
 *    with no portal change (date-relative builds only) at every size, and,
 *    at the smallest size, with real checks against the portal while `edits`
 *    events change at scattered moments, with the delay from each edit to the
 *    hook call.
 * The published state is made from the portal's lists exactly as the build
 * records them (ListRecorder, writeBuildState) but without fetching every
 * event's details, which the check never reads. Loopback only; every loop is
 * bounded (one day of checks).
 */

export interface RebuildCheckBenchOptions {
  readonly sizes?: readonly (readonly [calendars: number, eventsPerCalendar: number])[];
  /** Page sizes asked for (`limit`) at the largest size, besides the portal's default. */
  readonly largerPages?: readonly number[];
  readonly latencyMs?: number;
  readonly intervalMinutes?: number;
  readonly edits?: number;
  readonly dateDelayMs?: number;
  readonly log?: (line: string) => void;
}

export interface CheckCost {
  readonly events: number;
  readonly calendars: number;
  /** Events per list page: the portal's default (null) or the size asked for. */
  readonly pageSize: number | null;
  /** The published build state's main file, read by every check; gzipped as a host sends it. */
  readonly stateBytes: number;
  readonly stateGzipBytes: number;
  readonly unchanged: CheckFigures;
  readonly oneEdit: CheckFigures;
}

export interface CheckFigures {
  readonly requests: number;
  readonly notModified: number;
  /** Bytes read: the build state's files and the bodies of the pages that changed. */
  readonly bytes: number;
  readonly seconds: number;
}

export interface SimulatedDay {
  readonly events: number;
  readonly checks: number;
  /** Builds the check requested with no portal change (date-relative only), at REBUILD_DATE_DELAY. */
  readonly buildsNoChange: number;
  /** The same with REBUILD_DATE_DELAY=0 (a build at every date-relative moment). */
  readonly buildsNoChangeExact: number;
}

export interface DayWithEdits {
  readonly events: number;
  readonly checks: number;
  readonly edits: number;
  readonly builds: number;
  readonly buildsForEdits: number;
  /** Simulated minutes from an edit to the check that called the hook. */
  readonly delayMinutes: { readonly mean: number; readonly max: number };
  /** Wall-clock seconds of the checks that found an edit (the rest of the delay). */
  readonly checkSeconds: { readonly mean: number; readonly max: number };
}

export interface RebuildCheckFigures {
  readonly latencyMs: number;
  readonly intervalMinutes: number;
  readonly dateDelayMinutes: number;
  readonly perCheck: readonly CheckCost[];
  readonly days: readonly SimulatedDay[];
  readonly dayWithEdits: DayWithEdits;
}

const START = "2026-03-20T00:02:00Z";

export async function benchRebuildCheck(
  options: RebuildCheckBenchOptions = {},
): Promise<RebuildCheckFigures> {
  const sizes = options.sizes ?? [
    [10, 100],
    [10, 1000],
    [50, 2000],
  ];
  const latencyMs = options.latencyMs ?? 20;
  const intervalMinutes = options.intervalMinutes ?? 1;
  const largerPages = options.largerPages ?? [100];
  const dateDelayMs = options.dateDelayMs ?? DEFAULT_DATE_DELAY_MS;
  const log = options.log ?? (() => undefined);
  const root = mkdtempSync(join(tmpdir(), "ecp-bench-rebuild-"));
  try {
    const perCheck: CheckCost[] = [];
    const days: SimulatedDay[] = [];
    for (const size of sizes) {
      const [calendars, eventsPerCalendar] = size;
      const dir = join(root, `${calendars}x${eventsPerCalendar}`);
      log(`${calendars}x${eventsPerCalendar}: publishing the state...`);
      perCheck.push(
        await measureCheck(dir, calendars, eventsPerCalendar, latencyMs, dateDelayMs, null),
      );
      if (size === sizes.at(-1)) {
        for (const pageSize of largerPages) {
          log(`${calendars}x${eventsPerCalendar}: pages of ${pageSize}...`);
          perCheck.push(
            await measureCheck(
              `${dir}-${pageSize}`,
              calendars,
              eventsPerCalendar,
              latencyMs,
              dateDelayMs,
              pageSize,
            ),
          );
        }
      }
      log(`${calendars}x${eventsPerCalendar}: simulating a day...`);
      days.push(simulateDateBuilds(calendars, eventsPerCalendar, intervalMinutes, dateDelayMs));
    }
    const [calendars, eventsPerCalendar] = sizes[0] ?? [10, 100];
    log(`${calendars}x${eventsPerCalendar}: simulating a day with edits...`);
    const dayWithEdits = await simulateDayWithEdits(
      join(root, "day"),
      calendars,
      eventsPerCalendar,
      intervalMinutes,
      options.edits ?? 10,
      dateDelayMs,
    );
    return {
      latencyMs,
      intervalMinutes,
      dateDelayMinutes: dateDelayMs / 60_000,
      perCheck,
      days,
      dayWithEdits,
    };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/** The synthetic portal at one address: `latencyMs` for the checks, none while publishing. */
async function syntheticPortal(
  calendars: number,
  eventsPerCalendar: number,
  latencyMs: number,
  port = 0,
): Promise<RunningPortal> {
  return startPortal({
    port,
    now: START,
    seed: 1,
    latencyMs,
    synthetic: { calendars, eventsPerCalendar },
  });
}

function configFor(portal: RunningPortal, dir: string, pageSize: number | null = null): ApiConfig {
  return readApiConfig({
    EVENT_API_URL: portal.url,
    EVENT_API_TOKEN: portal.token,
    EVENT_API_CACHE_DIR: join(dir, ".cache"),
    ...(pageSize
      ? { EVENT_API_PAGE_SIZE_PARAM: "limit", EVENT_API_PAGE_SIZE: String(pageSize) }
      : {}),
  });
}

/** A build that compares with nothing published (the bench's sites are local). */
const NO_PUBLISHED_SITE = {
  shrinkGuard: { maxDropShare: 0.5, minDropEvents: 10, allow: false },
  publishedSite: null,
} as const;

/** What `npm run build` publishes for the check, from the lists (the check never reads details). */
async function publish(config: ApiConfig, dir: string, nowIso: string, dateDelayMs: number) {
  const site = join(dir, "_site");
  mkdirSync(site, { recursive: true });
  const recorder = new ListRecorder(config);
  const client = new PortalClient(config, { onListPage: recorder.record });
  try {
    const records = await client.listCalendars();
    const wire = await Promise.all(
      records.map(async (record) => {
        const id = calendarIdOf(record, config) ?? "";
        const events = await client.listEvents(id);
        return { record, events: events.map((listed) => ({ listed, details: null })) };
      }),
    );
    const snapshot = normalizeSnapshot(
      { source: config.baseUrl, fetchedAt: nowIso, calendars: wire, warnings: [] },
      { fieldMap: config.fieldMap, defaultTimeZone: "Europe/Amsterdam" },
    );
    await writePublishedState(site, {
      snapshot,
      site: readSiteConfig({ SITE_NOW: nowIso, SITE_URL: "https://events.example.org" }),
      publish: { ...NO_PUBLISHED_SITE, dateDelayMs, pageRecord: "on" },
      api: config,
      lists: recorder.result(client),
    });
    return site;
  } finally {
    await client.close();
  }
}

async function measureCheck(
  dir: string,
  calendars: number,
  eventsPerCalendar: number,
  latencyMs: number,
  dateDelayMs: number,
  pageSize: number | null,
): Promise<CheckCost> {
  const fast = await syntheticPortal(calendars, eventsPerCalendar, 0);
  const port = Number(new URL(fast.url).port);
  const site = await publish(configFor(fast, dir, pageSize), dir, START, dateDelayMs);
  await fast.close();
  // The same dataset at the same address, now with latency.
  const slow = await syntheticPortal(calendars, eventsPerCalendar, latencyMs, port);
  try {
    const config = configFor(slow, dir, pageSize);
    const check = () =>
      rebuildIfChanged({
        config,
        published: site,
        nowMs: Date.parse(START),
        hookUrl: undefined,
      });
    const unchanged = await check();
    const dataset = createSyntheticDataset({ calendars, eventsPerCalendar, seed: 1, now: START });
    const event = dataset.events[Math.floor(dataset.events.length / 2)];
    slow.updateEvent(event?.calendarId ?? "", event?.id ?? "", { title: "Edited" });
    const edited = await check();
    const figures = (r: typeof unchanged): CheckFigures => ({
      requests: r.requests,
      notModified: r.notModified,
      bytes: r.bytes,
      seconds: Number(r.seconds.toFixed(2)),
    });
    return {
      events: slow.eventCount,
      calendars,
      pageSize,
      stateBytes: statSync(join(site, "api", "build-state.json")).size,
      stateGzipBytes: gzipSync(readFileSync(join(site, "api", "build-state.json"))).length,
      unchanged: figures(unchanged),
      oneEdit: figures(edited),
    };
  } finally {
    await slow.close();
  }
}

/** Builds requested in one day by date-relative changes alone, every check on the schedule. */
function simulateDateBuilds(
  calendars: number,
  eventsPerCalendar: number,
  intervalMinutes: number,
  dateDelayMs: number,
): SimulatedDay {
  const dataset = createSyntheticDataset({ calendars, eventsPerCalendar, seed: 1, now: START });
  const snapshot: PortalSnapshot = normalizeSnapshot(
    {
      source: "synthetic",
      fetchedAt: START,
      calendars: dataset.calendars.map((calendar) => ({
        record: calendar as unknown as WireRecord,
        events: dataset.events
          .filter((e) => e.calendarId === calendar.id)
          .map((e) => ({ listed: e as unknown as WireRecord, details: null })),
      })),
      warnings: [],
    },
    {
      fieldMap: readApiConfig({ EVENT_API_URL: "https://x", EVENT_API_TOKEN: "t" }).fieldMap,
      defaultTimeZone: "Europe/Amsterdam",
    },
  );
  const site = readSiteConfig({});
  const changes = new DateChanges(snapshot, {
    timeZone: site.timeZone,
    pastDays: site.pastDays,
    feedPastDays: site.feedPastDays,
    cancelledGraceDays: site.cancelledGraceDays,
  });
  const start = Date.parse(START);
  const checks = (24 * 60) / intervalMinutes;
  const buildsWith = (delayMs: number): number => {
    const dueAfter = (ms: number) =>
      changes.next(DateTime.fromMillis(ms, { zone: "utc" }), delayMs)?.rebuildAt ??
      Number.POSITIVE_INFINITY;
    let due = dueAfter(start);
    let builds = 0;
    for (let i = 1; i <= checks; i++) {
      const now = start + i * intervalMinutes * 60_000;
      if (now < due) continue;
      builds++;
      due = dueAfter(now);
    }
    return builds;
  };
  return {
    events: dataset.events.length,
    checks,
    buildsNoChange: buildsWith(dateDelayMs),
    buildsNoChangeExact: buildsWith(0),
  };
}

/**
 * A day of real checks against the portal, every `intervalMinutes` of
 * simulated time, while `edits` events change at scattered moments; every
 * requested build is "done" at once by publishing the state again.
 */
async function simulateDayWithEdits(
  dir: string,
  calendars: number,
  eventsPerCalendar: number,
  intervalMinutes: number,
  edits: number,
  dateDelayMs: number,
): Promise<DayWithEdits> {
  const portal = await syntheticPortal(calendars, eventsPerCalendar, 0);
  try {
    const config = configFor(portal, dir);
    const start = Date.parse(START);
    const iso = (ms: number) => new Date(ms).toISOString();
    let site = await publish(config, dir, START, dateDelayMs);
    const dataset = createSyntheticDataset({ calendars, eventsPerCalendar, seed: 1, now: START });
    // Scattered over the day, deterministic: the k-th edit at (k + 0.37) / edits of the day.
    const editTimes = Array.from({ length: edits }, (_, k) =>
      Math.round(start + ((k + 0.37) / edits) * 86_400_000),
    );
    const checks = (24 * 60) / intervalMinutes;
    let nextEdit = 0;
    const pending: number[] = [];
    const delays: number[] = [];
    const checkSeconds: number[] = [];
    let builds = 0;
    let buildsForEdits = 0;
    for (let i = 1; i <= checks; i++) {
      const now = start + i * intervalMinutes * 60_000;
      while (nextEdit < editTimes.length && (editTimes[nextEdit] ?? 0) <= now) {
        const event = dataset.events[(nextEdit * 7919) % dataset.events.length];
        portal.updateEvent(event?.calendarId ?? "", event?.id ?? "", { title: `Edit ${nextEdit}` });
        pending.push(editTimes[nextEdit] ?? 0);
        nextEdit++;
      }
      const result = await rebuildIfChanged({
        config,
        published: site,
        nowMs: now,
        hookUrl: undefined,
      });
      if (!result.changed) continue;
      builds++;
      if (pending.length > 0) {
        buildsForEdits++;
        checkSeconds.push(result.seconds);
        for (const at of pending.splice(0)) delays.push((now - at) / 60_000);
      }
      site = await publish(config, dir, iso(now), dateDelayMs);
    }
    const stats = (list: number[]) => ({
      mean: Number((list.reduce((a, b) => a + b, 0) / Math.max(1, list.length)).toFixed(2)),
      max: Number(Math.max(0, ...list).toFixed(2)),
    });
    return {
      events: portal.eventCount,
      checks,
      edits,
      builds,
      buildsForEdits,
      delayMinutes: stats(delays),
      checkSeconds: stats(checkSeconds),
    };
  } finally {
    await portal.close();
  }
}

const REBUILD_CHECK_BENCH = defineCommand({
  run: "node --import tsx bench/rebuild-check.ts",
  summary:
    'The rebuild check, measured (docs/deploy.md, "What a check costs"): one check\'s requests, bytes and seconds at each size, and the builds requested over a simulated day; prints the figures as JSON.',
  options: {},
  settings: [],
});

if (import.meta.url === `file://${process.argv[1]}`) {
  readCommandLine(REBUILD_CHECK_BENCH);
  const figures = await benchRebuildCheck({ log: (line) => console.error(line) });
  console.log(JSON.stringify(figures, null, 2));
}
