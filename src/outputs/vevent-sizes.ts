import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { codeFingerprint } from "../code-fingerprint.ts";
import { count } from "../metrics.ts";
import type { CalendarEvent } from "../model/types.ts";
import { contentHash } from "../render/published-files.ts";

/** What a calendar file's size budget needs of a VEVENT: its UTF-8 size and the zone it names. */
export type VeventSize = readonly [bytes: number, zone: string | null];

/**
 * Each VEVENT's size, kept between builds, by a digest of everything its
 * lines depend on (its event's download inputs and whether it is the short
 * form, src/outputs/ics.ts): the scope calendars' size plans need every
 * event's size, and making the lines again only to measure them was most of
 * a warm build's calendar work (0.6 s at 10,000 events, docs/performance.md,
 * "What changed", item 21). A cache: a size is the one its lines have, so a
 * plan made from it is the plan made from the lines. Keyed by the code's
 * fingerprint as a whole; saving keeps only this build's sizes.
 */
export class VeventSizes {
  readonly #path: string | null;
  readonly #previous: ReadonlyMap<string, VeventSize>;
  readonly #current = new Map<string, VeventSize>();
  /** This build's answers by event and form: an event is in several scopes' plans. */
  readonly #byEvent = new WeakMap<CalendarEvent, { full?: VeventSize; short?: VeventSize }>();

  private constructor(path: string | null, previous: ReadonlyMap<string, VeventSize>) {
    this.#path = path;
    this.#previous = previous;
  }

  /** The sizes a build with this code kept in `cacheDir` for `context` (a site's language); none without a folder. */
  static load(cacheDir: string | null, context: string): VeventSizes {
    if (!cacheDir) return new VeventSizes(null, new Map());
    const path = join(cacheDir, `vevent-sizes-${contentHash(context).slice(0, 12)}.json`);
    return new VeventSizes(path, readSizes(path));
  }

  /**
   * The size of `event`'s VEVENT in its full or `short` form, whose lines
   * depend on `inputs` alone (the same for every scope of one build): from
   * this build or the last, else `measure`d (and kept).
   */
  get(
    event: CalendarEvent,
    short: boolean,
    inputs: () => string,
    measure: () => VeventSize,
  ): VeventSize {
    const form = short ? "short" : "full";
    let forms = this.#byEvent.get(event);
    const known = forms?.[form];
    if (known) return known;
    const key = contentHash(`${inputs()}\n${short}`);
    let size = this.#current.get(key) ?? this.#previous.get(key);
    if (size) count("ics.sizesReused");
    else size = measure();
    this.#current.set(key, size);
    if (!forms) {
      forms = {};
      this.#byEvent.set(event, forms);
    }
    forms[form] = size;
    return size;
  }

  /** Keeps this build's sizes for the next; a failure costs the next build the measuring, nothing else. */
  save(): void {
    const path = this.#path;
    if (!path) return;
    const unchanged =
      this.#current.size === this.#previous.size &&
      [...this.#current.keys()].every((key) => this.#previous.has(key));
    if (unchanged) return;
    try {
      mkdirSync(join(path, ".."), { recursive: true });
      const temporary = `${path}.${process.pid}.tmp`;
      const entries = Object.fromEntries(this.#current);
      writeFileSync(temporary, JSON.stringify({ code: codeFingerprint(), entries }));
      renameSync(temporary, path);
    } catch {
      // Only a cache.
    }
  }
}

/** The sizes kept by a build with this code; none from another version or a damaged file. */
function readSizes(path: string): ReadonlyMap<string, VeventSize> {
  try {
    const stored = JSON.parse(readFileSync(path, "utf8")) as { code?: unknown; entries?: unknown };
    if (stored.code !== codeFingerprint() || typeof stored.entries !== "object") return new Map();
    const sizes = new Map<string, VeventSize>();
    for (const [key, value] of Object.entries(stored.entries as object)) {
      if (
        Array.isArray(value) &&
        Number.isSafeInteger(value[0]) &&
        (value[1] === null || typeof value[1] === "string")
      ) {
        sizes.set(key, [value[0], value[1]]);
      }
    }
    return sizes;
  } catch {
    return new Map();
  }
}
