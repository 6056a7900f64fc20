/**
 * How much of what Google's Event rich results need the event pages' JSON-LD
 * carries (docs/deploy.md, "The build report"), counted from the JSON-LD
 * objects the pages emit (src/outputs/jsonld.ts), and which field-map keys
 * (EVENT_API_FIELD_MAP, docs/configuration.md) would fill what is missing.
 *
 * Required and recommended properties as Google's Search Central page "Event
 * (Event) structured data" lists them: required name, startDate and location
 * (a Place with an address, or a VirtualLocation with a url for online
 * events); recommended description, endDate, eventAttendanceMode,
 * eventStatus, image, offers (availability, price, priceCurrency, url,
 * validFrom), organizer (url) and performer.
 */

import { join } from "node:path";
import { codeFingerprint } from "../code-fingerprint.ts";
import { count } from "../metrics.ts";
import { eventDigest } from "../model/event-digest.ts";
import { KeptMap } from "../model/kept-map.ts";
import type { KeptReads } from "../model/kept-reads.ts";
import type { CalendarEvent } from "../model/types.ts";

type JsonLd = Readonly<Record<string, unknown>>;

interface FieldRule {
  readonly field: string;
  /** Field-map keys that fill it. */
  readonly keys: readonly string[];
  readonly has: (event: JsonLd) => boolean;
}

const present = (value: unknown): boolean =>
  value !== undefined &&
  value !== null &&
  value !== "" &&
  !(Array.isArray(value) && value.length === 0);

const asList = (value: unknown): JsonLd[] =>
  (Array.isArray(value) ? value : [value]).filter(
    (item): item is JsonLd => typeof item === "object" && item !== null,
  );

const offer = (event: JsonLd): JsonLd | undefined => asList(event.offers)[0];

/** Every location usable: a Place with an address, a VirtualLocation with a url. */
function hasLocation(event: JsonLd): boolean {
  const locations = asList(event.location);
  return (
    locations.length > 0 &&
    locations.every((location) =>
      location["@type"] === "VirtualLocation"
        ? present(location.url)
        : asList(location.address).some((address) =>
            Object.entries(address).some(([key, value]) => key !== "@type" && present(value)),
          ),
    )
  );
}

export const REQUIRED: readonly FieldRule[] = [
  { field: "name", keys: ["title"], has: (e) => present(e.name) },
  { field: "startDate", keys: ["start"], has: (e) => present(e.startDate) },
  { field: "location", keys: ["location", "onlineUrl"], has: hasLocation },
];

export const RECOMMENDED: readonly FieldRule[] = [
  { field: "endDate", keys: ["end"], has: (e) => present(e.endDate) },
  { field: "description", keys: ["summary", "description"], has: (e) => present(e.description) },
  { field: "image", keys: ["image"], has: (e) => present(e.image) },
  { field: "offers.price", keys: ["offers.price"], has: (e) => present(offer(e)?.price) },
  {
    field: "offers.priceCurrency",
    keys: ["offers.currency"],
    has: (e) => present(offer(e)?.priceCurrency),
  },
  {
    field: "offers.availability",
    keys: ["offers.availability"],
    has: (e) => present(offer(e)?.availability),
  },
  {
    field: "offers.validFrom",
    keys: ["offers.validFrom"],
    has: (e) => present(offer(e)?.validFrom),
  },
  { field: "offers.url", keys: ["registrationUrl"], has: (e) => present(offer(e)?.url) },
  {
    field: "organizer.url",
    keys: ["organizer"],
    has: (e) => asList(e.organizer).some((o) => present(o.url)),
  },
  {
    field: "performer",
    keys: ["performer"],
    has: (e) => asList(e.performer).some((p) => present(p.name)),
  },
  { field: "eventStatus", keys: ["status"], has: (e) => present(e.eventStatus) },
  {
    field: "eventAttendanceMode",
    keys: ["attendanceMode"],
    has: (e) => present(e.eventAttendanceMode),
  },
];

const RULES: readonly FieldRule[] = [...REQUIRED, ...RECOMMENDED];

export interface FieldShare {
  readonly field: string;
  /** Events whose JSON-LD has it. */
  readonly count: number;
  /** count / events, 0 to 1 (1 when there are no events). */
  readonly share: number;
  readonly keys: readonly string[];
}

export interface RichResults {
  /** Event pages with JSON-LD. */
  readonly events: number;
  readonly required: readonly FieldShare[];
  readonly recommended: readonly FieldShare[];
}

/** Which rules a JSON-LD object meets: bit `i` for RULES[i]. */
function rulesMet(jsonLd: JsonLd): number {
  let met = 0;
  for (let index = 0; index < RULES.length; index++) {
    if (RULES[index]?.has(jsonLd)) met |= 1 << index;
  }
  return met;
}

const isRulesMet = (value: unknown): value is number =>
  Number.isInteger(value) && (value as number) >= 0 && (value as number) < 2 ** RULES.length;

