import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

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

  constructor(dir: string, redact: (text: string) => string, now: () => number = Date.now) {
    this.#dir = path.resolve(dir);
    this.#redact = redact;
    this.#now = now;
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
    return new AssetCache(this.#redact(key), this.#dir, { type: "text" });
  }
}
