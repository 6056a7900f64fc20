import { mkdir, readdir, stat, writeFile } from "node:fs/promises";
import { dirname, join, relative } from "node:path";
import * as pagefind from "pagefind";
import { PublishError } from "../errors.ts";
import { loadMessages, translate } from "../i18n/messages.ts";
import type { Calendar, CalendarEvent } from "../model/types.ts";
import { type SearchRecord, searchRecords } from "./search-records.ts";

/**
 * Writes the site's search index with Pagefind (its Node API and native
 * binary from the `pagefind` and `@pagefind/<platform>` packages): one custom
 * record per published event, built from the snapshot rather than by
 * crawling the written pages, so it does not depend on how pages are
 * rendered. The browser (templates/assets/search.js) loads /pagefind/pagefind.js
 * and the index chunks it needs for a query; nothing runs on a server.
 */

/** Folder of the index inside the site. */
export const SEARCH_INDEX_FOLDER = "pagefind";

/**
 * Pagefind writes its own ready-made search interfaces next to the index; the
 * site has its own (templates/search.njk), so these are removed.
 */
const UNUSED_FILES = /^pagefind-(ui|component-ui|modular-ui|highlight)\.(js|css)$/;

/** Records are sent to Pagefind's process in batches of this many. */
const BATCH = 500;

const WRITES_IN_FLIGHT = 64;

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
export function recordsFor(input: SearchIndexInput, site: SearchIndexSite): SearchRecord[] {
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

/** Writes `<outputDir>/pagefind/`; fails the build with one line if Pagefind reports an error. */
export async function writeSearchIndex(
  outputDir: string,
  input: SearchIndexInput,
  site: SearchIndexSite,
): Promise<SearchIndexStats> {
  const records = recordsFor(input, site);
  const folder = join(outputDir, SEARCH_INDEX_FOLDER);
  await writeRecords(records, folder, site.uiLanguage);
  const { files, bytes } = await countFiles(folder);
  return { records: records.length, files, bytes };
}

/** Indexes `records` with Pagefind and writes the index into `folder`. */
export async function writeRecords(
  records: readonly SearchRecord[],
  folder: string,
  language: string,
): Promise<void> {
  let files: { path: string; content: Uint8Array }[];
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
    files = built.files;
  } finally {
    await pagefind.close();
  }
  const written = files
    .map((file) => ({ path: file.path.replace(/^\/+/, ""), content: file.content }))
    .filter((file) => !UNUSED_FILES.test(file.path))
    .map((file) => ({ target: join(folder, file.path), content: file.content }));
  for (const { target } of written) {
    if (relative(folder, target).startsWith("..")) throw failure([`unexpected file ${target}`]);
  }
  for (const dir of new Set(written.map(({ target }) => dirname(target)))) {
    await mkdir(dir, { recursive: true });
  }
  // Thousands of small files: a few dozen writes in flight keep the disk busy.
  for (let i = 0; i < written.length; i += WRITES_IN_FLIGHT) {
    await Promise.all(
      written
        .slice(i, i + WRITES_IN_FLIGHT)
        .map(({ target, content }) => writeFile(target, content)),
    );
  }
}

function failure(errors: readonly string[]): PublishError {
  return new PublishError(`Pagefind could not build the search index: ${errors.join("; ")}`);
}

async function countFiles(folder: string): Promise<{ files: number; bytes: number }> {
  let files = 0;
  let bytes = 0;
  for (const entry of await readdir(folder, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    files += 1;
    bytes += (await stat(join(entry.parentPath, entry.name))).size;
  }
  return { files, bytes };
}
