import type { CalendarEvent, Place, UpcomingAndPast } from "../model/types.ts";
import { groupUpcomingAndPast } from "../model/upcoming-and-past.ts";
import { type FeedScope, paths } from "../model/url-scheme.ts";
import { assignSegments, normalizeKeyText } from "./key-text.ts";
import { placeIdentity, placeName, proposedPlaceSegment } from "./place-key.ts";

/**
 * The site's places, bucketed in one pass over its events (src/site/views.ts
 * calls this once per build): each place's upcoming events, soonest first,
 * and its past ones within the site's past window, most recent first. Pages,
 * feeds, calendars and the sitemap read these lists; nothing filters the
 * site's events per place again.
 */

/** A place's feeds and calendar (src/outputs/feed-scopes.ts): `id` is its key. */
export interface PlaceScope {
  readonly kind: "place";
  readonly id: string;
  readonly name: string;
}

export interface PlaceSummary extends UpcomingAndPast {
  /** The URL segment of its page: the portal's id, or a key from name and address (place-key.ts). */
  readonly key: string;
  /** What tells it from other places (place-key.ts, placeIdentity). */
  readonly identity: string;
  /** Its page (`/places/<key>/`). */
  readonly path: string;
  /** Its archive (`/places/<key>/past/`). */
  readonly pastPath: string;
  /** Name, address and coordinates as its soonest upcoming event (else latest past one) gives them. */
  readonly place: Place;
  readonly name: string;
  readonly scope: PlaceScope & FeedScope;
}

export class PlaceIndex {
  /** By name (normalized), then identity: the order of `/places/`. */
  readonly all: readonly PlaceSummary[];
  readonly #byIdentity: ReadonlyMap<string, PlaceSummary>;
  readonly #identities = new WeakMap<CalendarEvent, string | null>();
  readonly #typed = new Map<string, string | null>();

  /** `upcoming` in the site's order; `past` most recent first (src/site/views.ts). */
  constructor(upcoming: readonly CalendarEvent[], past: readonly CalendarEvent[]) {
    const buckets = groupUpcomingAndPast(upcoming, past, (event) => this.identityOf(event));

    const shown = new Map<string, Place>();
    for (const [identity, bucket] of buckets) shown.set(identity, representative(bucket));
    const segments = assignSegments(
      new Map(
        [...shown].map(([identity, place]) => [identity, proposedPlaceSegment(identity, place)]),
      ),
    );
    const summaries: PlaceSummary[] = [];
    for (const [identity, bucket] of buckets) {
      const place = shown.get(identity) as Place;
      const key = segments.get(identity) as string;
      const name = placeName(place);
      summaries.push({
        key,
        identity,
        path: paths.place(key),
        pastPath: paths.placePast(key),
        place,
        name,
        upcoming: bucket.upcoming,
        past: bucket.past,
        scope: { kind: "place", id: key, name },
      });
    }
    const sortKey = new Map(summaries.map((s) => [s, normalizeKeyText(s.name)]));
    summaries.sort(
      (a, b) =>
        compare(sortKey.get(a) ?? "", sortKey.get(b) ?? "") || compare(a.identity, b.identity),
    );
    this.all = summaries;
    this.#byIdentity = new Map(summaries.map((summary) => [summary.identity, summary]));
  }

  /** The place of an event with a page, if it has one (events gone from the portal too). */
  of(event: CalendarEvent): PlaceSummary | undefined {
    const identity = this.identityOf(event);
    return identity === null ? undefined : this.#byIdentity.get(identity);
  }

  /** An event's place identity, worked out once per event, and once per place as typed. */
  identityOf(event: CalendarEvent): string | null {
    let identity = this.#identities.get(event);
    if (identity === undefined) {
      const place = event.location;
      // Events of one place repeat its text: normalizing it once is enough.
      const typed = place
        ? `${place.id ?? ""}\u0000${place.name ?? ""}\u0000${place.address?.formatted ?? ""}`
        : "";
      identity = this.#typed.get(typed);
      if (identity === undefined) {
        identity = placeIdentity(place);
        this.#typed.set(typed, identity);
      }
      this.#identities.set(event, identity);
    }
    return identity;
  }
}

/**
 * The place as shown: the one its soonest upcoming event names (else its most
 * recent past one), with the first coordinates any of its events give when
 * that one has none.
 */
function representative(bucket: UpcomingAndPast): Place {
  const events = [...bucket.upcoming, ...bucket.past];
  const place = events[0]?.location as Place;
  if (place.geo) return place;
  const geo = events.find((event) => event.location?.geo)?.location?.geo ?? null;
  return geo ? { ...place, geo } : place;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
