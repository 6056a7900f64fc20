import { endedBefore } from "../model/event-times.ts";
import type { Calendar, CalendarEvent, Category } from "../model/types.ts";
import { paths } from "../model/url-scheme.ts";
import type { EventPage, SiteViews } from "./views.ts";

/**
 * Events that left the portal keep their page for as long as the site
 * publishes them as cancelled (src/changes): a link in a calendar app, a feed
 * reader or a search result then says what happened instead of "not found".
 * They are in no list: only their own page and the subscriptions carry them.
 */
export function withRemovedPages(
  views: SiteViews,
  removed: readonly CalendarEvent[],
  calendars: readonly Calendar[],
  nowMs: number,
): SiteViews {
  if (removed.length === 0) return views;
  const byId = new Map(calendars.map((calendar) => [calendar.id, calendar]));
  const pages: EventPage[] = removed.flatMap((event) => {
    const calendar = byId.get(event.calendarId);
    if (!calendar) return [];
    return [
      {
        event,
        calendar,
        href: paths.event(calendar.id, event.id),
        isPast: endedBefore(event, nowMs),
      },
    ];
  });
  return { ...views, eventPages: [...views.eventPages, ...pages] };
}

/**
 * The categories with feed and calendar files: those of the site's events,
 * plus those of deleted events still published as cancelled, so a category
 * whose last event was deleted keeps its files until the cancellation has
 * reached its subscribers (src/eleventy/feeds-plugin.ts; the pages do not
 * offer such a category to new subscribers).
 */
export function withRemovedCategories(
  categories: readonly Category[],
  removed: readonly CalendarEvent[],
): Category[] {
  const known = new Set(categories.map((category) => category.id));
  const extra: Category[] = [];
  for (const event of removed) {
    if (event.history?.removed?.kind !== "deleted") continue;
    for (const category of event.categories) {
      if (known.has(category.id)) continue;
      known.add(category.id);
      extra.push(category);
    }
  }
  return [...categories, ...extra];
}
