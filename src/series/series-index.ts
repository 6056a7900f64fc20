import type { CalendarEvent, UpcomingAndPast } from "../model/types.ts";
import { groupUpcomingAndPast, type UpcomingAndPastLists } from "../model/upcoming-and-past.ts";
import { type FeedScope, paths } from "../model/url-scheme.ts";
import { assignSegments, normalizeKeyText } from "../places/key-text.ts";
import type { PlaceIndex, PlaceSummary } from "../places/place-index.ts";
import { proposedSeriesSegment, seriesIdentity, seriesTitle } from "./series-key.ts";
import { detectSeriesRule, type SeriesRule } from "./series-rule.ts";

/**
 * The site's series, bucketed in one pass over its events (src/site/views.ts
 * calls this once per build, after the places): each series' upcoming dates,
 * soonest first, its past ones within the site's past window, most recent
 * first, its next date and its rule. Event pages ("Other dates"), lists that
 * collapse a series, series pages, feeds and calendars read these.
 */

/** A series' feeds and calendar (src/outputs/feed-scopes.ts): `id` is its key in its calendar. */
export interface SeriesScope {
  readonly kind: "series";
  readonly calendarId: string;
  readonly id: string;
  readonly name: string;
}

export interface SeriesSummary extends UpcomingAndPast {
  /** The URL segment of its page in its calendar (series-key.ts). */
  readonly key: string;
  readonly identity: string;
  readonly calendarId: string;
  /** `/calendars/<calendar>/series/<key>/`. */
  readonly path: string;
  /** As its next date (else its latest one) is titled. */
  readonly title: string;
  /** Every date: upcoming first, soonest first, then past ones, most recent first. */
  readonly dates: readonly CalendarEvent[];
  /** The first upcoming date that is neither cancelled nor postponed: "when is the next one?". */
  readonly next: CalendarEvent | null;
  /** The rule its dates follow, if one fits them all (series-rule.ts). */
  readonly rule: SeriesRule | null;
  /** Where it happens, when that place has a page. */
  readonly place: PlaceSummary | null;
  readonly scope: SeriesScope & FeedScope;
}

/** What an event page says about its series: the next date and a few more. */
export interface OtherDates {
  readonly series: SeriesSummary;
  /** The series' next date, unless it is this event. */
  readonly next: CalendarEvent | null;
  /** Upcoming dates other than this event and `next`, soonest first, at most OTHER_DATES_SHOWN. */
  readonly upcoming: readonly CalendarEvent[];
}

/** Enough to choose a date; the series page has them all (a daily series would list hundreds). */
export const OTHER_DATES_SHOWN = 5;

export class SeriesIndex {
  /** By calendar (in the site's calendar order), then title, then key. */
  readonly all: readonly SeriesSummary[];
  readonly #byIdentity: ReadonlyMap<string, SeriesSummary>;
  readonly #places: PlaceIndex;
  readonly #identities = new WeakMap<CalendarEvent, string>();
  readonly #titles = new Map<string, string>();
  /** Each upcoming date's position among its series' upcoming dates. */
  readonly #positions = new WeakMap<CalendarEvent, number>();

