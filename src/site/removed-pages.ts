import { endedBefore } from "../model/event-times.ts";
import type { Calendar, CalendarEvent } from "../model/types.ts";
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
        path: paths.event(calendar.id, event.id),
        isPast: endedBefore(event, nowMs),
      },
    ];
  });
  return { ...views, eventPages: [...views.eventPages, ...pages] };
}
