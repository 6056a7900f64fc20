import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import path from "node:path";
import { defineCommand, readCommandLine, stopWithUsageError } from "../src/cli/command-line.ts";
import { readApiConfig } from "../src/config/api.ts";
import { SHARE_CARDS_MODES } from "../src/config/cards.ts";
import { paths } from "../src/model/url-scheme.ts";
import { startPortal } from "../src/portal/index.ts";
import { MAX_PAGE_SIZE } from "../src/portal/paging.ts";
import { createSyntheticDataset } from "../src/portal/synthetic-dataset.ts";
import { rebuildIfChanged } from "../src/rebuild/rebuild-if-changed.ts";
import { type BuildRun, runBuild } from "./build.ts";
import { fetchFloor, measureRenderFloor, type RenderFloor } from "./floors.ts";
import { benchPortal } from "./portal.ts";
import { benchSearchIndex, formatSearchIndexBench } from "./search-index.ts";
import { benchShards, type ShardsFigures } from "./shards.ts";
import { benchSources } from "./sources.ts";

/**
 * `npm run bench`: cold, warm, changed (5% of events), edited (one event) and next-day
 * builds of a synthetic portal, against floors measured in the same run, and
 * the edit to live (docs/performance.md). Prints
 * figures and ratios; never fails on a threshold. The builds get settings of
 * their own, never the shell's (bench/build.ts).
 */
const BENCH = defineCommand({
  run: "npm run bench",
  summary:
    "Cold, warm, changed (5% of events), edited (one event) and next-day builds of a synthetic portal against floors measured in the same run, each rebuild against the cold one, the edit to live (the change check that finds one edit and the build that publishes it), and the search index (docs/performance.md). Prints figures and ratios; never fails on a threshold.",
  options: {
    size: {
      type: "string",
      value: "<size,...>",
      default: "medium",
      meaning:
        "small, medium or large (5x100, 10x1000, 50x2000 calendars x events) or CxE; several with commas",
    },
    latency: {
      type: "string",
      value: "<ms>",
      default: "20",
      meaning: "portal latency per request",
    },
    "max-concurrency": {
      type: "string",
      value: "<n>",
      default: "16",
      meaning: "requests the portal serves at once",
    },
    disk: {
      type: "boolean",
      default: false,
      meaning: "write outputs and caches to the system temporary folder, not tmpfs",
    },
    repeat: {
      type: "string",
      value: "<n>",
      default: "1",
      meaning: "build each cell n times (at most 5) and keep the fastest",
    },
    out: { type: "string", value: "<file.json>", meaning: "also write the figures as JSON" },
    portal: {
      type: "boolean",
      default: false,
      meaning:
        "add the reference portal's own throughput, and a details request's cost above the latency (one at a time, and at --max-concurrency)",
    },
    search: {
      type: "boolean",
      default: true,
      meaning: "skip the search index section (built for the 10,000-event portal)",
    },
    "share-cards": {
      type: "string",
      value: "<mode>",
      choices: SHARE_CARDS_MODES,
      default: "auto",
      meaning: "SHARE_CARDS for the builds (docs/share-cards.md)",
    },
    sources: {
      type: "string",
      value: "<n>",
      default: "",
      meaning:
        "instead of the sizes: n sources (EVENT_SOURCES_FILE) against one portal of as many events, cold and warm",
    },
    "source-events": {
      type: "string",
      value: "<n>",
      default: "2000",
      meaning: "with --sources: events per source (in 2 calendars)",
    },
    shards: {
      type: "string",
      value: "<n,...>",
      default: "",
      meaning:
        "also the build split over n shards and merged: each shard cold alone (projected to n runners), and all of a warm build at once here",
    },
  },
  settings: [],
});