  /** `upcoming` in the site's order, `past` most recent first; `calendarIds` in the site's order. */
  constructor(
    upcoming: readonly CalendarEvent[],
    past: readonly CalendarEvent[],
    places: PlaceIndex,
    calendarIds: readonly string[],
  ) {
    this.#places = places;
    const buckets = groupUpcomingAndPast(upcoming, past, (event) => this.#identityOf(event));

    // Segments are settled per calendar: the same key may be used in two calendars.
    const proposed = new Map<string, Map<string, string>>();
    for (const [identity, bucket] of buckets) {
      if (bucket.upcoming.length + bucket.past.length < 2) continue;
      const sample = (bucket.upcoming[0] ?? bucket.past[0]) as CalendarEvent;
      let inCalendar = proposed.get(sample.calendarId);
      if (!inCalendar) {
        inCalendar = new Map();
        proposed.set(sample.calendarId, inCalendar);
      }
      inCalendar.set(identity, proposedSeriesSegment(identity, sample));
    }
    const calendarOrder = new Map(calendarIds.map((id, index) => [id, index]));
    const summaries: SeriesSummary[] = [];
    for (const [calendarId, inCalendar] of proposed) {
      for (const [identity, key] of assignSegments(inCalendar)) {
        const bucket = buckets.get(identity);
        if (!bucket) continue;
        summaries.push(this.#summary(identity, calendarId, key, bucket));
      }
    }
    const order = (s: SeriesSummary) => calendarOrder.get(s.calendarId) ?? calendarIds.length;
    summaries.sort(
      (a, b) =>
        order(a) - order(b) ||
        compare(a.title.toLowerCase(), b.title.toLowerCase()) ||
        compare(a.key, b.key),
    );
    this.all = summaries;
    this.#byIdentity = new Map(summaries.map((summary) => [summary.identity, summary]));
  }

  /** The series of an event, if it is a date of one (events gone from the portal too). */
  of(event: CalendarEvent): SeriesSummary | undefined {
    return this.#byIdentity.get(this.#identityOf(event));
  }

  /** The next date and a few more, for an event page; null for an event of no series. */
  otherDates(event: CalendarEvent): OtherDates | null {
    const series = this.of(event);
    if (!series) return null;
    const next = series.next === event ? null : series.next;
    const upcoming: CalendarEvent[] = [];
    for (const date of series.upcoming) {
      if (upcoming.length >= OTHER_DATES_SHOWN) break;
      if (date !== event && date !== next) upcoming.push(date);
    }
    return { series, next, upcoming };
  }

  /** How many upcoming dates of its series come after an upcoming event (0 for others). */
  moreAfter(event: CalendarEvent): number {
    const series = this.of(event);
    const position = this.#positions.get(event);
    if (!series || position === undefined) return 0;
    return series.upcoming.length - position - 1;
  }

  /**
   * A list with each series shown once, at its first date in the list (the
   * series' next one in the site's order): COLLAPSE_SERIES. The other dates
   * are left out; the row says how many more there are (`moreAfter`).
   */
  collapse(events: readonly CalendarEvent[]): readonly CalendarEvent[] {
    const shown = new Set<SeriesSummary>();
    return events.filter((event) => {
      const series = this.of(event);
      if (!series) return true;
      if (shown.has(series)) return false;
      shown.add(series);
      return true;
    });
  }

  #identityOf(event: CalendarEvent): string {
    let identity = this.#identities.get(event);
    if (identity === undefined) {
      // The dates of a series repeat its title: normalizing it once is enough.
      const own = seriesTitle(event);
      let title = this.#titles.get(own);
      if (title === undefined) {
        title = normalizeKeyText(own);
        this.#titles.set(own, title);
      }
      identity = seriesIdentity(event, this.#places.identityOf(event), title);
      this.#identities.set(event, identity);
    }
    return identity;
  }

  #summary(
    identity: string,
    calendarId: string,
    key: string,
    bucket: UpcomingAndPastLists,
  ): SeriesSummary {
    bucket.upcoming.forEach((event, index) => {
      this.#positions.set(event, index);
    });
    const next =
      bucket.upcoming.find((event) => event.status === "scheduled" && !event.history?.removed) ??
      null;
    const shown = next ?? bucket.upcoming[0] ?? (bucket.past[0] as CalendarEvent);
    const chronological = [...bucket.past].reverse().concat(bucket.upcoming);
    return {
      key,
      identity,
      calendarId,
      path: paths.series(calendarId, key),
      title: shown.title,
      upcoming: bucket.upcoming,
      past: bucket.past,
      dates: [...bucket.upcoming, ...bucket.past],
      next,
      rule: detectSeriesRule(chronological),
      place: this.#places.of(shown) ?? null,
      scope: { kind: "series", calendarId, id: key, name: shown.title },
    };
  }
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
