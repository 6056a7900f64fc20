import { join } from "node:path";
import { codeFingerprint } from "../code-fingerprint.ts";
import { count } from "../metrics.ts";
import { KeptMap } from "../model/kept-map.ts";
import type { KeptReads } from "../model/kept-reads.ts";
import type { CalendarEvent } from "../model/types.ts";
import { contentHash } from "../render/published-files.ts";

/** What a calendar file's size budget needs of a VEVENT: its UTF-8 size and the zone it names. */
export type VeventSize = readonly [bytes: number, zone: string | null];

/**
 * Each VEVENT's size (and each calendar head's), kept between builds, by a
 * digest of everything its lines depend on (its event's download inputs and
 * whether it is the short form, src/outputs/ics.ts): the scope calendars' size plans need every
 * event's size, and making the lines again only to measure them was most of
 * a warm build's calendar work (0.6 s at 10,000 events, docs/performance.md,
 * "What changed", item 21). A cache: a size is the one its lines have, so a
 * plan made from it is the plan made from the lines. Keyed by the code's
 * fingerprint as a whole; saving keeps only this build's sizes
 * (src/model/kept-map.ts).
 */
export class VeventSizes {
  readonly #kept: KeptMap<VeventSize>;
  /** This build's answers by event and form: an event is in several scopes' plans. */
  readonly #byEvent = new WeakMap<CalendarEvent, { full?: VeventSize; short?: VeventSize }>();

  private constructor(kept: KeptMap<VeventSize>) {
    this.#kept = kept;
  }

  /** The sizes a build with this code kept in `cacheDir` for `context` (a site's language); none without a folder. */
  static load(cacheDir: string | null, context: string, reads?: KeptReads): VeventSizes {
    const path = cacheDir
      ? join(cacheDir, `vevent-sizes-${contentHash(context).slice(0, 12)}.json`)
      : null;
    return new VeventSizes(KeptMap.load(path, codeFingerprint(), isVeventSize, undefined, reads));
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
    let size = this.#kept.get(key);
    if (size) count("ics.sizesReused");
    else size = measure();
    this.#kept.set(key, size);
    if (!forms) {
      forms = {};
      this.#byEvent.set(event, forms);
    }
    forms[form] = size;
    return size;
  }

  /**
   * The size of a calendar's head (its properties and VTIMEZONEs), which
   * depends on `inputs` alone: from this build or the last, else `measure`d
   * (and kept, beside the VEVENTs' sizes).
   */
  head(inputs: string, measure: () => number): number {
    const key = contentHash(`head\n${inputs}`);
    const kept = this.#kept.get(key);
    if (kept) count("ics.headSizesReused");
    const bytes = kept?.[0] ?? measure();
    this.#kept.set(key, [bytes, null]);
    return bytes;
  }

  /** Keeps this build's sizes for the next; a failure costs the next build the measuring, nothing else. */
  save(): void {
    this.#kept.save();
  }
}

function isVeventSize(value: unknown): value is VeventSize {
  return (
    Array.isArray(value) &&
    value.length === 2 &&
    Number.isSafeInteger(value[0]) &&
    (value[1] === null || typeof value[1] === "string")
  );
}
