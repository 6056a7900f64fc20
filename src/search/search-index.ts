import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { PublishError } from "../errors.ts";
import { messagesFor, translate } from "../i18n/messages.ts";
import { count, peak } from "../metrics.ts";
import { eventDigest } from "../model/event-digest.ts";
import type { Calendar, CalendarEvent } from "../model/types.ts";
import { paths } from "../model/url-scheme.ts";
import { FileWriter } from "../render/file-writer.ts";
import { owns, type Shard, searchPartShardKey, WHOLE_BUILD } from "../shards/shard.ts";
import {
  bundleOf,
  type PartFiles,
  partFiles,
  partSummary,
  rootFiles,
  type SearchBundle,
} from "./index-layout.ts";
import { MonthPlans, type PlannedPart } from "./month-plans.ts";
import { runPagefind } from "./pagefind-indexer.ts";
import { PartCache, type PartSettings, partFingerprint } from "./part-cache.ts";
import type { PartSummary } from "./part-summary.ts";
import { type SearchPart, searchParts, sortMonth } from "./search-parts.ts";
import { type SearchRecord, searchRecords, sortKey } from "./search-records.ts";
import type { IndexFile } from "./stable-index.ts";

/**
 * Writes the site's search index with Pagefind: one custom record per
 * published event, built from the snapshot rather than by crawling the
 * written pages, so it does not depend on how pages are rendered. The index
 * is made of parts (search-parts.ts: the events of one month each), each a
 * Pagefind index of its own, indexed one after the other and kept between
 * builds; the browser (src/site/browser/search.ts) merges the parts a search
 * needs (index-layout.ts says how they are laid out). Nothing runs on a
 * server.
 */

/** What the site data (src/site/load.ts) holds; `views.events` are the published events. */
export interface SearchIndexInput {
  readonly calendars: readonly Calendar[];
  readonly views: { readonly events: readonly CalendarEvent[] };
}

export interface SearchIndexSite {
  readonly lang: string;
  readonly uiLanguage: string;
  readonly timeZone: string;
}

export interface SearchIndexStats {
  readonly records: number;
  readonly files: number;
  readonly bytes: number;
}

/** What became of one part in this build. */
export interface PartFigures {
  readonly key: string;
  readonly records: number;
  /** Indexed by Pagefind in this build (false: taken from the cache). */
  readonly built: boolean;
  /** Pagefind's time for it, records to files, in ms (0 when reused). */
  readonly ms: number;
  /** Pagefind's peak memory while indexing it, in MB (null when reused or unknown). */
  readonly peakMB: number | null;
  /** The CPU time of Pagefind's process for it, in seconds (0 when reused; null when unknown). */
  readonly cpuSeconds: number | null;
}

/** Builds the records for a site: the labels come from the site's language. */
export function recordsFor(input: SearchIndexInput, site: SearchIndexSite): SearchRecord[] {
  count("searchRecordsMade", input.views.events.length);
  const messages = messagesFor(site.lang);
  return searchRecords(input.views.events, input.calendars, {
    lang: site.lang,
    timeZone: site.timeZone,
    labels: {
      allDay: translate(messages, "allDay"),
      onlineEvent: translate(messages, "onlineEvent"),
      hybridEvent: translate(messages, "hybridEvent"),
    },
  });
}

/** Writes the index into a site folder; fails the build with one line if Pagefind reports an error. */
export async function writeSearchIndex(
  outputDir: string,
  input: SearchIndexInput,
  site: SearchIndexSite,
  options: SearchIndexOptions = {},
): Promise<SearchIndexStats & { readonly parts: readonly PartFigures[] }> {
  const index = await buildSearchIndex(input, site, options);
  return { ...index.writeTo(new FileWriter(outputDir)), parts: index.parts };
}

export interface SearchIndexOptions {
  /** EVENT_API_CACHE_DIR: parts whose records did not change are taken from there. */
  readonly cacheDir?: string;
  /** At most this many records in a part (search-parts.ts; for tests and the benchmark). */
  readonly maxRecordsPerPart?: number;
  /**
   * A split build's share (src/shards): the parts it owns are indexed and
   * written; shard 1 writes the files every part shares (parts.json, the bundle).
   */
  readonly shard?: Shard;
}

/** An index Pagefind has built, held in memory until the site's files are written. */
export interface BuiltSearchIndex {
  readonly records: number;
  readonly parts: readonly PartFigures[];
  writeTo(writer: FileWriter): SearchIndexStats;
}

/**
 * Indexes the site's events, part by part: Pagefind does the work in its own
 * process, so a build starts this before rendering and writes the files
 * afterwards, and the indexing runs beside Eleventy instead of after it.
 * One part at a time, each in a Pagefind process of its own, so that the
 * memory Pagefind needs is that of the largest part, not of the whole index.
 *
 * With `cacheDir`, each part is kept there and reused while its records
 * stay the same (part-cache.ts): a build in which no event changed indexes
 * nothing, and one in which an event changed indexes only that event's part.
 *
 * In a split build each shard indexes and writes its own parts; parts.json
 * names every part by what it is made from, so shard 1 writes it without
 * the other shards' files.
 */
