import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { deserialize, serialize } from "node:v8";
import * as pagefind from "pagefind";
import { PublishError } from "../errors.ts";
import { loadMessages, translate } from "../i18n/messages.ts";
import { count } from "../metrics.ts";
import type { Calendar, CalendarEvent } from "../model/types.ts";
import { paths } from "../model/url-scheme.ts";
import { FileWriter } from "../render/file-writer.ts";
import { type SearchRecord, searchRecords } from "./search-records.ts";
import { type IndexFile, stableIndexFiles } from "./stable-index.ts";

/**
 * Writes the site's search index with Pagefind (its Node API and native
 * binary from the `pagefind` and `@pagefind/<platform>` packages): one custom
 * record per published event, built from the snapshot rather than by
 * crawling the written pages, so it does not depend on how pages are
 * rendered. The browser (templates/assets/search.js) loads the bundle's
 * pagefind.js (paths.searchIndex) and the index chunks it needs for a query;
 * nothing runs on a server.
 */

/**
 * Pagefind writes its own ready-made search interfaces next to the index; the
 * site has its own (templates/search.njk), so these are removed.
 */
const UNUSED_FILES = /^pagefind-(ui|component-ui|modular-ui|highlight)\.(js|css)$/;

/** Records are sent to Pagefind's process in batches of this many. */
const BATCH = 500;

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

/** Builds the records for a site: the labels come from the site's language. */
function recordsFor(input: SearchIndexInput, site: SearchIndexSite): SearchRecord[] {
  const messages = loadMessages(site.uiLanguage);
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
): Promise<SearchIndexStats> {
  return (await buildSearchIndex(input, site)).writeTo(new FileWriter(outputDir));
}

/** An index Pagefind has built, held in memory until the site's files are written. */
export interface BuiltSearchIndex {
  readonly records: number;
  writeTo(writer: FileWriter): SearchIndexStats;
}

/**
 * Indexes the site's events: Pagefind does the work in its own process, so a
 * build starts this before rendering and writes the files afterwards, and
 * the indexing runs beside Eleventy instead of after it.
 *
 * With `cacheDir` (EVENT_API_CACHE_DIR), the index of the last build is kept
 * there and reused when the records and the Pagefind version are the same:
 * Pagefind's output for the same records is the same index, and a rebuild in
 * which no event changed (a date-relative one, or a retried deploy) then
 * skips the largest single cost of the build.
 */
export async function buildSearchIndex(
  input: SearchIndexInput,
  site: SearchIndexSite,
  options: { readonly cacheDir?: string } = {},
): Promise<BuiltSearchIndex> {
  const records = recordsFor(input, site);
  const cache = options.cacheDir ? new IndexCache(options.cacheDir, records, site) : null;
  const reused = cache?.read() ?? null;
  const files = reused ?? (await indexRecords(records, site.uiLanguage));
  if (reused) count("searchIndexReused");
  else {
    count("searchIndexBuilt");
    cache?.write(files);
  }
  return {
    records: records.length,
    writeTo: (writer) => ({ records: records.length, ...writeFiles(files, writer) }),
  };
}

async function indexRecords(records: readonly SearchRecord[], language: string) {
  try {
    const created = await pagefind.createIndex({ forceLanguage: language });
    if (!created.index) throw failure(created.errors);
    const index = created.index;
    for (let i = 0; i < records.length; i += BATCH) {
      const answers = await Promise.all(
        records.slice(i, i + BATCH).map((record) => index.addCustomRecord(record)),
      );
      const errors = answers.flatMap((answer) => answer.errors);
      if (errors.length) throw failure(errors);
    }
    // The files come back in memory and are written here: Pagefind's own
    // writeFiles can answer before its last file is complete, and closing
    // its process then would leave that file cut short.
    const built = await index.getFiles();
    if (built.errors.length) throw failure(built.errors);
    return stableIndexFiles(built.files as readonly IndexFile[]);
  } finally {
    await pagefind.close();
  }
}

/**
 * Pagefind's version is part of the key: another version may write another
 * index; and so is how the files are laid out here (2: stable-index.ts).
 */
const PAGEFIND_VERSION = pagefindVersion();
const LAYOUT = 2;
const CACHE_PREFIX = "search-index-";

/**
 * The last build's index, one file in the cache folder named by a hash of
 * what the index is made from. Best effort both ways: a missing, unreadable
 * or unwritable cache only means Pagefind indexes again.
 */
class IndexCache {
  readonly #dir: string;
  readonly #file: string;

  constructor(cacheDir: string, records: readonly SearchRecord[], site: SearchIndexSite) {
    // Record by record: one string of every record would be ~100 MB at 100,000 events.
    const hash = createHash("sha256").update(
      JSON.stringify([PAGEFIND_VERSION, LAYOUT, site.uiLanguage]),
    );
    for (const record of records) hash.update(`\n${JSON.stringify(record)}`);
    const key = hash.digest("hex").slice(0, 32);
    this.#dir = cacheDir;
    this.#file = join(cacheDir, `${CACHE_PREFIX}${key}.v8`);
  }

  read(): readonly IndexFile[] | null {
    try {
      const files = deserialize(readFileSync(this.#file)) as IndexFile[];
      return Array.isArray(files) && files.every((f) => f.content instanceof Uint8Array)
        ? files
        : null;
    } catch {
      return null;
    }
  }

  write(files: readonly IndexFile[]): void {
    try {
      mkdirSync(this.#dir, { recursive: true });
      for (const name of readdirSync(this.#dir)) {
        if (name.startsWith(CACHE_PREFIX)) rmSync(join(this.#dir, name), { force: true });
      }
      const temporary = `${this.#file}.${process.pid}.tmp`;
      writeFileSync(
        temporary,
        serialize(files.map((file) => ({ path: file.path, content: file.content }))),
      );
      renameSync(temporary, this.#file);
    } catch {
      // Not kept: the next build indexes again.
    }
  }
}

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

/** Writes the index files into the site's search index folder (paths.searchIndex). */
function writeFiles(
  files: readonly IndexFile[],
  writer: FileWriter,
): Omit<SearchIndexStats, "records"> {
  let written = 0;
  let bytes = 0;
  for (const file of files) {
    const name = file.path.replace(/^\/+/, "");
    if (UNUSED_FILES.test(name)) continue;
    if (name.split("/").includes("..")) throw failure([`unexpected file ${file.path}`]);
    writer.write(paths.searchIndex() + name, file.content);
    written++;
    bytes += file.content.byteLength;
  }
  return { files: written, bytes };
}

function failure(errors: readonly string[]): PublishError {
  return new PublishError(`Pagefind could not build the search index: ${errors.join("; ")}`);
}