const SIZES: Readonly<Record<string, string>> = {
  small: "5x100",
  medium: "10x1000",
  large: "50x2000",
};
const NOW = "2026-11-22T12:00:00Z";
const DAY_MS = 86_400_000;
/** A rebuild's cost against a cold build's that the project aims at (docs/performance.md, "Targets"). */
const REBUILD_TARGETS = { unchanged: 0.1, oneEdit: 0.15, nextDay: 0.25 } as const;
const SITE_URL = "https://events.example.org";
/** Events changed between the warm and the changed build: every 20th, 5%. */
const CHANGE_EVERY = 20;

const { values } = readCommandLine(BENCH);
const latencyMs = positive("latency", values.latency);
const maxConcurrency = positive("max-concurrency", values["max-concurrency"]);
const repeat = Math.min(5, positive("repeat", values.repeat));
const shareCards = values["share-cards"];
const shardCounts = values.shards
  ? values.shards.split(",").map((n) => {
      const count = positive("shards", n.trim());
      if (count < 1 || count > 16) stopWithUsageError(BENCH, `--shards: 1 to 16 shards, got ${n}`);
      return count;
    })
  : [];
const medium =
  values.disk || !existsSync("/dev/shm")
    ? { name: "disk", dir: tmpdir() }
    : { name: "tmpfs", dir: "/dev/shm" };
const sizes = values.size.split(",").map((name) => {
  const spec = SIZES[name.trim()] ?? name.trim();
  const match = /^(\d+)x(\d+)$/.exec(spec);
  if (!match)
    stopWithUsageError(BENCH, `--size: expected small, medium, large or CxE, got "${name}"`);
  return { calendars: Number(match[1]), eventsPerCalendar: Number(match[2]) };
});

console.log(
  `Event Calendar Publisher benchmark: Node ${process.version}, ${availableParallelism()} cores, load average ${loadavg()
    .map((n) => n.toFixed(1))
    .join(
      " ",
    )}, outputs on ${medium.name}, portal latency ${latencyMs} ms, ${maxConcurrency} requests at once, SHARE_CARDS=${shareCards}\n`,
);

if (values.sources) {
  // Several organizations' cost (docs/sources.md): this section alone.
  const count = positive("sources", values.sources);
  if (count < 2 || count > 50) stopWithUsageError(BENCH, `--sources: 2 to 50, got ${count}`);
  const figures = await benchSources({
    sources: count,
    eventsPerSource: positive("source-events", values["source-events"]),
    calendarsPerSource: 2,
    latencyMs,
    maxConcurrency,
    shareCards,
    dir: medium.dir,
    now: NOW,
    siteUrl: SITE_URL,
    repeat,
  });
  section(
    `Sources: ${figures.sources} of ${fmt(figures.events / figures.sources)} events against one portal of ${fmt(figures.events)}, ${medium.name}`,
  );
  table(
    ["build", "one portal s", `${figures.sources} sources s`, "ratio"],
    [
      [
        "cold",
        figures.one.cold.toFixed(2),
        figures.several.cold.toFixed(2),
        figures.coldRatio.toFixed(2),
      ],
      [
        "warm",
        figures.one.warm.toFixed(2),
        figures.several.warm.toFixed(2),
        figures.warmRatio.toFixed(2),
      ],
    ],
  );
  if (figures.rounds.length > 1) {
    console.log("  every round (s), in the order they ran:");
    table(
      ["round", "one cold", "sources cold", "one warm", "sources warm"],
      figures.rounds.map((round, index) => [
        String(index + 1),
        round.one.cold.toFixed(2),
        round.several.cold.toFixed(2),
        round.one.warm.toFixed(2),
        round.several.warm.toFixed(2),
      ]),
    );
  }
  for (const build of ["cold", "warm"] as const) {
    const key = build === "cold" ? "coldPhases" : "warmPhases";
    const phases = Object.keys(figures.several[key]).filter(
      (phase) => (figures.several[key][phase] ?? 0) >= 0.1 || (figures.one[key][phase] ?? 0) >= 0.1,
    );
    console.log(`  ${build} builds' phases (s):`);
    table(
      ["build", ...phases],
      (["one", "several"] as const).map((name) => [
        name,
        ...phases.map((phase) => (figures[name][key][phase] ?? 0).toFixed(2)),
      ]),
    );
  }
  if (values.out) await writeFile(values.out, `${JSON.stringify(figures, null, 2)}\n`);
  process.exit(0);
}

