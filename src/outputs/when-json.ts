import { eventDigest } from "../model/event-digest.ts";
import { byStart } from "../model/order.ts";
import type { CalendarEvent } from "../model/types.ts";
import { type FileGroup, fileGroup } from "../render/file-group.ts";
import type { WhenKey } from "../site/when/ranges.ts";
import type { WhenPage, WhenViews } from "../site/when/when-views.ts";
import { toPublicEvent } from "./public-json.ts";
import { PUBLIC_JSON_VERSION, type PublicEvent } from "./public-json-types.ts";

/**
 * The JSON of each "when" page (docs/public-json.md, "when"): what the page
 * shows, for the widget's `when` option and other sites. Like the page, it
 * holds the build's day and the next one, each with the instants it holds
 * between, so a reader picks the right one by its own clock. Pure: the same
 * views give the same bytes, all day long.
 */

export interface PublicWhenRange {
  /** The date (yyyy-mm-dd, in `timeZone`) this range is for. */
  readonly today: string;
  /** It holds from `validFrom` (inclusive) until `validUntil`: that date's start and end in `timeZone`. */
  readonly validFrom: string;
  readonly validUntil: string;
  /** The days it covers, inclusive. */
  readonly firstDay: string;
  readonly lastDay: string;
  /** Indexes into `events` of the events on those days, in the site's order. */
  readonly events: readonly number[];
  /** Index into `events` of the first scheduled event after the range, or null. */
  readonly next: number | null;
}

export interface PublicWhenDocument {
  readonly version: typeof PUBLIC_JSON_VERSION;
  readonly when: WhenKey;
  /** Null for the site-wide pages. */
  readonly calendarId: string | null;
  readonly timeZone: string;
  /** The page's absolute URL. */
  readonly url: string;
  readonly ranges: readonly PublicWhenRange[];
  /** Every event the ranges name, once, in the site's order. */
  readonly events: readonly PublicEvent[];
}

export function whenDocument(page: WhenPage, siteUrl: string): PublicWhenDocument {
  const named = new Set<CalendarEvent>();
  for (const variant of page.variants) {
    for (const event of variant.events) named.add(event);
    if (variant.next) named.add(variant.next);
  }
  const events = [...named].sort(byStart);
  const index = new Map(events.map((event, i) => [event, i]));
  return {
    version: PUBLIC_JSON_VERSION,
    when: page.key,
    calendarId: page.calendar?.id ?? null,
    timeZone: page.zone,
    url: siteUrl + page.path,
    ranges: page.variants.map((variant, i) => ({
      today: variant.today,
      validFrom: page.bounds[i] ?? "",
      validUntil: page.bounds[i + 1] ?? "",
      firstDay: variant.range.first,
      lastDay: variant.range.last,
      events: variant.events.map((event) => index.get(event) ?? -1),
      next: variant.next ? (index.get(variant.next) ?? null) : null,
    })),
    events: events.map((event) => toPublicEvent(event, siteUrl)),
  };
}

/** One JSON file per "when" page. */
export function whenJsonFileGroup(when: WhenViews, siteUrl: string): FileGroup {
  return fileGroup<WhenPage>({
    phase: "json",
    name: "when.json",
    items: when.pages,
    path: (page) => page.jsonPath,
    render: (page) => `${JSON.stringify(whenDocument(page, siteUrl))}\n`,
    inputs: (page) => whenJsonInputs(page, siteUrl),
  });
}

/**
 * Everything a "when" page's JSON says besides the code, as text
 * (FileGroup.inputs): the page and its zone, and each range's days,
 * bounds and events whole (the clock reaches the file through the ranges).
 */
function whenJsonInputs(page: WhenPage, siteUrl: string): string {
  return JSON.stringify([
    siteUrl,
    page.key,
    page.calendar?.id ?? null,
    page.zone,
    page.path,
    page.bounds,
    page.variants.map((variant) => [
      variant.today,
      variant.range.first,
      variant.range.last,
      variant.events.map(eventDigest),
      variant.next ? eventDigest(variant.next) : null,
    ]),
  ]);
}