export async function buildSearchIndex(
  input: SearchIndexInput,
  site: SearchIndexSite,
  options: SearchIndexOptions = {},
): Promise<BuiltSearchIndex> {
  const shard = options.shard ?? WHOLE_BUILD;
  const settings = { version: PAGEFIND_VERSION, language: site.uiLanguage };
  const cache = options.cacheDir ? new PartCache(options.cacheDir, settings) : null;
  // What is held until the files are written: a part's files only when the
  // cache could not keep them, and its records only until Pagefind has them
  // (a 100,000-event site's records and index are hundreds of MB).
  const { owned, summaries, sample, records } = planParts(input, site, {
    settings,
    shard,
    cache,
    months: options.cacheDir ? MonthPlans.load(options.cacheDir) : null,
    maxRecords: options.maxRecordsPerPart,
  });
  // The parts the cache holds, then the others indexed one after the other:
  // while Pagefind indexes one, this thread makes the files of the one before.
  const toIndex = owned.filter((part) => part.pending);
  let bundle: SearchBundle | null = null;
  const run = (i: number) => {
    const part = toIndex[i]?.pending;
    const started = part ? timedRun(part, site.uiLanguage) : null;
    started?.catch(() => {}); // awaited in its round, unless an earlier one fails first
    return started;
  };
  let next = run(0);
  for (let i = 0; next; i++) {
    const part = toIndex[i] as (typeof toIndex)[number];
    const { output, ms } = await next;
    part.pending = null;
    next = run(i + 1);
    const files = partFiles(part.key, output.files);
    bundle ??= bundleOf(output.files);
    count("searchPartsBuilt");
    count("searchRecordsIndexed", part.records);
    peak("searchPartMaxMs", Math.round(ms));
    if (output.peakMB !== null) peak("searchIndexerPeakMB", output.peakMB);
    if (output.cpuSeconds !== null)
      count("searchIndexerCpuMs", Math.round(output.cpuSeconds * 1000));
    if (!cache?.writePart(part.fingerprint, files)) part.files = files;
    part.figures = {
      key: part.key,
      records: part.records,
      built: true,
      ms,
      peakMB: output.peakMB,
      cpuSeconds: output.cpuSeconds,
    };
  }
  const figures = owned.map((part): PartFigures => {
    if (part.figures) return part.figures;
    count("searchPartsReused");
    return {
      key: part.key,
      records: part.records,
      built: false,
      ms: 0,
      peakMB: null,
      cpuSeconds: 0,
    };
  });
  // The whole index is new when any part is; counted for the build's report and tests.
  count(figures.some((part) => part.built) ? "searchIndexBuilt" : "searchIndexReused");
  let root: IndexFile[] = [];
  if (owns(shard, null)) {
    bundle ??= cache?.readBundle() ?? null;
    if (!bundle) {
      // Every part came from the cache but the bundle did not: an index of one
      // record (or none) gives Pagefind's script and WebAssembly for the language.
      bundle = bundleOf((await runPagefind(sample(), site.uiLanguage)).files);
    }
    cache?.writeBundle(bundle);
    root = rootFiles(bundle, summaries);
  }
  // Shards may share one cache folder: each knows every part of the index
  // (parts.json names them all), so none removes what another one uses.
  cache?.prune();
  const readPart = (part: (typeof owned)[number]): PartFiles => {
    const files = part.files ?? cache?.readPart(part.fingerprint, part.key);
    if (!files) {
      throw new PublishError(
        `The search index's part ${part.key} went missing from ${options.cacheDir} during the build; build again.`,
      );
    }
    return files;
  };
  return {
    records,
    parts: figures,
    writeTo: (writer) => ({ records, ...writeFiles(root, owned, readPart, writer) }),
  };
}

/** One part of this shard's, while the index is built. */
interface OwnedPart {
  readonly key: string;
  readonly records: number;
  readonly fingerprint: string;
  /** The part, records and all, until Pagefind has indexed it; null once it has, or when cached. */
  pending: SearchPart | null;
  /** Its files when the cache could not keep them. */
  files: PartFiles | null;
  figures: PartFigures | null;
}

interface PartsPlan {
  readonly owned: OwnedPart[];
  /** Every part's line in parts.json. */
  readonly summaries: readonly PartSummary[];
  /** One record (or none): enough for an index that gives Pagefind's bundle. */
  readonly sample: () => readonly SearchRecord[];
  readonly records: number;
}

/**
 * The site's records in parts, each named by its fingerprint; of the
 * records, only those of this shard's parts the cache does not hold are
 * kept (in `pending`), until they are indexed. A month whose inputs are
 * those of the last build (month-plans.ts) is planned from the cache
 * without its records, unless one of its parts must be indexed.
 */