const report: Record<string, unknown>[] = [];
for (const size of sizes) report.push(await benchSize(size.calendars, size.eventsPerCalendar));

let searchIndex: unknown = null;
if (values.search) {
  // The index's cost and what a visitor downloads, at 10,000 events (src/search).
  const search = await benchSearchIndex({
    calendars: 10,
    eventsPerCalendar: 1000,
    outputRoot: medium.dir,
  });
  section("Search index");
  console.log(formatSearchIndexBench(search));
  searchIndex = search;
}

if (values.portal) {
  const portal = await benchPortal({
    calendars: 4,
    eventsPerCalendar: 25_000,
    maxRequests: 3_000,
    maxSeconds: 4,
    latency: { ms: latencyMs, maxConcurrency },
  });
  section(`Reference portal, ${fmt(portal.events)} events (loaded in ${fmt(portal.loadMs)} ms)`);
  table(
    ["requests", "count", "seconds", "per second", "p50 ms", "p95 ms"],
    (
      [
        ["list pages of 100", portal.listPages],
        ["event details", portal.details],
        ["304 revalidations", portal.conditional304],
        ...(portal.withLatency
          ? ([
              [`details, ${latencyMs} ms latency, 1 at once`, portal.withLatency.one],
              [
                `details, ${latencyMs} ms latency, ${maxConcurrency} at once`,
                portal.withLatency.limit,
              ],
            ] as const)
          : []),
      ] as const
    ).map(([name, t]) => [
      name,
      fmt(t.requests),
      t.seconds.toFixed(2),
      fmt(t.perSecond),
      t.p50Ms,
      t.p95Ms,
    ]),
  );
}

if (values.out) {
  // One size: its figures at the top level; several: a list.
  const sizesOut = report.length === 1 ? report[0] : { sizes: report };
  await writeFile(values.out, `${JSON.stringify({ ...sizesOut, searchIndex }, null, 2)}\n`);
  console.log(`\nFigures written to ${values.out}`);
}

