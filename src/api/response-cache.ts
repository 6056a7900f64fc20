import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { count } from "../metrics.ts";

const require = createRequire(import.meta.url);
const { AssetCache } = require("@11ty/eleventy-fetch") as {
  AssetCache: new (key: string, dir: string, options: { type: string }) => StoredAsset;
};

/** The part of eleventy-fetch's AssetCache we use (the package ships no types). */
interface StoredAsset {
  /** Its file cache; `fsPath` is the metadata file eleventy-fetch writes last. */
  readonly cache: { readonly fsPath: string };
  getCachedTimestamp(): number | undefined;
  getCachedContents(): unknown;
  isCacheValid(duration: string): boolean;
  save(contents: unknown, type: string): Promise<void>;
}

/** One stored response: the body and the validators for a conditional request. */
export interface CachedResponse {
  readonly body: unknown;
  readonly etag: string | null;
  readonly lastModified: string | null;
  readonly link: string | null;
  readonly totalCount: number | null;
}

export interface CacheHit<T> {
  readonly value: T;
  readonly ageMs: number;
}

/**
 * Persistence between builds through eleventy-fetch's AssetCache (files in
 * EVENT_API_CACHE_DIR, kept by netlify-plugin-cache). undici does the HTTP;
 * this only stores and reads. Keys are token-free (the caller passes URLs
 * without the token parameter) and contents are redacted before writing, so
 * no cache file name or content holds the token.
 *
 * Each read and write uses a new AssetCache, dropped afterwards: an instance
 * keeps its contents in memory, and keeping instances for the whole build
 * held every list, details record and snapshot twice (gigabytes at 100,000
 * events, docs/performance.md). eleventy-fetch remembers for the life of the
 * process which files it found missing, so a file written after a failed
 * look-up would stay invisible to later instances; checking for the file
 * here first means it is never asked about a missing one.
 */
export class ResponseCache {
  readonly #dir: string;
  readonly #redact: (text: string) => string;
  readonly #now: () => number;
  readonly #used: Set<string> | undefined;

  /**
   * `used`: where the names of the files this cache reads or writes are
   * added, for pruneResponseCache once the build is published.
   */
  constructor(
    dir: string,
    redact: (text: string) => string,
    options: { readonly now?: () => number; readonly used?: Set<string> } = {},
  ) {
    this.#dir = path.resolve(dir);
    this.#redact = redact;
    this.#now = options.now ?? Date.now;
    this.#used = options.used;
  }

  get<T = CachedResponse>(key: string): CacheHit<T> | null {
    const asset = this.#asset(key);
    if (!existsSync(asset.cache.fsPath)) return null;
    // "*" (forever) makes isCacheValid check only that the contents file exists.
    if (!asset.isCacheValid("*")) return null;
    const cachedAt = asset.getCachedTimestamp();
    const contents = asset.getCachedContents();
    if (cachedAt === undefined || contents === undefined || contents === null) return null;
    // Stored as JSON text; entries from before were stored as "json" and come back parsed.
    const value = typeof contents === "string" ? (JSON.parse(contents) as unknown) : contents;
    return { value: value as T, ageMs: Math.max(0, this.#now() - cachedAt) };
  }

  /**
   * Stores JSON text, serialized once and redacted as text: storing the value
   * as "json" serialized it twice (once to redact, once to write), which for
   * a large site's snapshot meant hundreds of megabytes more.
   */
  async set(key: string, value: unknown): Promise<void> {
    await this.#asset(key).save(this.#redact(JSON.stringify(value)), "text");
  }

  #asset(key: string): StoredAsset {
    const asset = new AssetCache(this.#redact(key), this.#dir, { type: "text" });
    this.#used?.add(path.basename(asset.cache.fsPath));
    return asset;
  }
}

/** The start of every file name eleventy-fetch gives an entry (its metadata, then `.text`, `.json`...). */
const ENTRY_PREFIX = "eleventy-fetch-";

/** Days an entry may go unused by every build before it is removed. */
export const UNUSED_DAYS = 30;
const UNUSED_MS = UNUSED_DAYS * 24 * 60 * 60 * 1000;

/**
 * Beside the entries: each entry the last builds did not use, with the
 * moment (the build's clock) a build first found it unused. Not an entry's
 * name, so never pruned itself.
 */
export const UNUSED_RECORD = "response-cache-unused.json";

/**
 * Removes from `dir` the response-cache entries no build has used for
 * UNUSED_DAYS: those of a portal at another address, of a calendar it no
 * longer lists or reads (EVENT_API_CALENDARS), of list pages past a list's
 * end. Without this the folder only grew, and a host's build cache restored
 * it all every build. Not at once: a build of the demo or of a trial
 * setting may share the folder, and the site's own answers (its details,
 * its last good data) must outlast it. Only a build that fetched every
 * source afresh calls this: one built from its last good data did not use
 * what a later build needs. The folder's other files (the kept maps, cards,
 * search parts) are not the response cache's and are left alone. Returns
 * what was removed.
 */
export function pruneResponseCache(
  dir: string,
  used: ReadonlySet<string>,
  nowMs: number,
): { readonly files: number; readonly bytes: number } {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return { files: 0, bytes: 0 };
  }
  const recordPath = path.join(dir, UNUSED_RECORD);
  const before = readUnused(recordPath);
  const unused = new Map<string, number>();
  const removed: string[] = [];
  for (const name of names) {
    if (!name.startsWith(ENTRY_PREFIX)) continue;
    const dot = name.indexOf(".", ENTRY_PREFIX.length);
    const entry = dot === -1 ? name : name.slice(0, dot);
    if (used.has(entry)) continue;
    const since = unused.get(entry) ?? before.get(entry) ?? nowMs;
    if (nowMs - since >= UNUSED_MS) removed.push(name);
    else unused.set(entry, since);
  }
  let files = 0;
  let bytes = 0;
  for (const name of removed) {
    const file = path.join(dir, name);
    try {
      bytes += statSync(file).size;
      rmSync(file, { force: true });
      files++;
    } catch {
      // Gone already (another build sharing the folder): nothing to remove.
    }
  }
  if (!sameRecord(before, unused)) {
    try {
      writeFileSync(
        recordPath,
        `${JSON.stringify({ version: 1, unusedSince: Object.fromEntries(unused) })}\n`,
      );
    } catch {
      // The record only delays pruning: an unwritable one starts the days again next build.
    }
  }
  count("cache.prunedFiles", files);
  count("cache.prunedBytes", bytes);
  return { files, bytes };
}

function readUnused(file: string): Map<string, number> {
  try {
    const record = JSON.parse(readFileSync(file, "utf8")) as { unusedSince?: unknown };
    const since = record.unusedSince;
    if (!since || typeof since !== "object") return new Map();
    return new Map(
      Object.entries(since).filter((pair): pair is [string, number] => Number.isFinite(pair[1])),
    );
  } catch {
    return new Map();
  }
}

function sameRecord(a: ReadonlyMap<string, number>, b: ReadonlyMap<string, number>): boolean {
  if (a.size !== b.size) return false;
  for (const [name, since] of a) if (b.get(name) !== since) return false;
  return true;
}
