import type { Announcement } from "../changes/published-state.ts";
import type { SiteConfig } from "../config/site.ts";
import { calendarIdsOf } from "../model/event-calendars.ts";
import { sourceIdsOf } from "../model/event-sources.ts";
import { memoByKey } from "../model/memo-by-key.ts";
import { PerEvent } from "../model/per-event.ts";
import type { Calendar, CalendarEvent, Category, SourceOrganization } from "../model/types.ts";
import { type CalendarCategoryScope, type FeedScope, scopeFormats } from "../model/url-scheme.ts";
import type { PlaceIndex } from "../places/place-index.ts";
import type { SeriesIndex } from "../series/series-index.ts";
import { describeSeriesRule } from "../series/series-text.ts";
import type { FeedOptions, FeedSiteOptions } from "./feeds.ts";
import { announcementsInScope } from "./feeds-announcements.ts";
import type { FeedEntry } from "./feeds-entry.ts";
import {
  distinctEvents,
  knownDistinct,
  selectFeedEvents,
  timedEvents,
  type Warn,
} from "./feeds-window.ts";
import {
  type CalendarOptions,
  type CalendarPlan,
  type IcsSiteOptions,
  planCalendar,
  type VeventMemo,
} from "./ics.ts";
import { earlierMoment } from "./ics-budget.ts";
import {
  calendarCategoryScopes,
  type SubscriptionScopes,
  subscribedPairs,
  subscriptionScopes,
} from "./subscription-scopes.ts";
import type { VeventSizes } from "./vevent-sizes.ts";

/**
 * The sets of events with feeds and calendar files (docs/feeds.md, "Files"),
 * worked out once per build from the published events and shared by the
 * files themselves and the pages that link to them (the subscribe page, the
 * panels that say a calendar was trimmed to its size budget).
 *
 * The events that left the portal stay where they were published: a deleted
 * one in the files of the site, its calendar, its categories and its pairs;
 * one that moved to another calendar only in the subscription of the
 * calendar it left (everywhere else it is the same event under the same UID).
 */

/** What the scopes are made from: the site's data (src/site/load.ts). */
export interface FeedData {
  readonly fetchedAt: string;
  /** When the portal's data last changed (src/site/data-updated.ts); null when unknown. */
  readonly updatedAt: string | null;
  readonly calendars: readonly Calendar[];
  readonly events: readonly CalendarEvent[];
  readonly categories: readonly Pick<Category, "id" | "name">[];
  /** Events gone from the portal, published as cancelled for a while (src/changes). */
  readonly removed: readonly CalendarEvent[];
  /** Change announcements, newest first (src/changes). */
  readonly announcements: readonly Announcement[];
  /** A site of several sources: its organizations, each a scope with files (docs/sources.md). */
  readonly sources?: readonly SourceOrganization[];
  /** The places and series with pages (src/places, src/series): each is a scope too. */
  readonly views?: { readonly places?: PlaceIndex; readonly series?: SeriesIndex };
}

export type FeedSite = FeedSiteOptions &
  IcsSiteOptions &
  Pick<SiteConfig, "urls" | "websubHub" | "eventIcs">;

export type Purpose = "ics" | "feed";

export class FeedScopes {
  readonly data: FeedData;
  readonly site: FeedSite;
  /** The scopes offered to subscribers (subscribe page, search page). */
  readonly subscriptions: SubscriptionScopes;
  /**
   * The date of a feed without items and of an event without timestamps:
   * when the data last changed, so that a rebuild of unchanged data writes
   * the same bytes; the fetch time only when the portal gives no modification times.
   */
  readonly dataUpdatedAt: string;
  /** Every scope with files: those offered, plus categories and pairs kept for a deleted event. */
  readonly withFiles: readonly FeedScope[];
  /**
   * Each event's feed entry and VEVENT lines, made once and shared by every
   * file that shows the event; cleared once those files are written
   * (feed-files.ts): at 100,000 events they hold hundreds of MB.
   */
  readonly entries = new PerEvent<FeedEntry>();
  readonly vevents: VeventMemo = new PerEvent();
  readonly #warn: Warn;
  readonly #sizes: VeventSizes | undefined;
  readonly #keys = new ScopeKeys();
  /**
   * Each scope's events, by scope key: one list for its feeds and its
   * calendar file alike, so that each is read and sorted once
   * (feeds-window.ts), not once per purpose.
   */
  readonly #events = new Map<string, CalendarEvent[]>();
  /** The calendar files that also hold events moved away from their calendar, by scope key. */
  readonly #icsOnly = new Map<string, CalendarEvent[]>();
  readonly #plans = new Map<string, CalendarPlan>();
  /** The events some scope's calendar.ics carries, made when a file is first cut. */
  #carriedEvents: ReadonlySet<CalendarEvent> | null = null;
  /** What a place's or a series' scope says about it (description), by scope key. */
  readonly #about = new Map<string, string>();