async function benchSize(calendars: number, eventsPerCalendar: number) {
  const events = calendars * eventsPerCalendar;
  const label = `${fmt(events)} events (${calendars} calendars x ${fmt(eventsPerCalendar)})`;
  const synthetic = { calendars, eventsPerCalendar };
  const portal = await startPortal({
    host: "127.0.0.1",
    port: 0,
    now: NOW,
    seed: 1,
    synthetic,
    latencyMs,
    maxConcurrency,
  });
  // The same generator and seed: the ids of the events the changed build edits.
  const dataset = createSyntheticDataset({ ...synthetic, seed: 1, now: new Date(NOW) });
  const work = await mkdtemp(path.join(medium.dir, "ecp-bench-"));
  // Share cards (four per event with SHARE_CARDS=all) can outlast the build itself on a busy machine.
  const timeoutMs = Math.max(600_000, events * (shareCards === "off" ? 30 : 90));
  try {
    const env = {
      EVENT_API_URL: portal.url,
      EVENT_API_TOKEN: portal.token,
      EVENT_API_CACHE_DIR: path.join(work, "cache"),
      // Ask as the fetch floor assumes: the largest pages, as many requests at once as served.
      EVENT_API_PAGE_SIZE_PARAM: "limit",
      EVENT_API_PAGE_SIZE: String(MAX_PAGE_SIZE),
      EVENT_API_CONCURRENCY: String(maxConcurrency),
      SITE_NOW: NOW,
      SITE_URL,
      SHARE_CARDS: shareCards,
    };
    const build = async (
      name: string,
      beforeEach?: () => Promise<void>,
      settings: Record<string, string> = env,
    ) => {
      let best: BuildRun | undefined;
      for (let i = 0; i < repeat; i++) {
        await beforeEach?.();
        portal.resetCounters();
        const run = await runBuild({
          output: path.join(work, "site"),
          metricsFile: path.join(work, `${name}.json`),
          env: settings,
          timeoutMs,
        });
        if (!run.ok) throw new Error(`The ${name} build of ${label} failed:\n${run.error}`);
        if (!best || run.wallSeconds < best.wallSeconds) best = run;
      }
      return best as BuildRun;
    };

    const cold = await build("cold", () =>
      rm(env.EVENT_API_CACHE_DIR, { recursive: true, force: true }),
    );
    // The render floor at once, beside the build compared with it: Eleventy's bare
    // speed on this machine moves by the hour, by half between runs of one day.
    const files = cold.metrics?.files ?? 0;
    const renderFloor = await measureRenderFloor(files, work);
    const warm = await build("warm");
    const changed = dataset.events.filter((_, index) => index % CHANGE_EVERY === 0);
    let round = 0;
    const changedRun = await build("changed", async () => {
      // Each repetition changes the same events again, so each sees the same work.
      round++;
      for (const event of changed) {
        portal.updateEvent(event.calendarId, event.id, { title: `${event.title} (${round})` });
      }
    });

    // One more edit, after the changed build: what a build for one edited event costs
    // (the search index's part of that event's month alone is indexed again), and
    // from that edit to its page published: the change check, then that build.
    const one = dataset.events[dataset.events.length >> 1];
    const nextDay: Record<string, string> = { ...env };
    const checks: CheckFigures[] = [];
    const editedRun = await build("edited", async () => {
      round++;
      if (one) portal.updateEvent(one.calendarId, one.id, { title: `${one.title} [${round}]` });
      checks.push(await timeCheck(env, work));
    });
    const editToLive = {
      check: checks.reduce((best, check) => (check.seconds < best.seconds ? check : best)),
      published: one ? await publishedTitle(work, one, `[${round}]`) : false,
    };

    // The day rolling over: the same portal a day later (the lists, months and "when" pages
    // move on; events that ended are past). Last, since a later build cannot go back a day:
    // a repetition rolls over another day.
    let days = 0;
    const nextDayRun = await build(
      "next day",
      async () => {
        days++;
        nextDay.SITE_NOW = new Date(Date.parse(NOW) + days * DAY_MS).toISOString();
      },
      nextDay,
    );

    const shardRuns: ShardsFigures[] = [];
    for (const shards of shardCounts) {
      shardRuns.push(
        await benchShards({
          shards,
          work,
          env,
          timeoutMs,
          beforeEach: () => portal.resetCounters(),
        }),
      );
    }

    const fetch = fetchFloor({
      calendars,
      eventsPerCalendar,
      maxPageSize: MAX_PAGE_SIZE,
      latencyMs,
      maxConcurrency,
    });
    const result = {
      events,
      calendars,
      files,
      medium: medium.name,
      latencyMs,
      maxConcurrency,
      floors: {
        renderSeconds: round3(renderFloor.seconds),
        renderPages: renderFloor.pages,
        renderPeakRssMB: renderFloor.peakRssMB,
        fetchSeconds: round3(fetch.seconds),
        fetchRequests: fetch.requests,
      },
      cold: figures(cold, renderFloor, fetch.seconds),
      warm: figures(warm, renderFloor, fetch.seconds),
      changed: {
        changedEvents: changed.length,
        ...figures(changedRun, renderFloor, fetch.seconds),
      },
      edited: figures(editedRun, renderFloor, fetch.seconds),
      nextDay: figures(nextDayRun, renderFloor, fetch.seconds),
      editToLive,
      shards: shardRuns,
    };
    print(label, result, renderFloor, fetch);
    if (shardRuns.length > 0) printShards(shardRuns, cold.wallSeconds, warm.wallSeconds);
    return result;
  } finally {
    await portal.close();
    await rm(work, { recursive: true, force: true });
  }
}

