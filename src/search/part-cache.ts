import { createHash } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { deserialize, serialize } from "node:v8";
import type { PartFiles, SearchBundle } from "./index-layout.ts";
import type { SearchPart } from "./search-parts.ts";
import type { IndexFile } from "./stable-index.ts";

/**
 * The last build's parts of the search index, kept in the cache folder
 * (EVENT_API_CACHE_DIR), one file per part named by a hash of what the part
 * is made from: its key, its records, the site's language, Pagefind's
 * version and how the files are laid out here. A part whose records are the
 * same as the last build's is taken from here and Pagefind does not index it
 * again. Pagefind's script, worker and WebAssembly (the bundle every part
 * shares) are kept beside them, so a build that indexes nothing has them too.
 *
 * Best effort both ways: a missing, unreadable or unwritable cache only means
 * Pagefind indexes again.
 */

/** How the files are laid out here: 3, the index in parts (index-layout.ts). */
const LAYOUT = 3;
const PART_PREFIX = "search-part-";
const BUNDLE_PREFIX = "search-bundle-";
/** What earlier layouts kept (one file for the whole index): removed when the parts are. */
const OLD_PREFIXES = ["search-index-"];

/** What, besides its records, makes a part's files what they are. */
export interface PartSettings {
  /** Pagefind's. */
  readonly version: string;
  readonly language: string;
}

/**
 * A hash of everything a part's files are made from (its key, records, the
 * language, Pagefind's version, the layout): its name here, and the cache
 * tag of its entry file in parts.json, which every shard of a split build
 * can give without indexing the part (src/shards).
 */
export function partFingerprint(part: SearchPart, settings: PartSettings): string {
  // Record by record: one string of every record would be ~10 MB for a part of 10,000.
  const hash = createHash("sha256").update(settingsKey(settings)).update(`\n${part.key}`);
  for (const record of part.records) hash.update(`\n${JSON.stringify(record)}`);
  return hash.digest("hex").slice(0, 32);
}

function settingsKey(settings: PartSettings): string {
  return JSON.stringify([settings.version, LAYOUT, settings.language]);
}

export class PartCache {
  readonly #dir: string;
  readonly #settings: string;
  /** The files this build read or wrote: the others are removed by prune(). */
  readonly #used = new Set<string>();

  constructor(dir: string, settings: PartSettings) {
    this.#dir = dir;
    this.#settings = settingsKey(settings);
  }

  /** Whether a part with this fingerprint (partFingerprint) is kept here. */
  has(fingerprint: string): boolean {
    const name = partName(fingerprint);
    this.#used.add(name);
    return existsSync(join(this.#dir, name));
  }

  /**
   * A part of the current index that this build does not use itself (another
   * shard's, src/shards): prune() leaves it, so shards that share this folder
   * keep each other's parts.
   */
  keep(fingerprint: string): void {
    this.#used.add(partName(fingerprint));
  }

  /** The kept part; null when missing or unreadable. */
  readPart(fingerprint: string, key: string): PartFiles | null {
    const name = partName(fingerprint);
    this.#used.add(name);
    const value = this.#read(name) as PartFiles | null;
    return value && value.key === key && validFiles(value.files) ? value : null;
  }

  /** Keeps a part; false when it could not be (the caller keeps the files itself). */
  writePart(fingerprint: string, files: PartFiles): boolean {
    const name = partName(fingerprint);
    this.#used.add(name);
    return this.#write(name, { key: files.key, files: plain(files.files) });
  }

  readBundle(): SearchBundle | null {
    const name = this.#bundleName();
    this.#used.add(name);
    const value = this.#read(name) as SearchBundle | null;
    return value && validFiles(value.files) && typeof value.version === "string" ? value : null;
  }

  writeBundle(bundle: SearchBundle): void {
    const name = this.#bundleName();
    this.#used.add(name);
    this.#write(name, { ...bundle, files: plain(bundle.files) });
  }

  /**
   * Removes the parts no longer in the index (used or kept), the bundles of
   * other settings, and what earlier layouts kept. This settings' bundle
   * stays even where this build did not use it (a shard other than the
   * first): the first shard reads it.
   */
  prune(): void {
    this.#used.add(this.#bundleName());
    try {
      for (const name of readdirSync(this.#dir)) {
        const ours = [PART_PREFIX, BUNDLE_PREFIX, ...OLD_PREFIXES].some((p) => name.startsWith(p));
        if (ours && !this.#used.has(name)) rmSync(join(this.#dir, name), { force: true });
      }
    } catch {
      // Not pruned: the next build tries again.
    }
  }

  #bundleName(): string {
    const hash = createHash("sha256").update(this.#settings).digest("hex").slice(0, 32);
    return `${BUNDLE_PREFIX}${hash}.v8`;
  }

  #read(name: string): unknown {
    try {
      return deserialize(readFileSync(join(this.#dir, name)));
    } catch {
      return null;
    }
  }

  #write(name: string, value: unknown): boolean {
    try {
      mkdirSync(this.#dir, { recursive: true });
      const file = join(this.#dir, name);
      const temporary = `${file}.${process.pid}.tmp`;
      writeFileSync(temporary, serialize(value));
      renameSync(temporary, file);
      return true;
    } catch {
      // Not kept: the next build indexes this part again.
      return false;
    }
  }
}

function partName(fingerprint: string): string {
  return `${PART_PREFIX}${fingerprint}.v8`;
}

function validFiles(files: unknown): files is IndexFile[] {
  return (
    Array.isArray(files) &&
    files.every((file) => typeof file?.path === "string" && file.content instanceof Uint8Array)
  );
}

/** Path and bytes only: what Pagefind hands back may carry more. */
function plain(files: readonly IndexFile[]): IndexFile[] {
  return files.map((file) => ({ path: file.path, content: file.content }));
}
