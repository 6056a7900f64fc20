import { createRequire } from "node:module";
import path from "node:path";
import { redactJson } from "./auth.ts";

const require = createRequire(import.meta.url);
const { AssetCache } = require("@11ty/eleventy-fetch") as {
  AssetCache: new (key: string, dir: string, options: { type: string }) => StoredAsset;
};

/** The part of eleventy-fetch's AssetCache we use (the package ships no types). */
interface StoredAsset {
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
 * eleventy-fetch remembers in-process which files do not exist, so a file
 * written after the first lookup would stay invisible to a new AssetCache
 * instance; one instance per key and directory is kept for the process.
 */
export class ResponseCache {
  static readonly #instances = new Map<string, StoredAsset>();
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
    // "*" (forever) makes isCacheValid check only that the contents file exists.
    if (!asset.isCacheValid("*")) return null;
    const cachedAt = asset.getCachedTimestamp();
    const value = asset.getCachedContents();
    if (cachedAt === undefined || value === undefined || value === null) return null;
    return { value: value as T, ageMs: Math.max(0, this.#now() - cachedAt) };
  }

  async set(key: string, value: unknown): Promise<void> {
    await this.#asset(key).save(redactJson(value, this.#redact), "json");
  }

  #asset(key: string): StoredAsset {
    const id = `${this.#dir}\u0000${key}`;
    let asset = ResponseCache.#instances.get(id);
    if (!asset) {
      asset = new AssetCache(this.#redact(key), this.#dir, { type: "json" });
      ResponseCache.#instances.set(id, asset);
    }
    return asset;
  }
}