function figures(run: BuildRun, floor: RenderFloor, fetchFloorSeconds: number) {
  const metrics = run.metrics;
  if (!metrics) throw new Error("no metrics");
  const phase = (name: string) => (metrics.phases[name] ?? 0) / 1000;
  const counter = (name: string) => metrics.counters[name] ?? 0;
  const fetchSeconds = phase("fetch");
  // Everything the build does besides talking to the portal: start-up, normalizing, views, rendering, writing, publishing.
  const renderSeconds = run.wallSeconds - fetchSeconds;
  return {
    totalSeconds: round3(run.wallSeconds),
    fetchSeconds: round3(fetchSeconds),
    fetchFloorSeconds: round3(fetchFloorSeconds),
    fetchRatio: round3(fetchSeconds / fetchFloorSeconds),
    renderSeconds: round3(renderSeconds),
    renderFloorSeconds: round3(floor.seconds),
    renderRatio: round3(renderSeconds / floor.seconds),
    totalRatio: round3(run.wallSeconds / (floor.seconds + fetchFloorSeconds)),
    cpu: cpuFigures(run, floor.seconds + fetchFloorSeconds, counter("searchIndexerCpuMs") / 1000),
    peakRssMB: metrics.peakRssMB,
    files: metrics.files,
    filesPerSecond: Math.round(metrics.files / run.wallSeconds),
    requests: counter("fetch.requests"),
    listRequests: counter("fetch.listRequests"),
    detailRequests: counter("fetch.detailRequests"),
    notModified: counter("fetch.notModified"),
    detailsReused: counter("fetch.detailsReused"),
    normalized: counter("normalize.computed"),
    normalizedReused: counter("normalize.reused"),
    eventTimesParsed: counter("eventTimesParsed"),
    cardsRendered: counter("cards.rendered"),
    cardsReused: counter("cards.reused"),
    // While at least one card was being drawn (in the background, from the fetch on).
    cardsBusySeconds: round3(counter("cards.busyMs") / 1000),
    // The search index in parts (src/search): what Pagefind indexed, and what the build waited for it.
    searchPartsBuilt: counter("searchPartsBuilt"),
    searchPartsReused: counter("searchPartsReused"),
    searchRecordsIndexed: counter("searchRecordsIndexed"),
    searchPartMaxSeconds: round3(counter("searchPartMaxMs") / 1000),
    searchIndexerPeakMB: counter("searchIndexerPeakMB"),
    searchWaitSeconds: round3(phase("search index")),
    phases: Object.fromEntries(
      Object.entries(metrics.phases).map(([name, ms]) => [name, round3(ms / 1000)]),
    ),
    otherSeconds: round3(
      run.wallSeconds - Object.values(metrics.phases).reduce((sum, ms) => sum + ms, 0) / 1000,
    ),
  };
}

type Figures = ReturnType<typeof figures>;

/**
 * The CPU a build kept the machine's cores busy with, and the shortest it
 * could take here with that work spread perfectly over them: against the
 * floors, the ratio no reordering of the same work can go below.
 */
function cpuFigures(run: BuildRun, bothFloorsSeconds: number, pagefindSeconds: number) {
  if (!run.cpu) return null;
  const { build, processes, portal } = run.cpu;
  const cores = availableParallelism();
  const totalSeconds = build + processes + portal;
  const boundSeconds = totalSeconds / cores;
  return {
    buildSeconds: round3(build),
    processesSeconds: round3(processes),
    /** Pagefind's share of its processes (the build's metrics, read from /proc as each part ends); the rest is the cards'. */
    pagefindSeconds: round3(pagefindSeconds),
    portalSeconds: round3(portal),
    totalSeconds: round3(totalSeconds),
    cores,
    boundSeconds: round3(boundSeconds),
    boundRatio: round3(boundSeconds / bothFloorsSeconds),
    /** The same without the portal, which a real site's machine does not run. */
    boundWithoutPortalRatio: round3((build + processes) / cores / bothFloorsSeconds),
  };
}

