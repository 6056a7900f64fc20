import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { mkdtemp, rm, stat } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { DateTime } from "luxon";
import { defineCommand, readCommandLine, stopWithUsageError } from "../src/cli/command-line.ts";
import { EMPTY_FIELD_MAP } from "../src/model/field-map.ts";
import { normalizeSnapshot } from "../src/model/normalize-snapshot.ts";
import type { Calendar } from "../src/model/types.ts";
import { paths } from "../src/model/url-scheme.ts";
import { createSyntheticDataset } from "../src/portal/index.ts";
import { FileWriter } from "../src/render/file-writer.ts";
import {
  bundleOf,
  PARTS_FILE,
  partFiles,
  partSummary,
  rootFiles,
} from "../src/search/index-layout.ts";
import { runPagefind } from "../src/search/pagefind-indexer.ts";
import { partFingerprint } from "../src/search/part-cache.ts";
import type { PartSummary } from "../src/search/part-summary.ts";
import { type PartFigures, recordsFor, writeSearchIndex } from "../src/search/search-index.ts";
import { type SearchPart, searchParts } from "../src/search/search-parts.ts";
import type { SearchRecord } from "../src/search/search-records.ts";
import { stableIndexFiles } from "../src/search/stable-index.ts";
import { buildViews } from "../src/site/views.ts";

/**
 * The search index at scale: builds it for a synthetic portal (default 4
 * calendars x 2,500 events) exactly as a build does (src/search/search-index.ts,
 * from the snapshot, in parts by month), and, for comparison, as one
 * Pagefind index (how the site built it before parts) and in parts by
 * calendar (the alternative to months). Then runs typical queries through
 * Pagefind's own browser script (/pagefind/pagefind.js, in Node, fetching
 * over loopback HTTP) as src/site/browser/search.ts asks them, and counts what
 * a visitor downloads on a first visit. Counts and bytes are exact; times
 * depend on the machine and its load.
 */

export interface SearchIndexBenchOptions {
  readonly calendars?: number;
  readonly eventsPerCalendar?: number;
  /** Where the temporary output goes (default: the system temporary folder). */
  readonly outputRoot?: string;
}

export interface QueryFigures {
  readonly results: number;
  /** Requests and bytes fetched for the query and its first page of 20 results. */
  readonly requests: number;
  readonly bytes: number;
  /** The same plus pagefind.js and pagefind-worker.js, which a browser loads first. */
  readonly bytesWithScripts: number;
  /** Bytes by kind of file: wasm, meta, index, filter, fragment, entry, parts. */
  readonly byKind: Readonly<Record<string, number>>;
  /** The site paths of the first page of results, in order. */
  readonly firstPage: readonly string[];
}

/** One way of laying out the index: its cost to build and what it holds. */
export interface LayoutFigures {
  readonly parts: number;
  readonly recordsPerPart: { readonly min: number; readonly max: number };
  /** Wall time of the whole index: records, Pagefind's indexing of every part, the files. */
  readonly buildMs: number;
  /** The slowest part's Pagefind time (records to files). */
  readonly maxPartMs: number;
  /** The largest peak memory of Pagefind's process over the parts (VmHWM); null where unknown. */
  readonly peakMB: number | null;
  /** The CPU time of Pagefind's processes over the parts, in seconds; null where unknown. */
  readonly cpuSeconds: number | null;
  readonly files: number;
  readonly totalBytes: number;
}

export interface SearchIndexBenchResult {
  readonly name: "search-index";
  readonly events: number;
  readonly records: number;
  readonly loadAverage: number;
  /** As the site builds it: parts by month (src/search/search-parts.ts). */
  readonly months: LayoutFigures;
  /** As the site built it before parts: one index. */
  readonly single: LayoutFigures;
  /** Parts by calendar, the alternative. */
  readonly calendars: LayoutFigures;
  /** Parts whose records change from one day to the next, with a 30-day archive (SITE_PAST_DAYS=30). */
  readonly dayLater: {
    readonly months: { readonly changed: number; readonly of: number };
    readonly calendars: { readonly changed: number; readonly of: number };
  };
  readonly queries: readonly {
    /** What the visitor asked, as the search page's URL parameters. */
    readonly query: string;
    readonly single: QueryFigures;
    readonly months: QueryFigures;
    readonly calendars: QueryFigures;
  }[];
}

