import { hash as oneShotHash } from "node:crypto";
import type { ResponseCache } from "../api/response-cache.ts";
import { codeFingerprint } from "../code-fingerprint.ts";
import { count } from "../metrics.ts";
import type { Normalized, NormalizeOptions } from "../model/normalize-calendar.ts";
import { normalizeEvent } from "../model/normalize-event.ts";
import type { Calendar, CalendarEvent } from "../model/types.ts";
import type { WireRecord } from "../model/wire.ts";

type Entry = Normalized<CalendarEvent>;

/**
 * Normalized events kept between builds. Normalizing is pure: the same list
 * record, details record and calendar, under the same settings and the same
 * normalizer, always give the same event; so an event the portal did not
 * change is read back instead of sanitized and parsed again (at 10,000
 * events that was about 2 s of every warm build, docs/performance.md).
 *
 * Entries are keyed by a hash of the three records; the cache entry itself by
 * the settings and the code's fingerprint (src/code-fingerprint.ts: the
 * project's code and the installed packages' versions), so an upgrade or
 * another field map starts from scratch. Saving keeps only this build's events.
 */
export class NormalizeMemo {
  readonly #cache: ResponseCache;
  readonly #key: string;
  readonly #previous: Map<string, Entry>;
  readonly #current = new Map<string, Entry>();

  private constructor(cache: ResponseCache, key: string, previous: Map<string, Entry>) {
    this.#cache = cache;
    this.#key = key;
    this.#previous = previous;
  }

  /** `source`: a source of a site of several keeps its own (they share one cache folder). */
  static load(cache: ResponseCache, options: NormalizeOptions, source?: string): NormalizeMemo {
    const inputs = [options.fieldMap, options.defaultTimeZone, codeFingerprint()];
    // A site of one portal keeps its key of before: its memo stays valid across the upgrade.
    const key = `normalized events ${hash(JSON.stringify(source ? [...inputs, source] : inputs))}`;
    const stored = cache.get<Record<string, Entry>>(key)?.value;
    const previous = new Map(stored && typeof stored === "object" ? Object.entries(stored) : []);
    return new NormalizeMemo(cache, key, previous);
  }

  /** normalizeEvent, answered from the previous build when its inputs are unchanged. */
  readonly normalizeEvent = (
    listed: WireRecord,
    details: WireRecord | null,
    calendar: Pick<Calendar, "id" | "timeZone">,
    options: NormalizeOptions,
  ): Entry => {
    // Exactly what normalizeEvent reads: the two records and its calendar's id and zone.
    const key = hash(JSON.stringify([calendar.id, calendar.timeZone, listed, details]));
    // Asked again in this build (the records arrived early, see loadSnapshot's onEvent): not counted again.
    let entry = this.#current.get(key);
    if (entry) return entry;
    entry = this.#previous.get(key);
    if (entry) {
      count("normalize.reused");
    } else {
      entry = normalizeEvent(listed, details, calendar, options);
      count("normalize.computed");
    }
    this.#current.set(key, entry);
    return entry;
  };

  async save(): Promise<void> {
    const unchanged =
      this.#current.size === this.#previous.size &&
      [...this.#current.keys()].every((key) => this.#previous.has(key));
    if (!unchanged) await this.#cache.set(this.#key, Object.fromEntries(this.#current));
  }
}

function hash(text: string): string {
  return oneShotHash("sha1", text, "base64url");
}