function print(
  label: string,
  result: {
    cold: Figures;
    warm: Figures;
    changed: Figures & { changedEvents: number };
    edited: Figures;
    nextDay: Figures;
    editToLive: { check: CheckFigures; published: boolean };
  },
  floor: RenderFloor,
  fetch: { requests: number; seconds: number },
) {
  section(`Builds, ${label}, ${medium.name}`);
  /** A table of one row a build, its name first, then `cells` of its figures. */
  const byBuild = (
    header: readonly string[],
    cells: (f: Figures) => readonly (string | number)[],
  ) =>
    table(
      ["build", ...header],
      (["cold", "warm", "changed", "edited", "nextDay"] as const).map((name) => [
        name === "nextDay" ? "next day" : name,
        ...cells(result[name]),
      ]),
    );
  const phases = [
    "fetch",
    "normalize",
    "views",
    "render",
    "feeds",
    "digest",
    "ics",
    "json",
    "widget",
    "write",
    "hash",
    "signatures",
    "cards",
  ];
  byBuild(["total s", ...phases, "other", "peak MB", "files/s"], (f) => [
    f.totalSeconds.toFixed(2),
    ...phases.map((phase) => (f.phases[phase] ?? 0).toFixed(2)),
    f.otherSeconds.toFixed(2),
    fmt(f.peakRssMB),
    fmt(f.filesPerSecond),
  ]);
  console.log(
    "  (cards: asking for the share cards, waiting for those not drawn yet, copying them into the site;\n   other: Node and TypeScript start-up, images, publishing)",
  );
  byBuild(["cards rendered", "reused", "drawing s", "cards/s while drawing"], (f) => [
    fmt(f.cardsRendered),
    fmt(f.cardsReused),
    f.cardsBusySeconds.toFixed(2),
    f.cardsBusySeconds > 0 ? fmt(f.cardsRendered / f.cardsBusySeconds) : "-",
  ]);
  if (result.cold.cpu) {
    const cores = result.cold.cpu.cores;
    byBuild(
      [
        "CPU s: build",
        "its processes",
        "Pagefind",
        "portal",
        "total",
        `total / ${cores} cores`,
        "busy",
      ],
      (f) =>
        f.cpu
          ? [
              f.cpu.buildSeconds.toFixed(2),
              f.cpu.processesSeconds.toFixed(2),
              f.cpu.pagefindSeconds.toFixed(2),
              f.cpu.portalSeconds.toFixed(2),
              f.cpu.totalSeconds.toFixed(2),
              f.cpu.boundSeconds.toFixed(2),
              `${Math.round((100 * f.cpu.boundSeconds) / f.totalSeconds)}%`,
            ]
          : ["-", "-", "-", "-", "-", "-", "-"],
    );
    console.log(
      "  (its processes: the share cards' drawing and Pagefind's; Pagefind: its part of them; portal: this process, which serves the builds;\n   total / cores: the shortest the build could take here with the same work, however it were spread; busy: that against its time)",
    );
  }
  byBuild(
    [
      "requests",
      "lists",
      "details",
      "304",
      "details reused",
      "normalized",
      "reused",
      "times parsed",
    ],
    (f) => [
      fmt(f.requests),
      fmt(f.listRequests),
      fmt(f.detailRequests),
      fmt(f.notModified),
      fmt(f.detailsReused),
      fmt(f.normalized),
      fmt(f.normalizedReused),
      fmt(f.eventTimesParsed),
    ],
  );
  console.log(
    `  changed build: ${fmt(result.changed.changedEvents)} events edited in the portal (every ${CHANGE_EVERY}th); edited: one more event edited; next day: nothing edited, the clock a day later`,
  );
  byBuild(
    [
      "search parts indexed",
      "reused",
      "records indexed",
      "slowest part s",
      "Pagefind peak MB",
      "index phase s",
    ],
    (f) => [
      fmt(f.searchPartsBuilt),
      fmt(f.searchPartsReused),
      fmt(f.searchRecordsIndexed),
      f.searchPartMaxSeconds.toFixed(2),
      f.searchIndexerPeakMB ? fmt(f.searchIndexerPeakMB) : "-",
      f.searchWaitSeconds.toFixed(2),
    ],
  );
  console.log(
    "  (index phase: waiting for the search index after rendering, Pagefind running beside it, and writing its files)",
  );
  console.log(
    `\n  Floors: render ${floor.seconds.toFixed(2)} s, ${fmt(floor.peakRssMB)} MB (bare Eleventy, ${fmt(floor.pages)} one-line pages); fetch ${fetch.seconds.toFixed(2)} s (${fmt(fetch.requests)} requests x ${latencyMs} ms / ${maxConcurrency})`,
  );
  const { cold, warm, changed } = result;
  table(
    ["ratio", "cold", "warm", "changed"],
    [
      ["fetch / fetch floor", ...[cold, warm, changed].map((f) => x(f.fetchRatio))],
      ["rest / render floor", ...[cold, warm, changed].map((f) => x(f.renderRatio))],
      [
        "total / render floor",
        ...[cold, warm, changed].map((f) => x(f.totalSeconds / f.renderFloorSeconds)),
      ],
      ["total / both floors", ...[cold, warm, changed].map((f) => x(f.totalRatio))],
      ...(cold.cpu
        ? [
            [
              `CPU / ${cold.cpu.cores} cores / both floors`,
              ...[cold, warm, changed].map((f) => (f.cpu ? x(f.cpu.boundRatio) : "-")),
            ],
            [
              "  the same, portal left out",
              ...[cold, warm, changed].map((f) => (f.cpu ? x(f.cpu.boundWithoutPortalRatio) : "-")),
            ],
          ]
        : []),
    ],
  );
  // What a build costs against the cold one: it should follow the change, not the site.
  const { edited, nextDay } = result;
  table(
    ["against the cold build", "total s", "ratio", "target"],
    (
      [
        ["nothing changed (warm)", warm, REBUILD_TARGETS.unchanged],
        ["one edited event", edited, REBUILD_TARGETS.oneEdit],
        ["the day rolling over", nextDay, REBUILD_TARGETS.nextDay],
      ] as const
    ).map(([name, f, target]) => [
      name,
      f.totalSeconds.toFixed(2),
      x(f.totalSeconds / cold.totalSeconds),
      `<= ${x(target)}`,
    ]),
  );
  printEditToLive(result.editToLive, edited.totalSeconds);
}