const NOW = "2026-03-20T12:00:00Z";
const ZONE = "Europe/Amsterdam";
const PER_PAGE = 20;
const SITE = { lang: "en-GB", uiLanguage: "en", timeZone: ZONE };

type Layout = "single" | "months" | "calendars";

export async function benchSearchIndex(
  options: SearchIndexBenchOptions = {},
): Promise<SearchIndexBenchResult> {
  const calendars = options.calendars ?? 4;
  const eventsPerCalendar = options.eventsPerCalendar ?? 2500;
  const root = await mkdtemp(path.join(options.outputRoot ?? tmpdir(), "ecp-bench-search-"));
  try {
    const dataset = createSyntheticDataset({ calendars, eventsPerCalendar, now: NOW });
    const snapshot = normalizeSnapshot(
      {
        source: "synthetic",
        fetchedAt: NOW,
        calendars: dataset.calendars.map((calendar) => ({
          // Wire records are plain JSON objects, as the API client reads them.
          record: { ...calendar },
          events: dataset.events
            .filter((event) => event.calendarId === calendar.id)
            .map((event) => ({ listed: { ...event }, details: { ...event } })),
        })),
      },
      { fieldMap: EMPTY_FIELD_MAP, defaultTimeZone: ZONE },
    );
    const now = DateTime.fromISO(NOW, { zone: "utc" });
    const viewsAt = (at: DateTime, pastDays: number) =>
      buildViews(snapshot, { now: at, pastDays, timeZone: ZONE });
    const views = viewsAt(now, 365);
    const input = { calendars: snapshot.calendars, views };
    const records = recordsFor(input, SITE);

    const folders: Record<Layout, string> = {
      single: path.join(root, "single"),
      months: path.join(root, "months"),
      calendars: path.join(root, "calendars"),
    };
    const started = performance.now();
    const stats = await writeSearchIndex(folders.months, input, SITE);
    const months = layoutFigures(stats.parts, performance.now() - started, stats);
    const single = await writeSingleIndex(folders.single, records);
    const byCalendar = await writePartedIndex(
      folders.calendars,
      calendarParts(records, snapshot.calendars),
    );

    const shortArchive = (at: DateTime) =>
      recordsFor({ calendars: snapshot.calendars, views: viewsAt(at, 30) }, SITE);
    const today = shortArchive(now);
    const tomorrow = shortArchive(now.plus({ days: 1 }));
    const dayLater = {
      months: changedParts(searchParts(today), searchParts(tomorrow)),
      calendars: changedParts(
        calendarParts(today, snapshot.calendars),
        calendarParts(tomorrow, snapshot.calendars),
      ),
    };

    const days = dayLists(now.setZone(ZONE).toISODate() ?? "");
    const queries: Query[] = [
      { query: "q=concert", term: "concert", filters: {} },
      {
        query: "calendar=cal-001&category=music",
        term: null,
        filters: { calendar: "cal-001", category: "music" },
      },
      {
        query: "q=family+market&when=weekend",
        term: "family market",
        filters: {},
        window: ["2026-03-21", "2026-03-22"],
      },
      { query: "(all events)", term: null, filters: {} },
    ];
    const measured = await measureQueries(root, folders, queries, days);
    return {
      name: "search-index",
      events: views.events.length,
      records: records.length,
      loadAverage: loadavg()[0] ?? 0,
      months,
      single,
      calendars: byCalendar,
      dayLater,
      queries: measured,
    };
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

function layoutFigures(
  parts: readonly PartFigures[],
  buildMs: number,
  stats: { readonly files: number; readonly bytes: number },
): LayoutFigures {
  const sizes = parts.map((part) => part.records);
  const peaks = parts.flatMap((part) => (part.peakMB === null ? [] : [part.peakMB]));
  const cpu = parts.map((part) => part.cpuSeconds);
  return {
    parts: parts.length,
    recordsPerPart: { min: Math.min(...sizes), max: Math.max(...sizes) },
    buildMs,
    maxPartMs: Math.max(0, ...parts.map((part) => part.ms)),
    peakMB: peaks.length ? Math.max(...peaks) : null,
    cpuSeconds: cpu.every((seconds) => seconds !== null)
      ? cpu.reduce((sum, seconds) => sum + seconds, 0)
      : null,
    files: stats.files,
    totalBytes: stats.bytes,
  };
}

/** One Pagefind index of every record, laid out as the site had it before parts. */
async function writeSingleIndex(
  folder: string,
  records: readonly SearchRecord[],
): Promise<LayoutFigures> {
  const started = performance.now();
  const output = await runPagefind(records, SITE.uiLanguage);
  const writer = new FileWriter(folder);
  for (const file of stableIndexFiles(output.files)) {
    const name = file.path.replace(/^\/+/, "");
    if (/^pagefind-(ui|component-ui|modular-ui|highlight)\./.test(name)) continue;
    writer.write(paths.searchIndex() + name, file.content);
  }
  const ms = performance.now() - started;
  return layoutFigures(
    [
      {
        key: "all",
        records: records.length,
        built: true,
        ms,
        peakMB: output.peakMB,
        cpuSeconds: output.cpuSeconds,
      },
    ],
    ms,
    { files: writer.files, bytes: writer.bytes },
  );
}

/** An index in the given parts, with the site's own layout (src/search/index-layout.ts). */
async function writePartedIndex(
  folder: string,
  parts: readonly SearchPart[],
): Promise<LayoutFigures> {
  const started = performance.now();
  const writer = new FileWriter(folder);
  const summaries: PartSummary[] = [];
  const figures: PartFigures[] = [];
  let bundle: ReturnType<typeof bundleOf> | null = null;
  for (const part of parts) {
    const partStarted = performance.now();
    const output = await runPagefind(part.records, SITE.uiLanguage);
    const files = partFiles(part.key, output.files);
    bundle ??= bundleOf(output.files);
    for (const file of files.files) {
      writer.write(paths.searchIndexPart(part.key) + file.path, file.content);
    }
    // The tag only has to change with the part's records here: one version for the run.
    summaries.push(
      partSummary(part, partFingerprint(part, { version: "bench", language: SITE.uiLanguage })),
    );
    figures.push({
      key: part.key,
      records: part.records.length,
      built: true,
      ms: performance.now() - partStarted,
      peakMB: output.peakMB,
      cpuSeconds: output.cpuSeconds,
    });
  }
  if (bundle) {
    for (const file of rootFiles(bundle, summaries)) {
      writer.write(paths.searchIndex() + file.path, file.content);
    }
  }
  return layoutFigures(figures, performance.now() - started, {
    files: writer.files,
    bytes: writer.bytes,
  });
}

/** Parts by calendar: the alternative to months, for comparison only. */
function calendarParts(
  records: readonly SearchRecord[],
  calendars: readonly Calendar[],
): SearchPart[] {
  return calendars.flatMap((calendar) => {
    const own = records.filter((record) => record.filters.calendar?.[0] === calendar.id);
    if (!own.length) return [];
    const days = own.flatMap((record) => record.filters.day ?? []).sort();
    return [
      { key: calendar.id, records: own, firstDay: days[0] ?? "", lastDay: days.at(-1) ?? "" },
    ];
  });
}

/** How many of the later parts hold other records than the part of that key before. */
function changedParts(
  before: readonly SearchPart[],
  after: readonly SearchPart[],
): { changed: number; of: number } {
  const hashOf = (part: SearchPart) =>
    createHash("sha256").update(JSON.stringify(part.records)).digest("hex");
  const earlier = new Map(before.map((part) => [part.key, hashOf(part)]));
  return {
    changed: after.filter((part) => earlier.get(part.key) !== hashOf(part)).length,
    of: after.length,
  };
}

interface Query {
  readonly query: string;
  readonly term: string | null;
  readonly filters: Record<string, unknown>;
  /** First and last day; without it, every day (the search page's default). */
  readonly window?: readonly [string, string];
}

/** The days the synthetic data spans (60 before today to 180 after), split at today. */
function dayLists(today: string): { upcoming: string[]; past: string[] } {
  const start = DateTime.fromISO(today, { zone: "utc" });
  const list = (from: number, to: number) =>
    Array.from(
      { length: to - from + 1 },
      (_, i) => start.plus({ days: from + i }).toISODate() ?? "",
    );
  return { upcoming: list(0, 181), past: list(-61, -1) };
}

interface Hit {
  readonly id: string;
  readonly score: number;
  readonly data: () => Promise<{ url: string }>;
}

/**
 * Serves the outputs over loopback, counting bytes, and asks Pagefind what
 * the search page asks: the upcoming events matching the words and filters,
 * sorted by start, then the past ones, most recent first, then the first
 * page of results' fragments. With parts, as src/site/browser/search.ts
 * does: parts.json, the index with no pages, the parts the days reach.
 */
async function measureQueries(
  root: string,
  folders: Readonly<Record<Layout, string>>,
  queries: readonly Query[],
  days: { upcoming: string[]; past: string[] },
): Promise<SearchIndexBenchResult["queries"]> {
  let requests = 0;
  let bytes = 0;
  let byKind: Record<string, number> = {};
  const server = createServer((request, response) => {
    const file = path.join(
      root,
      decodeURIComponent(new URL(request.url ?? "/", "http://x").pathname),
    );
    if (!file.startsWith(root)) {
      response.writeHead(400).end();
      return;
    }
    stat(file)
      .then((info) => {
        requests += 1;
        bytes += info.size;
        const kind = kindOf(file);
        byKind[kind] = (byKind[kind] ?? 0) + info.size;
        response.writeHead(200, { "Content-Length": info.size });
        createReadStream(file).pipe(response);
      })
      .catch(() => response.writeHead(404).end());
  });
  // Longer than any pause between two queries: a connection the server ends
  // while the client reuses it fails the fetch (a busy machine pauses long).
  server.keepAliveTimeout = 120_000;
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let visit = 0;

  async function ask(layout: Layout, query: Query): Promise<QueryFigures> {
    const folder = path.join(folders[layout], paths.searchIndex());
    const base = `${origin}/${path.relative(root, folders[layout])}${paths.searchIndex()}`;
    const scriptBytes =
      (await stat(path.join(folder, "pagefind.js"))).size +
      (await stat(path.join(folder, "pagefind-worker.js"))).size;
    // A fresh copy of the script per query: a first visit, nothing cached.
    const pagefind = await import(
      `${pathToFileURL(path.join(folder, "pagefind.js")).href}?visit=${++visit}`
    );
    requests = 0;
    bytes = 0;
    byKind = {};
    const parted = layout !== "single";
    const list: { entry?: string; parts: PartSummary[] } = parted
      ? await (await fetch(`${base}${PARTS_FILE}`)).json()
      : { parts: [] };
    await pagefind.options({ basePath: base, baseUrl: "/", metaCacheTag: list.entry });
    await pagefind.init();
    const within = (days: string[]) =>
      query.window
        ? days.filter((day) => day >= (query.window?.[0] ?? "") && day <= (query.window?.[1] ?? ""))
        : days;
    const upcomingDays = within(days.upcoming);
    const pastDays = within(days.past);
    const searched = [...pastDays, ...upcomingDays];
    const first = searched[0] ?? "";
    const last = searched.at(-1) ?? "";
    await Promise.all(
      list.parts
        .filter((part) => part.records > 0 && part.firstDay <= last && part.lastDay >= first)
        .map((part) =>
          pagefind.mergeIndex(`${base}${part.key}/`, { baseUrl: "/", metaCacheTag: part.entry }),
        ),
    );
    const none = { results: [] };
    const [upcoming, past] = await Promise.all([
      upcomingDays.length
        ? pagefind.search(query.term, {
            filters: { ...query.filters, day: { any: upcomingDays } },
            sort: { start: "asc" },
          })
        : none,
      pastDays.length
        ? pagefind.search(query.term, {
            filters: { ...query.filters, day: { any: pastDays } },
            sort: { start: "desc" },
          })
        : none,
    ]);
    const upcomingIds = new Set((upcoming.results as Hit[]).map((hit) => hit.id));
    const results = [
      ...inOrder(upcoming.results, list.parts, 1),
      ...inOrder(
        (past.results as Hit[]).filter((hit) => !upcomingIds.has(hit.id)),
        list.parts,
        -1,
      ),
    ];
    const shown = await Promise.all(results.slice(0, PER_PAGE).map((result) => result.data()));
    const figures = {
      results: results.length,
      requests,
      bytes,
      bytesWithScripts: bytes + scriptBytes,
      byKind,
      firstPage: shown.map((data) => data.url),
    };
    await pagefind.destroy?.();
    return figures;
  }

  try {
    const figures: SearchIndexBenchResult["queries"][number][] = [];
    for (const query of queries) {
      figures.push({
        query: query.query,
        single: await ask("single", query),
        months: await ask("months", query),
        calendars: await ask("calendars", query),
      });
    }
    return figures;
  } finally {
    server.closeAllConnections();
    await new Promise((done) => server.close(done));
  }
}

/** As src/site/browser/search.ts orders merged results: part, then place within the part. */
function inOrder(hits: readonly Hit[], parts: readonly PartSummary[], direction: 1 | -1): Hit[] {
  if (!parts.length) return [...hits];
  const rank = new Map(parts.map((part, i) => [part.key, i]));
  const partOf = (hit: Hit) => rank.get(hit.id.slice(0, hit.id.indexOf("_"))) ?? 0;
  return [...hits].sort((a, b) => direction * (partOf(a) - partOf(b)) || b.score - a.score);
}

function kindOf(file: string): string {
  const name = path.basename(file);
  if (name.startsWith("wasm.")) return "wasm";
  if (name === PARTS_FILE) return "parts";
  if (name.endsWith(".pf_meta")) return "meta";
  if (name.endsWith(".json")) return "entry";
  return path.extname(name).replace(".pf_", "") || name;
}

export function formatSearchIndexBench(result: SearchIndexBenchResult): string {
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
  const n = (value: number) => value.toLocaleString("en");
  const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  const layout = (name: string, f: LayoutFigures) =>
    `  ${name.padEnd(22)} ${String(f.parts).padStart(5)}  ${`${n(f.recordsPerPart.min)}-${n(f.recordsPerPart.max)}`.padStart(13)}  ${s(f.buildMs).padStart(8)}  ${s(f.maxPartMs).padStart(9)}  ${(f.peakMB === null ? "-" : `${n(f.peakMB)} MB`).padStart(9)}  ${(f.cpuSeconds === null ? "-" : s(f.cpuSeconds * 1000)).padStart(9)}  ${n(f.files).padStart(7)}  ${kb(f.totalBytes).padStart(10)}`;
  const cell = (q: QueryFigures) => `${q.requests} / ${kb(q.bytes)}`.padStart(17);
  const byKind = (query: string, q: QueryFigures) =>
    `  ${query.padEnd(34)} ${Object.entries(q.byKind)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([kind, bytes]) => `${kind} ${kb(bytes)}`)
      .join(", ")}`;
  const { months, calendars } = result.dayLater;
  const same = result.queries.every(
    (q) =>
      q.months.results === q.single.results &&
      JSON.stringify(q.months.firstPage) === JSON.stringify(q.single.firstPage),
  );
  return [
    `Search index, ${n(result.events)} events (${n(result.records)} records), load average ${result.loadAverage.toFixed(1)}`,
    "  layout                 parts  records/part   build s  slowest s  Pagefind  its CPU s    files     all KB",
    layout("in parts by month", result.months),
    layout("one index (before)", result.single),
    layout("in parts by calendar", result.calendars),
    `  parts changed one day later (30-day archive): by month ${months.changed} of ${months.of}, by calendar ${calendars.changed} of ${calendars.of}`,
    "  first query: requests / index bytes (pagefind.js and its worker not counted)",
    "  query                              results  by month (site)  one index (before)     by calendar",
    ...result.queries.map(
      (q) =>
        `  ${q.query.padEnd(34)} ${String(q.months.results).padStart(7)}  ${cell(q.months)}  ${cell(q.single).padStart(18)}  ${cell(q.calendars).padStart(14)}`,
    ),
    `  the same results and first page by month as with one index: ${same ? "yes" : "NO"}`,
    "  index bytes by kind of file, by month",
    ...result.queries.map((q) => byKind(q.query, q.months)),
    "  index bytes by kind of file, one index",
    ...result.queries.map((q) => byKind(q.query, q.single)),
  ].join("\n");
}

const SEARCH_INDEX_BENCH = defineCommand({
  run: "node --import tsx bench/search-index.ts",
  summary:
    "The search index at scale: built for a synthetic portal as a build does, in parts by month, against one index and parts by calendar; then typical queries through Pagefind's own browser script, and what a visitor downloads.",
  options: {
    calendars: { type: "string", value: "<n>", default: "4", meaning: "calendars of the portal" },
    "events-per-calendar": {
      type: "string",
      value: "<n>",
      default: "2500",
      meaning: "events in each calendar",
    },
  },
  settings: [],
});

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const { values } = readCommandLine(SEARCH_INDEX_BENCH);
  const count = (name: keyof typeof values): number => {
    const value = Number(values[name]);
    if (!Number.isInteger(value) || value < 1) {
      stopWithUsageError(
        SEARCH_INDEX_BENCH,
        `--${name}: expected a whole number, got "${values[name]}"`,
      );
    }
    return value;
  };
  const result = await benchSearchIndex({
    calendars: count("calendars"),
    eventsPerCalendar: count("events-per-calendar"),
  });
  console.log(formatSearchIndexBench(result));
}
