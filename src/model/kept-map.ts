import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { codeFingerprint } from "../code-fingerprint.ts";

/**
 * A map kept in a file between builds: what one build derived from inputs
 * (by a key that names them whole), for the next build to find rather than
 * derive again. A cache, so:
 *
 * - the file holds one `code` (the code's fingerprint, and whatever else the
 *   values depend on beside their key: ICU's data for what Intl formatted, intlCode);
 *   a file of another code, or damaged, reads as empty, and a value that
 *   fails `valid` is left out: everything is then derived again;
 * - `save` keeps only the keys this build asked for, so the file follows
 *   the site and never grows with its history; it writes nothing when they
 *   are the last build's, and writes aside then renames, so that a reader
 *   never sees half a file. A failure to save costs the next build the
 *   deriving, nothing else.
 *
 * Used for the calendar files' VEVENT sizes (src/outputs/vevent-sizes.ts),
 * the search index's months (src/search/month-plans.ts) and the cards' dates
 * (src/cards/card-dates.ts).
 */
/**
 * The `code` of what Intl formatted (dates, times, zones' names): the code's
 * fingerprint with ICU's version and its time zones' version, which change
 * the text with the same inputs.
 */
export function intlCode(): string {
  const { icu = "", tz = "" } = process.versions as { icu?: string; tz?: string };
  return `${codeFingerprint()} ${icu} ${tz}`;
}

export class KeptMap<V> {
  readonly #path: string | null;
  readonly #code: string;
  #previous: ReadonlyMap<string, V>;
  #current = new Map<string, V>();

  private constructor(path: string | null, code: string, previous: ReadonlyMap<string, V>) {
    this.#path = path;
    this.#code = code;
    this.#previous = previous;
  }

  /** The map a build with this `code` kept at `path`; an empty one that saves nothing without a path. */
  static load<V>(
    path: string | null,
    code: string,
    valid: (value: unknown) => value is V,
  ): KeptMap<V> {
    return new KeptMap(path, code, path ? read(path, code, valid) : new Map());
  }

  /** The value of `key` in this build or the last one. */
  get(key: string): V | undefined {
    return this.#current.get(key) ?? this.#previous.get(key);
  }

  /** Keeps `value` for `key` in this build's map (what `save` writes). */
  set(key: string, value: V): void {
    this.#current.set(key, value);
  }

  /**
   * Writes this build's keys for the next build when they are not the last
   * build's, and starts the next build's map (a process that keeps this map
   * across builds, `npm start`, forgets what its last build did not ask for).
   */
  save(): void {
    const current = this.#current;
    const same =
      current.size === this.#previous.size &&
      [...current.keys()].every((key) => this.#previous.has(key));
    this.#previous = current;
    this.#current = new Map();
    if (same || !this.#path) return;
    try {
      mkdirSync(dirname(this.#path), { recursive: true });
      const temporary = `${this.#path}.${process.pid}.tmp`;
      writeFileSync(
        temporary,
        JSON.stringify({ code: this.#code, entries: Object.fromEntries(current) }),
      );
      renameSync(temporary, this.#path);
    } catch {
      // Only a cache.
    }
  }
}

function read<V>(
  path: string,
  code: string,
  valid: (value: unknown) => value is V,
): ReadonlyMap<string, V> {
  const kept = new Map<string, V>();
  try {
    const stored = JSON.parse(readFileSync(path, "utf8")) as { code?: unknown; entries?: unknown };
    if (stored.code !== code || typeof stored.entries !== "object" || stored.entries === null) {
      return kept;
    }
    for (const [key, value] of Object.entries(stored.entries))
      if (valid(value)) kept.set(key, value);
  } catch {
    // None kept, or damaged: derived again.
  }
  return kept;
}
