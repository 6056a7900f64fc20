import { createReadStream } from "node:fs";
import { mkdtemp, rm, stat } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { DateTime } from "luxon";
import { EMPTY_FIELD_MAP } from "../src/model/field-map.ts";
import { normalizeSnapshot } from "../src/model/normalize-snapshot.ts";
import { paths } from "../src/model/url-scheme.ts";
import { createSyntheticDataset } from "../src/portal/index.ts";
import { writeSearchIndex } from "../src/search/search-index.ts";
import { buildViews } from "../src/site/views.ts";

/**
 * The search index at scale: builds it for a synthetic portal (default 4
 * calendars x 2,500 events) exactly as a build does (src/search/search-index.ts,
 * from the snapshot), then runs typical queries through Pagefind's own
 * browser script (/pagefind/pagefind.js, in Node, fetching over loopback
 * HTTP) and counts what a visitor downloads. Counts and bytes are exact;
 * the build time depends on the machine and its load.
 *
 *   node --import tsx bench/search-index.ts [--events-per-calendar N] [--calendars N]
 */

export interface SearchIndexBenchOptions {
  readonly calendars?: number;
  readonly eventsPerCalendar?: number;
  /** Where the temporary output goes (default: the system temporary folder). */
  readonly outputRoot?: string;
}

export interface QueryFigures {
  /** What the visitor asked, as the search page's URL parameters. */
  readonly query: string;
  readonly results: number;
  /** Requests and bytes fetched by pagefind.js for the query and its first page of 20 results. */
  readonly requests: number;
  readonly bytes: number;
  /** The same plus pagefind.js and pagefind-worker.js, which a browser loads first. */
  readonly bytesWithScripts: number;
  /** Bytes by kind of file: wasm, meta, index, filter, fragment, entry. */
  readonly byKind: Readonly<Record<string, number>>;
}

export interface SearchIndexBenchResult {
  readonly name: "search-index";
  readonly events: number;
  readonly records: number;
  /** Wall time of writeSearchIndex: records, Pagefind's indexing and writing the files. */
  readonly buildMs: number;
  readonly files: number;
  /** Every file in /pagefind/ (index chunks, fragments, filters, scripts, WebAssembly). */
  readonly totalBytes: number;
  readonly queries: readonly QueryFigures[];
}

const NOW = "2026-03-20T12:00:00Z";
const ZONE = "Europe/Amsterdam";
const PER_PAGE = 20;

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
    const views = buildViews(snapshot, { now, pastDays: 365, timeZone: ZONE });
    const site = { lang: "en-GB", uiLanguage: "en", timeZone: ZONE };

    const started = performance.now();
    const stats = await writeSearchIndex(root, { calendars: snapshot.calendars, views }, site);
    const buildMs = performance.now() - started;

    const days = dayLists(now.setZone(ZONE).toISODate() ?? "");
    const queries = await measureQueries(
      root,
      [
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
      ],
      days,
    );
    return {
      name: "search-index",
      events: views.events.length,
      records: stats.records,
      buildMs,
      files: stats.files,
      totalBytes: stats.bytes,
      queries,
    };
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

interface Query {
  readonly query: string;
  readonly term: string | null;
  readonly filters: Record<string, unknown>;
  /** First and last day; without it, the upcoming days (the search page's default). */
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

/**
 * Serves the output over loopback, counting bytes, and asks Pagefind what
 * the search page asks: the upcoming events matching the words and filters,
 * sorted by start, then the first page of results' fragments.
 */
async function measureQueries(
  root: string,
  queries: readonly Query[],
  days: { upcoming: string[]; past: string[] },
): Promise<QueryFigures[]> {
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
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const folder = path.join(root, paths.searchIndex());
  const scriptBytes =
    (await stat(path.join(folder, "pagefind.js"))).size +
    (await stat(path.join(folder, "pagefind-worker.js"))).size;
  try {
    const figures: QueryFigures[] = [];
    for (const query of queries) {
      // A fresh copy of the script per query: a first visit, nothing cached.
      const pagefind = await import(
        `${pathToFileURL(path.join(folder, "pagefind.js")).href}?visit=${figures.length}`
      );
      await pagefind.options({ basePath: `${origin}${paths.searchIndex()}` });
      await pagefind.init();
      requests = 0;
      bytes = 0;
      byKind = {};
      // As templates/assets/search.js does: upcoming days sorted by start, then
      // past days most recent first, and the fragments of the first page.
      const within = (list: string[]) =>
        query.window
          ? list.filter(
              (day) => day >= (query.window?.[0] ?? "") && day <= (query.window?.[1] ?? ""),
            )
          : list;
      const upcomingDays = within(days.upcoming);
      const pastDays = within(days.past);
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
      const results = [...upcoming.results, ...past.results] as {
        data: () => Promise<unknown>;
      }[];
      await Promise.all(results.slice(0, PER_PAGE).map((result) => result.data()));
      figures.push({
        query: query.query,
        results: results.length,
        requests,
        bytes,
        bytesWithScripts: bytes + scriptBytes,
        byKind,
      });
      await pagefind.destroy?.();
    }
    return figures;
  } finally {
    server.closeAllConnections();
    await new Promise((done) => server.close(done));
  }
}

function kindOf(file: string): string {
  const name = path.basename(file);
  if (name.startsWith("wasm.")) return "wasm";
  if (name.endsWith(".pf_meta")) return "meta";
  if (name.endsWith(".json")) return "entry";
  return path.extname(name).replace(".pf_", "") || name;
}

export function formatSearchIndexBench(result: SearchIndexBenchResult): string {
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
  const lines = [
    `Search index, ${result.events.toLocaleString("en")} events (${result.records.toLocaleString("en")} records)`,
    `  build ${(result.buildMs / 1000).toFixed(2)} s; ${result.files.toLocaleString("en")} files, ${kb(result.totalBytes)} in all`,
    "  query                              results  requests  index bytes  with scripts",
    ...result.queries.map(
      (q) =>
        `  ${q.query.padEnd(34)} ${String(q.results).padStart(7)}  ${String(q.requests).padStart(8)}  ${kb(q.bytes).padStart(11)}  ${kb(q.bytesWithScripts).padStart(12)}`,
    ),
    "  index bytes by kind of file",
    ...result.queries.map(
      (q) =>
        `  ${q.query.padEnd(34)} ${Object.entries(q.byKind)
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([kind, bytes]) => `${kind} ${kb(bytes)}`)
          .join(", ")}`,
    ),
  ];
  return lines.join("\n");
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const arg = (name: string) => {
    const index = process.argv.indexOf(name);
    return index === -1 ? undefined : Number(process.argv[index + 1]);
  };
  const result = await benchSearchIndex({
    calendars: arg("--calendars"),
    eventsPerCalendar: arg("--events-per-calendar"),
  });
  console.log(formatSearchIndexBench(result));
}