/**
 * From an edit in the portal to its page published, as far as it happens
 * here: the check that finds it (npm run rebuild-if-changed against the
 * output folder, the portal's latency per request) and the build it starts.
 * What a host adds (its wait for the next check, its queue, install and
 * upload) is docs/performance.md's, "Edit to live".
 */
function printEditToLive(
  { check, published }: { check: CheckFigures; published: boolean },
  buildSeconds: number,
) {
  const here = check.seconds + buildSeconds;
  console.log(
    `\n  Edit to live: the check found the edit in ${check.seconds.toFixed(2)} s (${fmt(check.requests)} requests, ${fmt(check.notModified)} answered 304, ${fmt(Math.round(check.bytes / 1000))} kB read), the build published it in ${buildSeconds.toFixed(2)} s${published ? "" : " (NOT FOUND on its page)"}`,
  );
  table(
    ["next check", "wait, mean s", "wait, most s", "edit to live, mean s", "most s"],
    (
      [
        ["every 20 s (npm run publish-on-change)", 20],
        ["every minute (Netlify, cron)", 60],
        ["every 5 minutes", 300],
      ] as const
    ).map(([name, seconds]) => [
      name,
      (seconds / 2).toFixed(0),
      seconds.toFixed(0),
      (seconds / 2 + here).toFixed(1),
      (seconds + here).toFixed(1),
    ]),
  );
}

