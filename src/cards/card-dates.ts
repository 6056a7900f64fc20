import { join } from "node:path";
import { count } from "../metrics.ts";
import { intlCode, KeptMap } from "../model/kept-map.ts";
import type { CalendarEvent } from "../model/types.ts";
import { formatWhen } from "../site/format.ts";

/**
 * The "when" line of each event's card (formatWhen), kept between builds by
 * the times it is made from. Every build works out the card of every event
 * with cards of its own, to find its key, and the line's date was most of
 * that: Luxon reads the event's times in its zone (several of Intl's offset
 * look-ups) and Intl formats them, about 0.1 ms an event, 0.35 s of a
 * 10,000-event rebuild and the only reason such a build read those events'
 * times at all (docs/performance.md, What changed, item 39).
 *
 * The line is a pure function of the event's start, end, all-day flag and
 * zone and the site's language, given the code and ICU's data (its version
 * and its time zones' version: what Intl formats with), which key the file.
 */
export class CardDates {
  readonly #kept: KeptMap<string>;

  private constructor(kept: KeptMap<string>) {
    this.#kept = kept;
  }

  /** The lines a build with this code kept in `cacheDir`; none kept without a folder. */
  static load(cacheDir: string | null): CardDates {
    const path = cacheDir ? join(cacheDir, "card-dates.json") : null;
    return new CardDates(KeptMap.load(path, intlCode(), isText));
  }

  /** formatWhen(event, lang): the last build's text for the same times, else made now. */
  readonly when = (event: CalendarEvent, lang: string): string => {
    const key = `${lang} ${event.timeZone} ${event.allDay} ${event.start} ${event.end}`;
    let text = this.#kept.get(key);
    if (text === undefined) text = formatWhen(event, lang);
    else count("cards.datesReused");
    this.#kept.set(key, text);
    return text;
  };

  /** Keeps this build's lines for the next (src/model/kept-map.ts). */
  save(): void {
    this.#kept.save();
  }
}

function isText(value: unknown): value is string {
  return typeof value === "string";
}
