import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { codeFingerprint } from "../code-fingerprint.ts";
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
 * A cache, keyed by the code's fingerprint and the ICU version that formats
 * the records' dates: records are pure (search-records.ts), so a month with
 * the same inputs has the same parts. Saving keeps only this build's months.
 * Best effort: a missing or unreadable file means the records are made.
 */

/** A part as planned: what parts.json says of it, and its fingerprint (part-cache.ts). */
export interface PlannedPart {
  readonly summary: PartSummary;
  readonly fingerprint: string;
}

const FILE = "search-months.json";

export class MonthPlans {
  readonly #path: string;
  readonly #previous: ReadonlyMap<string, readonly PlannedPart[]>;
  readonly #current = new Map<string, readonly PlannedPart[]>();

  private constructor(path: string, previous: ReadonlyMap<string, readonly PlannedPart[]>) {
    this.#path = path;
    this.#previous = previous;
  }

  static load(cacheDir: string): MonthPlans {
    const path = join(cacheDir, FILE);
    return new MonthPlans(path, readPlans(path));
  }

  /** The parts of the month with these inputs in the last build (or this one), if known. */
  get(inputs: string): readonly PlannedPart[] | undefined {
    return this.#current.get(inputs) ?? this.#previous.get(inputs);
  }

  set(inputs: string, parts: readonly PlannedPart[]): void {
    this.#current.set(inputs, parts);
  }

  /** Keeps this build's months for the next; a failure costs the next build the records. */
  save(): void {
    const same =
      this.#current.size === this.#previous.size &&
      [...this.#current.keys()].every((key) => this.#previous.has(key));
    if (same) return;
    try {
      mkdirSync(join(this.#path, ".."), { recursive: true });
      const temporary = `${this.#path}.${process.pid}.tmp`;
      writeFileSync(
        temporary,
        JSON.stringify({ code: codeKey(), months: Object.fromEntries(this.#current) }),
      );
      renameSync(temporary, this.#path);
    } catch {
      // Only a cache.
    }
  }
}

function codeKey(): string {
  return `${codeFingerprint()} ${process.versions.icu ?? ""}`;
}

function readPlans(path: string): ReadonlyMap<string, readonly PlannedPart[]> {
  try {
    const stored = JSON.parse(readFileSync(path, "utf8")) as { code?: unknown; months?: unknown };
    if (stored.code !== codeKey() || typeof stored.months !== "object" || !stored.months) {
      return new Map();
    }
    const plans = new Map<string, readonly PlannedPart[]>();
    for (const [inputs, parts] of Object.entries(stored.months)) {
      if (Array.isArray(parts) && parts.every(isPlannedPart)) plans.set(inputs, parts);
    }
    return plans;
  } catch {
    return new Map();
  }
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
