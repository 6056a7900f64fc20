import { calendarIdsOf } from "../model/event-calendars.ts";
import { compareCodeUnits } from "../model/order.ts";
import type { Calendar, CalendarEvent, Category } from "../model/types.ts";
import type { CalendarCategoryScope, FeedScope } from "../model/url-scheme.ts";
import { type SubscriptionWindow, selectSubscriptionEvents, timedEvents } from "./feeds-window.ts";

/**
 * Which sets of events can be subscribed to as real files: the whole site,
 * each calendar, each category, and each calendar x category pair that has
 * events (docs/feeds.md, "Files"). One function for the feed writers, the
 * subscribe page and the search page's list, so they agree on which files
 * exist.
 */

export interface ScopeEntry {
  readonly scope: FeedScope;
  readonly calendarId: string | null;
  readonly categoryId: string | null;
}

export interface SubscriptionScopes {
  readonly site: ScopeEntry;
  readonly calendars: readonly ScopeEntry[];
  readonly categories: readonly ScopeEntry[];
  readonly calendarCategories: readonly ScopeEntry[];
}

/**
 * The calendar x category pairs that get files: those with at least one event
 * their calendar file would carry (upcoming, recently ended, or cancelled
 * within the grace period). A pair whose events are all older gets none: an
 * iCalendar file needs at least one component (RFC 5545 section 3.6), and the
 * search page offers the pair's calendar instead.
 */
export function subscribedPairs(
  events: readonly CalendarEvent[],
  calendars: readonly Calendar[],
  categories: readonly Pick<Category, "id" | "name">[] | undefined,
  window: SubscriptionWindow,
): CalendarCategoryScope[] {
  // The same (memoized) reading as the feed writers, so a warning is given once.
  const current = selectSubscriptionEvents(timedEvents(events), window).map((timed) => timed.event);
  return calendarCategoryScopes(current, calendars, categories);
}

/**
 * Every calendar x category pair that at least one of `events` has, in the
 * order of `calendars` (by name), then by category name and id. Only
 * categories in `categories` count when it is given (the site lists a
 * category only when a published event carries it).
 */
export function calendarCategoryScopes(
  events: readonly CalendarEvent[],
  calendars: readonly Calendar[],
  categories?: readonly Pick<Category, "id" | "name">[],
): CalendarCategoryScope[] {
  const allowed = categories ? new Map(categories.map((c) => [c.id, c])) : null;
  const byCalendar = new Map<string, Map<string, Pick<Category, "id" | "name">>>();
  for (const event of events) {
    for (const category of event.categories) {
      const known = allowed ? allowed.get(category.id) : category;
      if (!known) continue;
      for (const calendarId of calendarIdsOf(event)) {
        let found = byCalendar.get(calendarId);
        if (!found) {
          found = new Map();
          byCalendar.set(calendarId, found);
        }
        if (!found.has(known.id)) found.set(known.id, known);
      }
    }
  }
  return calendars.flatMap((calendar) =>
    [...(byCalendar.get(calendar.id)?.values() ?? [])]
      .sort((a, b) => a.name.localeCompare(b.name) || compareCodeUnits(a.id, b.id))
      .map(
        (category): CalendarCategoryScope => ({
          kind: "calendarCategory",
          calendarId: calendar.id,
          categoryId: category.id,
          name: `${calendar.name} · ${category.name}`,
        }),
      ),
  );
}

export function subscriptionScopes(
  events: readonly CalendarEvent[],
  calendars: readonly Calendar[],
  categories: readonly Pick<Category, "id" | "name">[],
  window: SubscriptionWindow,
): SubscriptionScopes {
  return {
    site: { scope: { kind: "site" }, calendarId: null, categoryId: null },
    calendars: calendars.map((calendar) => ({
      scope: { kind: "calendar", id: calendar.id, name: calendar.name },
      calendarId: calendar.id,
      categoryId: null,
    })),
    categories: categories.map((category) => ({
      scope: { kind: "category", id: category.id, name: category.name },
      calendarId: null,
      categoryId: category.id,
    })),
    calendarCategories: subscribedPairs(events, calendars, categories, window).map((scope) => ({
      scope,
      calendarId: scope.calendarId,
      categoryId: scope.categoryId,
    })),
  };
}