/**
 * What an event's JSON-LD meets is named by: the event whole (its digest)
 * and whether its page names images of its own (its share cards). Nothing
 * else the JSON-LD is made from (the page's address, the names of access
 * features) changes a rule's answer.
 */
export function richResultsKey(event: CalendarEvent, images: readonly string[] = []): string {
  return images.length > 0 ? `${eventDigest(event)} images` : eventDigest(event);
}

/**
 * Counts the JSON-LD of the event pages as they are rendered: each event once
 * (by its `@id`), however often a template asks for it. One per build run.
 *
 * What each event's JSON-LD meets is kept between builds (`kept`, saved by
 * `save`), so that a page kept as published is counted without its
 * JSON-LD made again: making it for every kept page took 1.1 s of an
 * edited build at 100,000 events (docs/performance.md, What changed, item 76).
 */
export class RichResultsTally {
  readonly #seen = new Set<string>();
  /** Events whose JSON-LD meets each rule, in RULES' order. */
  readonly #counts = RULES.map(() => 0);
  readonly #kept: KeptMap<number>;

  constructor(kept: KeptMap<number> = KeptMap.load(null, "", isRulesMet)) {
    this.#kept = kept;
  }

  /** The tally, with what the last build with this code kept in `cacheDir`. */
  static load(cacheDir: string, reads?: KeptReads): RichResultsTally {
    const path = join(cacheDir, "rich-results.json");
    return new RichResultsTally(
      KeptMap.load(path, codeFingerprint(), isRulesMet, undefined, reads),
    );
  }

  /** Counts a page's JSON-LD; `key` (richResultsKey) keeps what it meets for the next build. */
  add(jsonLd: JsonLd, key?: string): void {
    const id = typeof jsonLd["@id"] === "string" ? jsonLd["@id"] : `#${this.#seen.size}`;
    if (this.#seen.has(id)) return;
    const met = rulesMet(jsonLd);
    if (key !== undefined) this.#kept.set(key, met);
    this.#count(id, met);
  }

  /**
   * Counts the JSON-LD `@id` of a page kept as published shows, by what it
   * met when it was last made under `key`; made again (`make`) only when
   * no build with this code kept it.
   */
  addKept(id: string, key: string, make: () => JsonLd): void {
    if (this.#seen.has(id)) return;
    let met = this.#kept.get(key);
    if (met === undefined) met = rulesMet(make());
    else count("richResults.reused");
    this.#kept.set(key, met);
    this.#count(id, met);
  }

  /** Keeps what this build's events met for the next build. */
  save(): void {
    this.#kept.save();
  }

  #count(id: string, met: number): void {
    this.#seen.add(id);
    for (let index = 0; index < RULES.length; index++) {
      if (met & (1 << index)) this.#counts[index] = (this.#counts[index] ?? 0) + 1;
    }
  }

  summary(): RichResults {
    const events = this.#seen.size;
    const share = (rule: FieldRule): FieldShare => {
      const count = this.#counts[RULES.indexOf(rule)] ?? 0;
      return { field: rule.field, count, share: events ? count / events : 1, keys: rule.keys };
    };
    return { events, required: REQUIRED.map(share), recommended: RECOMMENDED.map(share) };
  }
}

/** Counts a list of JSON-LD objects at once. */
export function richResultsOf(jsonLd: Iterable<JsonLd>): RichResults {
  const tally = new RichResultsTally();
  for (const item of jsonLd) tally.add(item);
  return tally.summary();
}

/**
 * The report's block: the required share (or each required field when one
 * falls short), each recommended field's share, and the field-map keys that
 * would fill those short of 100%.
 */
export function richResultsLines(results: RichResults): string[] {
  if (results.events === 0) return ["  rich results  no event pages with JSON-LD"];
  const pct = (share: number) => `${Math.floor(share * 100)}%`;
  const complete = results.required.every((f) => f.count === results.events);
  const required = complete
    ? `required 100% (${results.required.map((f) => f.field).join(", ")})`
    : `required ${results.required.map((f) => `${f.field} ${pct(f.share)}`).join(", ")}`;
  const short = [...results.required, ...results.recommended].filter(
    (f) => f.count < results.events,
  );
  const keys = [...new Set(short.flatMap((f) => f.keys))];
  return [
    `  rich results  ${results.events} event pages: ${required}`,
    `    recommended ${results.recommended.map((f) => `${f.field} ${pct(f.share)}`).join(", ")}`,
    ...(keys.length
      ? [`    to fill     map ${keys.map((k) => `\`${k}\``).join(", ")} (EVENT_API_FIELD_MAP)`]
      : []),
  ];
}

/** The shares for `--metrics`: field -> 0..1, rounded to 4 places. */
export function richResultsMetrics(results: RichResults): Record<string, unknown> {
  const shares = (fields: readonly FieldShare[]) =>
    Object.fromEntries(fields.map((f) => [f.field, Math.round(f.share * 10_000) / 10_000]));
  return {
    events: results.events,
    required: shares(results.required),
    recommended: shares(results.recommended),
  };
}
