import { appendFileSync, readFileSync, rmSync } from "node:fs";
import { codeFingerprint } from "../code-fingerprint.ts";
import { count } from "../metrics.ts";
import { replaceFileSync } from "../replace-file-sync.ts";
import type { KeptReads } from "./kept-reads.ts";

/**
 * The `code` of what Intl formatted (dates, times, zones' names): the code's
 * fingerprint with ICU's version and its time zones' version, which change
 * the text with the same inputs.
 */
export function intlCode(): string {
  const { icu = "", tz = "" } = process.versions as { icu?: string; tz?: string };
  return `${codeFingerprint()} ${icu} ${tz}`;
}

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
 *   are the last build's, and otherwise only the keys added and gone, in a
 *   journal beside the file (see `save`); a file written whole is written
 *   aside then renamed, so that a reader never sees half a file, and a
 *   journal's last line cut short is left out with what follows it. A
 *   failure to save costs the next build the deriving, nothing else.
 *
 * Used for the normalized events (src/snapshot/normalize-memo.ts), the
 * calendar files' VEVENT sizes (src/outputs/vevent-sizes.ts), the search
 * index's months (src/search/month-plans.ts), the cards' dates
 * (src/cards/card-dates.ts) and the rich results each event's JSON-LD
 * meets (src/outputs/rich-results.ts).
 */
export class KeptMap<V> {
  readonly #path: string | null;
  readonly #code: string;
  readonly #redact: (text: string) => string;
  #previous: ReadonlyMap<string, V>;
  #current = new Map<string, V>();
  /** Entries in the journal beside the file, or null when there is no file of this code to add to. */
  #journalled: number | null;

  private constructor(
    path: string | null,
    code: string,
    redact: (text: string) => string,
    kept: Kept<V>,
  ) {
    this.#path = path;
    this.#code = code;
    this.#redact = redact;
    this.#previous = kept.entries;
    this.#journalled = kept.journalled;
  }

  /**
   * The map a build with this `code` kept at `path`; an empty one that saves
   * nothing without a path. `redact` is applied to every text written (a
   * map of what a portal sent must never hold its token). `reads`: the file
   * as a build started ahead read it, while unchanged (src/ready).
   */
  static load<V>(
    path: string | null,
    code: string,
    valid: (value: unknown) => value is V,
    redact: (text: string) => string = (text) => text,
    reads?: KeptReads,
  ): KeptMap<V> {
    const readNow = () => read(path ?? "", valid);
    const kept = path ? (reads ? reads.kept(path, readNow) : readNow()) : NONE;
    return new KeptMap(path, code, redact, kept.code === code ? kept : NONE);
  }

  /**
   * What the last build kept at `path`, whatever code kept it: for data kept
   * to fall back on (the last good snapshot, src/snapshot) rather than to
   * skip work, which an older version's values still serve.
   */
  static keptByAnyCode<V>(
    path: string,
    valid: (value: unknown) => value is V,
  ): ReadonlyMap<string, V> {
    return read(path, valid).entries;
  }

  /** The value of `key` in this build or the last one. */
  get(key: string): V | undefined {
    return this.#current.get(key) ?? this.#previous.get(key);
  }

  /** Whether this build kept a value for `key` (`set`). */
  isKept(key: string): boolean {
    return this.#current.has(key);
  }

  /** Keeps `value` for `key` in this build's map (what `save` writes). */
  set(key: string, value: V): void {
    this.#current.set(key, value);
  }

  /**
   * Writes this build's keys for the next build when they are not the last
   * build's, and starts the next build's map (a process that keeps this map
   * across builds, `npm start`, forgets what its last build did not ask for).
   *
   * A value is named whole by its key, so what changed is the keys added and
   * the keys gone: those are appended to a journal beside the file, one line
   * a build, while the journal holds less than a quarter of the map's size;
   * past that the file is written again with the map alone and the journal
   * removed. One edited event thus costs a line, not the whole file (at
   * 100,000 events the normalized events' file is about 100 MB).
   */
  save(): void {
    const previous = this.#previous;
    const current = this.#current;
    this.#previous = current;
    this.#current = new Map();
    if (!this.#path) return;
    const added: [string, V][] = [];
    for (const entry of current) if (!previous.has(entry[0])) added.push(entry);
    const gone: string[] = [];
    if (added.length > 0 || current.size !== previous.size) {
      for (const key of previous.keys()) if (!current.has(key)) gone.push(key);
    }
    if (added.length === 0 && gone.length === 0) return;
    try {
      const journal = `${this.#path}${JOURNAL}`;
      const journalled = this.#journalled;
      const changes = added.length + gone.length;
      if (
        journalled !== null &&
        journalled + changes <= Math.max(JOURNAL_FLOOR, current.size / 4)
      ) {
        const line = { code: this.#code, set: Object.fromEntries(added), gone };
        appendFileSync(journal, `${this.#redact(JSON.stringify(line))}\n`);
        this.#journalled = journalled + changes;
        count("kept.journalled", changes);
        return;
      }
      const whole = { code: this.#code, entries: Object.fromEntries(current) };
      replaceFileSync(this.#path, (append) => append(this.#redact(JSON.stringify(whole))));
      // A journal left by a failure here only adds values that are still right for their keys.
      rmSync(journal, { force: true });
      this.#journalled = 0;
      count("kept.rewritten", current.size);
    } catch {
      // Only a cache.
    }
  }
}

/** The journal's name: the file's, with this after it. */
const JOURNAL = ".journal";
/** A small map's journal may hold this many entries before the file is written again. */
const JOURNAL_FLOOR = 256;

interface Kept<V> {
  readonly entries: ReadonlyMap<string, V>;
  /** The file's code; null without a file, or a damaged one. */
  readonly code: string | null;
  /** Entries in the journal's lines; null when a line could not be read (appending after it would be lost). */
  readonly journalled: number | null;
}

const NONE: Kept<never> = { entries: new Map<string, never>(), code: null, journalled: null };

/**
 * The file's map, then each line of its journal in order, as long as the
 * lines are whole and of the file's code (a build stopped while appending
 * leaves a last line that is not: the lines before it stand).
 */
function read<V>(path: string, valid: (value: unknown) => value is V): Kept<V> {
  const entries = new Map<string, V>();
  let code: string;
  try {
    const stored = JSON.parse(readFileSync(path, "utf8")) as { code?: unknown; entries?: unknown };
    if (typeof stored.code !== "string" || !isObject(stored.entries)) return NONE;
    code = stored.code;
    // Without Object.entries' array of 100,000 pairs for the largest (the normalized events).
    const kept = stored.entries as Record<string, unknown>;
    for (const key in kept) {
      const value = kept[key];
      if (valid(value)) entries.set(key, value);
    }
  } catch {
    // None kept, or damaged: derived again.
    return NONE;
  }
  let journalled: number | null = 0;
  let text = "";
  try {
    text = readFileSync(`${path}${JOURNAL}`, "utf8");
  } catch {
    // No journal: the file alone.
  }
  for (const line of text.split("\n")) {
    if (line === "") continue;
    let change: { code?: unknown; set?: unknown; gone?: unknown };
    try {
      change = JSON.parse(line);
    } catch {
      change = {};
    }
    if (change.code !== code || !isObject(change.set) || !Array.isArray(change.gone)) {
      journalled = null;
      break;
    }
    for (const key of change.gone) if (typeof key === "string") entries.delete(key);
    for (const [key, value] of Object.entries(change.set)) {
      if (valid(value)) entries.set(key, value);
      else entries.delete(key);
    }
    journalled += Object.keys(change.set).length + change.gone.length;
  }
  return { entries, code, journalled };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