  /** `sizes`: the VEVENTs' sizes an earlier build kept, for the size plans (vevent-sizes.ts). */
  constructor(data: FeedData, site: FeedSite, warn: Warn, sizes?: VeventSizes) {
    this.data = data;
    this.site = site;
    this.#warn = warn;
    this.#sizes = sizes;
    this.dataUpdatedAt = data.updatedAt ?? data.fetchedAt;
    // Each event once in every list: checked here once rather than in each scope's list.
    const distinct = distinctEvents(data.events, data.removed);
    if (distinct) knownDistinct(data.events);
    this.subscriptions = subscriptionScopes(data.events, data.calendars, data.categories, site);
    const deleted = data.removed.filter((e) => e.history?.removed?.kind === "deleted");
    const places = data.views?.places;
    const series = data.views?.series;
    // A place's and a series' files: their events, and deleted ones while published as cancelled.
    const keys = this.#keys;
    const keysOf = (event: CalendarEvent): string[] => {
      const of = keys.ofEvent(event);
      const place = places?.of(event);
      if (place) of.push(keys.of(place.scope));
      const dates = series?.of(event);
      if (dates) of.push(keys.of(dates.scope));
      for (const id of sourceIdsOf(event)) of.push(keys.organization(id));
      return of;
    };
    const moved: CalendarEvent[] = [];
    for (const event of data.events) this.#add(event, keysOf(event));
    for (const event of data.removed) {
      if (event.history?.removed?.kind === "moved") moved.push(event);
      else this.#add(event, keysOf(event));
    }
    for (const event of moved) {
      const key = keys.calendar(event.calendarId);
      let list = this.#icsOnly.get(key);
      if (!list) {
        list = [...(this.#events.get(key) ?? [])];
        this.#icsOnly.set(key, list);
      }
      list.push(event);
    }
    if (distinct) {
      for (const list of this.#events.values()) knownDistinct(list);
      for (const list of this.#icsOnly.values()) knownDistinct(list);
    }
    const categories = withRemovedCategories(data.categories, deleted);
    this.withFiles = [
      { kind: "site" },
      ...data.calendars.map(
        (calendar): FeedScope => ({ kind: "calendar", id: calendar.id, name: calendar.name }),
      ),
      ...categories.map(
        (category): FeedScope => ({ kind: "category", id: category.id, name: category.name }),
      ),
      ...this.#pairsWithFiles(deleted, categories),
      ...(places?.all ?? []).map((place) => place.scope),
      ...(series?.all ?? []).map((dates) => dates.scope),
      ...(data.sources ?? []).map(
        (source): FeedScope => ({ kind: "organization", id: source.id, name: source.name }),
      ),
    ];
    for (const place of places?.all ?? []) {
      const address = place.place.address?.formatted;
      if (address) this.#about.set(keys.of(place.scope), address);
    }
    for (const dates of series?.all ?? []) {
      if (dates.rule)
        this.#about.set(keys.of(dates.scope), describeSeriesRule(dates.rule, site.lang));
    }
  }

  /** The events of a scope's feeds or of its calendar file, in the site's order. */
  events(scope: FeedScope, purpose: Purpose): readonly CalendarEvent[] {
    if (scope.kind === "site" && this.data.removed.length === 0) return this.data.events;
    const key = this.#keys.of(scope);
    return (purpose === "ics" ? this.#icsOnly.get(key) : undefined) ?? this.#events.get(key) ?? [];
  }

  /** The events a scope's feeds show, selected as feeds.ts selects them. */
  *feedEvents(scope: FeedScope): Iterable<CalendarEvent> {
    const timed = timedEvents(this.events(scope, "feed"), this.#warn);
    for (const shown of selectFeedEvents(timed, this.site)) yield shown.event;
  }

  /** The announcements of a scope's feeds, newest first. */
  announcements(scope: FeedScope): readonly Announcement[] {
    if (scope.kind !== "place" && scope.kind !== "series" && scope.kind !== "organization") {
      return announcementsInScope(this.data.announcements, scope);
    }
    if (this.data.announcements.length === 0) return [];
    const ids = new Set(this.events(scope, "feed").map((e) => `${e.calendarId}\u0000${e.id}`));
    return this.data.announcements.filter((a) => ids.has(`${a.calendarId}\u0000${a.eventId}`));
  }

  /**
   * What a scope's feeds and calendar say about it: a calendar's description,
   * a place's address, a series' rule ("Every Thursday, 19:30"); else the
   * site's description.
   */
  description(scope: FeedScope): string | undefined {
    if (scope.kind === "calendar") {
      return this.data.calendars.find((c) => c.id === scope.id)?.description || undefined;
    }
    return this.#about.get(this.#keys.of(scope));
  }

  /** The options of a scope's RSS, Atom and JSON feeds. */
  feedOptions(scope: FeedScope): FeedOptions {
    return {
      ...this.#scopeOptions(scope),
      announcements: this.announcements(scope),
      entries: this.entries,
    };
  }

  /** The options of a scope's calendar.ics. */
  calendarOptions(scope: FeedScope): CalendarOptions {
    const calendar =
      scope.kind === "calendar" ? this.data.calendars.find((c) => c.id === scope.id) : undefined;
    return {
      ...this.#scopeOptions(scope),
      color: calendar?.color ?? null,
      warn: this.#warn,
      vevents: this.vevents,
      ...(this.#sizes ? { sizes: this.#sizes } : {}),
    };
  }

  /** What a scope's feeds and its calendar alike are told of it: the site, the scope, the data's date, its description. */
  #scopeOptions(scope: FeedScope) {
    const description = this.description(scope);
    return {
      site: this.site,
      scope,
      dataUpdatedAt: this.dataUpdatedAt,
      ...(description ? { description } : {}),
    };
  }

  /** Which events a scope's calendar.ics carries within its size budget, worked out once. */
  plan(scope: FeedScope): CalendarPlan {
    const key = this.#keys.of(scope);
    let plan = this.#plans.get(key);
    if (!plan) {
      plan = planCalendar(this.events(scope, "ics"), this.calendarOptions(scope));
      this.#plans.set(key, plan);
    }
    return plan;
  }

  /**
   * The first moment at which the clock alone could change a plan made so
   * far (CalendarPlan.changesAt), or null: a moment of the build's next date
   * change, which the rebuild check and the page record wait for.
   */
  plansChangeAt(): number | null {
    let first: number | null = null;
    for (const { changesAt } of this.#plans.values()) first = earlierMoment(first, changesAt);
    return first;
  }

  /**
   * How many of the events a scope's calendar.ics leaves out to fit its
   * budget reach no subscriber at all: every other file that holds them
   * (the site's, their calendar's, categories', pairs', place's, series')
   * leaves them out too. The plans are the ones the files are written from.
   */
  unreached(scope: FeedScope): number {
    const { dropped } = this.plan(scope);
    if (dropped.length === 0) return 0;
    // A scope does not carry what it leaves out, nor does any of the same key (the same plan).
    const carried = this.#carried();
    return dropped.filter((event) => !carried.has(event)).length;
  }

  /**
   * Every event some scope's calendar.ics carries, as planned: one pass
   * over the scopes, where each event left out by a scope asked each scope
   * holding it, through a map of every event's scopes (0.7 s of an edited
   * 100,000-event build: docs/performance.md, What changed, item 89).
   */
  #carried(): ReadonlySet<CalendarEvent> {
    if (this.#carriedEvents) return this.#carriedEvents;
    const carried = new Set<CalendarEvent>();
    for (const scope of this.withFiles) {
      if (!scopeFormats(scope).includes("ics")) continue;
      const { dropped } = this.plan(scope);
      const left = dropped.length === 0 ? null : new Set(dropped);
      for (const event of this.events(scope, "ics")) if (!left?.has(event)) carried.add(event);
    }
    this.#carriedEvents = carried;
    return carried;
  }

  #add(event: CalendarEvent, keys: readonly string[]): void {
    for (const key of keys) {
      const list = this.#events.get(key);
      if (list) list.push(event);
      else this.#events.set(key, [event]);
    }
  }

  /**
   * The pairs with files: those of the site's events, and, while a deleted
   * event is published as cancelled, the pairs it was in (their subscribers
   * must get the cancellation). The latter are not offered to new subscribers.
   */
  #pairsWithFiles(
    deleted: readonly CalendarEvent[],
    categories: readonly Pick<Category, "id" | "name">[],
  ): CalendarCategoryScope[] {
    const { data, site } = this;
    const pairs = subscribedPairs(data.events, data.calendars, data.categories, site);
    if (deleted.length === 0) return pairs;
    const known = new Set(pairs.map(scopeKey));
    const extra = calendarCategoryScopes(deleted, data.calendars, categories);
    return [...pairs, ...extra.filter((pair) => !known.has(scopeKey(pair)))];
  }
}

/**
 * Scope keys, each made once. Every event asks for the keys of the six to
 * twelve scopes it is in, and each cut calendar file for those of every
 * scope holding each event it leaves out. Made afresh each time (a JSON
 * text, then a purpose put before it for the look-up), the scopes' set-up
 * and the count of unreached events took 2.9 s of an edited
 * 100,000-event build's CPU profile; 1.2 s with the keys kept
 * (docs/performance.md, What changed, item 49). A scope object keeps its
 * key; a scope named by ids (an event's calendar, categories, pairs,
 * organizations) finds its key by them, with no text made to look it up.
 */
class ScopeKeys {
  readonly #ofScope = new WeakMap<FeedScope, string>();
  readonly #site = scopeKey({ kind: "site" });
  readonly calendar = memoByKey((id: string) => scopeKey({ kind: "calendar", id, name: "" }));
  readonly category = memoByKey((id: string) => scopeKey({ kind: "category", id, name: "" }));
  readonly organization = memoByKey((id: string) =>
    scopeKey({ kind: "organization", id, name: "" }),
  );
  readonly #pairsOf = memoByKey((calendarId: string) =>
    memoByKey((categoryId: string) =>
      scopeKey({ kind: "calendarCategory", calendarId, categoryId, name: "" }),
    ),
  );

  of(scope: FeedScope): string {
    let key = this.#ofScope.get(scope);
    if (key === undefined) {
      key = scopeKey(scope);
      this.#ofScope.set(scope, key);
    }
    return key;
  }

  pair(calendarId: string, categoryId: string): string {
    return this.#pairsOf(calendarId)(categoryId);
  }

  /** The keys of the scopes every event is in: the site, its calendar, its categories and pairs. */
  ofEvent(event: CalendarEvent): string[] {
    // An event other sources publish too is in each of their calendars (docs/sources.md).
    const calendarIds = calendarIdsOf(event);
    const keys = [this.#site];
    for (const id of calendarIds) keys.push(this.calendar(id));
    const categories = new Set<string>();
    for (const category of event.categories) {
      if (categories.has(category.id)) continue;
      categories.add(category.id);
      keys.push(this.category(category.id));
      for (const calendarId of calendarIds) keys.push(this.pair(calendarId, category.id));
    }
    return keys;
  }
}

/** A scope's identity: its kind and ids (names change, files stay). */
function scopeKey(scope: FeedScope): string {
  if (scope.kind === "site") return JSON.stringify(["site"]);
  if (scope.kind === "calendarCategory") {
    return JSON.stringify([scope.kind, scope.calendarId, scope.categoryId]);
  }
  if (scope.kind === "series") return JSON.stringify([scope.kind, scope.calendarId, scope.id]);
  return JSON.stringify([scope.kind, scope.id]);
}

/**
 * The categories with feed and calendar files: those of the site's events,
 * plus those of deleted events still published as cancelled, so a category
 * whose last event was deleted keeps its files until the cancellation has
 * reached its subscribers (the pages do not offer such a category to new
 * subscribers).
 */
function withRemovedCategories(
  categories: readonly Pick<Category, "id" | "name">[],
  deleted: readonly CalendarEvent[],
): Pick<Category, "id" | "name">[] {
  const known = new Set(categories.map((category) => category.id));
  const extra: Category[] = [];
  for (const event of deleted) {
    for (const category of event.categories) {
      if (known.has(category.id)) continue;
      known.add(category.id);
      extra.push(category);
    }
  }
  return [...categories, ...extra];
}