interface CheckFigures {
  readonly seconds: number;
  readonly requests: number;
  readonly notModified: number;
  readonly bytes: number;
}

/** The change check against the published output, as cron runs it, with a cache folder of its own. */
async function timeCheck(
  env: Readonly<Record<string, string>>,
  work: string,
): Promise<CheckFigures> {
  const result = await rebuildIfChanged({
    config: readApiConfig({ ...env, EVENT_API_CACHE_DIR: path.join(work, "check-cache") }),
    published: path.join(work, "site"),
    nowMs: Date.parse(env.SITE_NOW ?? NOW),
    hookUrl: undefined,
  });
  if (!result.changed)
    throw new Error(`The change check did not see the edit: ${result.lines.at(-1)}`);
  const { seconds, requests, notModified, bytes } = result;
  return { seconds, requests, notModified, bytes };
}

/** Whether the edited event's page shows its new title's mark (the rest may be escaped). */
async function publishedTitle(
  work: string,
  event: { readonly calendarId: string; readonly id: string },
  mark: string,
): Promise<boolean> {
  const page = path.join(work, "site", paths.event(event.calendarId, event.id), "index.html");
  return (await readFile(page, "utf8").catch(() => "")).includes(mark);
}

function printShards(runs: readonly ShardsFigures[], coldSeconds: number, warmSeconds: number) {
  console.log(
    `\n  Split over shards (src/shards), each with its own cache; the single build: cold ${coldSeconds.toFixed(2)} s, warm ${warmSeconds.toFixed(2)} s`,
  );
  const each = (seconds: readonly number[]) => seconds.map((s) => s.toFixed(1)).join(" ");
  table(
    [
      "shards",
      "build",
      "each shard alone s",
      "merge s",
      "n runners s",
      "speed-up",
      "all here s",
      "speed-up here",
    ],
    runs.flatMap((r) => {
      const row = (build: string, shards: readonly number[], merge: number, single: number) => {
        const projected = Math.max(...shards) + merge;
        return [
          r.shards,
          build,
          each(shards),
          merge.toFixed(2),
          projected.toFixed(2),
          x(single / projected),
        ];
      };
      const here = r.warmTogetherSeconds + r.warmTogetherMergeSeconds;
      return [
        [...row("cold", r.coldShardSeconds, r.coldMergeSeconds, coldSeconds), "-", "-"],
        [
          ...row("warm", r.warmShardSeconds, r.warmMergeSeconds, warmSeconds),
          here.toFixed(2),
          x(warmSeconds / here),
        ],
      ];
    }),
  );
  console.log(
    `  peak MB of a shard: ${runs.map((r) => `${r.shards} shards ${fmt(Math.max(...r.coldPeakRssMB))}`).join(", ")}`,
  );
  console.log(
    "  (n runners: the slowest shard alone plus the merge, what n separate machines would take;\n   all here: a warm build's shards at once on this machine's cores, then the merge)",
  );
}

function positive(name: string, raw: string): number {
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0)
    stopWithUsageError(BENCH, `--${name}: expected a positive number, got "${raw}"`);
  return value;
}

function round3(value: number): number {
  return Math.round(value * 1000) / 1000;
}

function x(value: number): string {
  return `${value.toFixed(2)}x`;
}

function fmt(value: number): string {
  return Number.isFinite(value) ? Math.round(value).toLocaleString("en-US") : "-";
}

function section(title: string) {
  console.log(`\n${title}`);
}

function table(header: readonly string[], rows: readonly (readonly (string | number)[])[]) {
  const cells = [header, ...rows].map((row) => row.map(String));
  const widths = header.map((_, i) => Math.max(...cells.map((row) => (row[i] ?? "").length)));
  for (const row of cells) {
    console.log(
      `  ${row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join("  ")}`,
    );
  }
}
