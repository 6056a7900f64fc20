import { join } from "node:path";
import { intlCode, KeptMap } from "../model/kept-map.ts";
import type { PartSummary } from "./part-summary.ts";

/**
 * What the last build made of each month of events in the search index:
 * its parts' keys, fingerprints, record counts and days, kept in the cache
 * folder by a digest of everything the month's records are made from (its
 * events whole, their calendars' ids and names, the settings: monthInputs in
 * search-index.ts). A build whose month has the same digest knows its parts
 * without making the records: making every event's record, to find the one
 * part an edit changed, was 0.4 s of a 10,000-event build with one edited
 * event (docs/performance.md, What changed, item 38).
 *
 * A cache, keyed by the code's fingerprint and the versions of ICU and its
 * time zones, which format the records' dates (intlCode): records are pure (search-records.ts), so a month with
 * the same inputs has the same parts. Saving keeps only this build's months
 * (src/model/kept-map.ts); a missing or unreadable file means the records are made.
 */

/** A part as planned: what parts.json says of it, and its fingerprint (part-cache.ts). */
export interface PlannedPart {
  readonly summary: PartSummary;
  readonly fingerprint: string;
}

const FILE = "search-months.json";

export class MonthPlans {
  readonly #kept: KeptMap<readonly PlannedPart[]>;

  private constructor(kept: KeptMap<readonly PlannedPart[]>) {
    this.#kept = kept;
  }

  static load(cacheDir: string): MonthPlans {
    // Records format their dates through Intl: another ICU, other records.
    return new MonthPlans(KeptMap.load(join(cacheDir, FILE), intlCode(), isPlan));
  }

  /** The parts of the month with these inputs in the last build (or this one), if known. */
  get(inputs: string): readonly PlannedPart[] | undefined {
    return this.#kept.get(inputs);
  }

  set(inputs: string, parts: readonly PlannedPart[]): void {
    this.#kept.set(inputs, parts);
  }

  /** Keeps this build's months for the next; a failure costs the next build the records. */
  save(): void {
    this.#kept.save();
  }
}

function isPlan(value: unknown): value is readonly PlannedPart[] {
  return Array.isArray(value) && value.every(isPlannedPart);
}

function isPlannedPart(value: unknown): value is PlannedPart {
  const { summary, fingerprint } = (value ?? {}) as Partial<PlannedPart>;
  return (
    typeof fingerprint === "string" &&
    typeof summary?.key === "string" &&
    typeof summary.entry === "string" &&
    Number.isSafeInteger(summary.records) &&
    typeof summary.firstDay === "string" &&
    typeof summary.lastDay === "string"
  );
}