function planParts(
  input: SearchIndexInput,
  site: SearchIndexSite,
  options: {
    readonly settings: PartSettings;
    readonly shard: Shard;
    readonly cache: PartCache | null;
    readonly months: MonthPlans | null;
    readonly maxRecords: number | undefined;
  },
): PartsPlan {
  const { cache, months: plans, shard, settings } = options;
  const byMonth = eventsByMonth(input);
  const inputsOf = monthInputs(input.calendars, site, settings, options.maxRecords);
  const summaries: PartSummary[] = [];
  const owned: OwnedPart[] = [];
  let total = 0;
  for (const month of [...byMonth.keys()].sort()) {
    const events = byMonth.get(month) as CalendarEvent[];
    const inputs = plans && inputsOf(month, events);
    let planned = inputs ? plans?.get(inputs) : undefined;
    const needed = ({ summary, fingerprint }: PlannedPart) =>
      owns(shard, searchPartShardKey(summary.key)) && !cache?.has(fingerprint);
    let parts: SearchPart[] | null = null;
    if (!planned || planned.some(needed)) {
      const records = recordsFor({ calendars: input.calendars, views: { events } }, site);
      parts = searchParts(records, { maxRecords: options.maxRecords });
      planned = parts.map((part) => {
        const fingerprint = partFingerprint(part, settings);
        return { summary: partSummary(part, fingerprint), fingerprint };
      });
    } else {
      count("searchMonthsKept");
    }
    if (inputs) plans?.set(inputs, planned);
    planned.forEach(({ summary, fingerprint }, index) => {
      summaries.push(summary);
      total += summary.records;
      if (!owns(shard, searchPartShardKey(summary.key))) {
        cache?.keep(fingerprint);
        return;
      }
      owned.push({
        key: summary.key,
        records: summary.records,
        fingerprint,
        pending: cache?.has(fingerprint) ? null : (parts?.[index] ?? null),
        files: null,
        figures: null,
      });
    });
  }
  plans?.save();
  return {
    owned,
    summaries,
    // The first record in the site's order, made only if the bundle must come from it.
    sample: () => recordsFor(input, site).slice(0, 1),
    records: total,
  };
}

/** The published events by the month their records are filed under, each in the site's order. */
function eventsByMonth(input: SearchIndexInput): Map<string, CalendarEvent[]> {
  const known = new Set(input.calendars.map((calendar) => calendar.id));
  const byMonth = new Map<string, CalendarEvent[]>();
  for (const event of input.views.events) {
    // An event of no known calendar has no record (search-records.ts).
    if (!known.has(event.calendarId)) continue;
    const month = sortMonth(sortKey(event));
    const list = byMonth.get(month);
    if (list) list.push(event);
    else byMonth.set(month, [event]);
  }
  return byMonth;
}

/**
 * A digest of everything a month's records and parts are made from: the
 * settings, the month, and each of its events whole with its calendar's id
 * and name, in the site's order (the code and ICU are month-plans.ts' key).
 */
function monthInputs(
  calendars: readonly Calendar[],
  site: SearchIndexSite,
  partSettings: PartSettings,
  maxRecords: number | undefined,
): (month: string, events: readonly CalendarEvent[]) => string {
  // What a record shows of its calendar (search-records.ts); not its updatedAt, which an edit moves.
  const calendarJson = new Map(
    calendars.map((calendar) => [calendar.id, JSON.stringify([calendar.id, calendar.name])]),
  );
  const settings = JSON.stringify([
    site.lang,
    site.uiLanguage,
    site.timeZone,
    partSettings,
    maxRecords ?? null,
  ]);
  return (month, events) => {
    const hash = createHash("sha256").update(settings).update(`\n${month}`);
    for (const event of events) {
      hash.update(`\n${eventDigest(event)} ${calendarJson.get(event.calendarId)}`);
    }
    return hash.digest("base64url");
  };
}

/** Pagefind's indexing of one part, timed from its start to its files. */
async function timedRun(part: SearchPart, language: string) {
  const started = performance.now();
  const output = await runPagefind(part.records, language);
  return { output, ms: performance.now() - started };
}

/**
 * Pagefind's version is part of the cache's key: another version may write
 * another index.
 */
const PAGEFIND_VERSION = pagefindVersion();

/** Read from its package.json, which the package does not export: found above its entry file. */
function pagefindVersion(): string {
  let dir = dirname(fileURLToPath(import.meta.resolve("pagefind")));
  for (let up = 0; up < 3; up++, dir = dirname(dir)) {
    try {
      const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
      if (manifest.name === "pagefind") return String(manifest.version);
    } catch {
      // not here; one folder up
    }
  }
  return "unknown";
}

/** Writes the index files into the site's search index folder (paths.searchIndex), a part at a time. */
function writeFiles<Part extends { readonly key: string }>(
  root: readonly IndexFile[],
  parts: readonly Part[],
  read: (part: Part) => PartFiles,
  writer: FileWriter,
): Omit<SearchIndexStats, "records"> {
  let written = 0;
  let bytes = 0;
  const write = (path: string, content: Uint8Array) => {
    writer.write(path, content);
    written++;
    bytes += content.byteLength;
  };
  for (const file of root) write(paths.searchIndex() + file.path, file.content);
  for (const part of parts) {
    const files = read(part);
    for (const file of files.files)
      write(paths.searchIndexPart(files.key) + file.path, file.content);
  }
  return { files: written, bytes };
}
