import { createHash } from "node:crypto";
import { gzipSync } from "node:zlib";
import { encode } from "cborg";
import { PublishError } from "../errors.ts";
import type { PartSummary } from "./part-summary.ts";
import type { SearchPart } from "./search-parts.ts";
import { type IndexFile, stableIndexFiles } from "./stable-index.ts";

/**
 * How the parts of the search index sit in its folder (paths.searchIndex,
 * docs/site.md "Search and filters"):
 *
 *   pagefind.js, pagefind-worker.js, wasm.<language>.pagefind
 *       Pagefind's browser script, its worker and its WebAssembly, the same
 *       for every part: fetched once, whatever the number of parts.
 *   pagefind-entry.json, pagefind.<language>_<hash>.pf_meta
 *       an index with no pages: the one pagefind.js opens first (it looks for
 *       its worker and WebAssembly beside it); the parts are merged into it.
 *   parts.json
 *       the parts, in the site's order, with what the browser needs to merge
 *       them and to skip those a search's days cannot reach.
 *   <part>/pagefind-entry.json, pagefind.*.pf_meta, index/, filter/, fragment/
 *       each part's own index (search-parts.ts), its pages named with the
 *       part's key in front (stable-index.ts).
 */

/** Pagefind's ready-made interfaces: the site has its own (templates/search.njk). */
const UNUSED = /^pagefind-(ui|component-ui|modular-ui|highlight)\.(js|css)$/;
/** What every part shares. */
const BUNDLE = /^(pagefind\.js|pagefind-worker\.js|wasm\.[^/]+\.pagefind)$/;
const ENTRY = "pagefind-entry.json";
export const PARTS_FILE = "parts.json";
/** Pagefind's files are gzip'd behind this signature. */
const SIGNATURE = Buffer.from("pagefind_dcd");

/** Pagefind's script, worker and WebAssembly, and what its entry file says about them. */
export interface SearchBundle {
  readonly files: readonly IndexFile[];
  readonly version: string;
  /** The language the entry files name ("en"); the WebAssembly's, when there were no records. */
  readonly language: string;
  /** The WebAssembly's language: `wasm.<wasm>.pagefind`. */
  readonly wasm: string;
  readonly includeCharacters: readonly string[];
}

/** One part's own files, paths relative to its folder. */
export interface PartFiles {
  readonly key: string;
  readonly files: readonly IndexFile[];
}

/** One part's own files from Pagefind's output: stable, its pages named with its key and "_" in front. */
export function partFiles(key: string, output: readonly IndexFile[]): PartFiles {
  const files: IndexFile[] = [];
  for (const file of stableIndexFiles(output, { pagePrefix: `${key}_` })) {
    const path = relative(file);
    if (UNUSED.test(path) || BUNDLE.test(path)) continue;
    if (path.split("/").includes("..")) throw unexpected(`unexpected file ${file.path}`);
    files.push({ path, content: file.content });
  }
  if (!files.some((file) => file.path === ENTRY)) throw unexpected(`no ${ENTRY} in part ${key}`);
  return { key, files };
}

/** The bundle of a Pagefind output (of any part, or of an index made only for it). */
export function bundleOf(output: readonly IndexFile[]): SearchBundle {
  const all = output
    .map((file) => ({ path: relative(file), content: file.content }))
    .filter((file) => BUNDLE.test(file.path));
  const entryFile = output.find((file) => relative(file) === ENTRY);
  if (!entryFile) throw unexpected(`no ${ENTRY}`);
  const entry = JSON.parse(Buffer.from(entryFile.content).toString("utf8")) as {
    version?: string;
    languages?: Record<string, { wasm?: string }>;
    include_characters?: string[];
  };
  // The entry names the WebAssembly of its language; Pagefind writes others beside it.
  const [language] = Object.keys(entry.languages ?? {});
  const wasm = (language && entry.languages?.[language]?.wasm) || "unknown";
  return {
    files: all.filter(
      (file) => !file.path.startsWith("wasm.") || file.path === `wasm.${wasm}.pagefind`,
    ),
    version: String(entry.version ?? ""),
    language: language ?? wasm,
    wasm,
    includeCharacters: entry.include_characters ?? [],
  };
}

function relative(file: IndexFile): string {
  return file.path.replace(/^\/+/, "");
}

export function partSummary(part: SearchPart, fingerprint: string): PartSummary {
  return {
    key: part.key,
    entry: fingerprint.slice(0, 10),
    records: part.records.length,
    firstDay: part.firstDay,
    lastDay: part.lastDay,
  };
}

/**
 * The files at the top of the index's folder: the bundle, the index with no
 * pages that pagefind.js opens first, and parts.json.
 */
export function rootFiles(bundle: SearchBundle, parts: readonly PartSummary[]): IndexFile[] {
  // [version, pages, index chunks, filters, sorts, meta fields]: no pages, nothing to load.
  const meta = gzipSync(Buffer.concat([SIGNATURE, encode([bundle.version, [], [], [], [], []])]), {
    level: 9,
  });
  const metaName = `${bundle.language}_${hex(meta, 10)}`;
  const entry = Buffer.from(
    JSON.stringify({
      version: bundle.version,
      languages: {
        [bundle.language]: { hash: metaName, wasm: bundle.wasm, page_count: 0 },
      },
      include_characters: bundle.includeCharacters,
    }),
  );
  const list = Buffer.from(`${JSON.stringify({ entry: hex(entry, 10), parts }, null, 1)}\n`);
  return [
    ...bundle.files,
    { path: ENTRY, content: entry },
    { path: `pagefind.${metaName}.pf_meta`, content: meta },
    { path: PARTS_FILE, content: list },
  ];
}

function hex(content: Uint8Array, length: number): string {
  return createHash("sha256").update(content).digest("hex").slice(0, length);
}

function unexpected(what: string): PublishError {
  return new PublishError(`Pagefind could not build the search index: ${what}`);
}
