import type { Calendar, CalendarEvent } from "../model/types.ts";

/**
 * When the portal's data last changed, for "Data updated" lines, sitemap
 * `lastmod` and the date of a feed without items: the newest modification
 * among what a page shows, never the build's clock, so that a rebuild from an
 * unchanged portal writes the same bytes (docs/deploy.md, "Reproducible output").
 */

/** An event's last modification in the portal (or as first seen, src/changes), or null. */
export function modifiedAt(event: CalendarEvent): string | null {
  return event.updatedAt ?? event.createdAt;
}

/** The newest of ISO 8601 instants, ignoring nulls; null when there is none. */
export function newest(values: Iterable<string | null | undefined>): string | null {
  let best: string | null = null;
  let bestMs = Number.NEGATIVE_INFINITY;
  for (const value of values) {
    if (!value) continue;
    const ms = Date.parse(value);
    if (ms > bestMs) {
      best = value;
      bestMs = ms;
    }
  }
  return best;
}

/** The newest modification of a snapshot: its calendars, events and announced changes. */
export function snapshotUpdatedAt(data: {
  readonly calendars: readonly Calendar[];
  readonly events: readonly CalendarEvent[];
  readonly removed?: readonly CalendarEvent[];
  readonly announcements?: readonly { readonly at: string }[];
}): string | null {
  return newest([
    ...data.calendars.map((calendar) => calendar.updatedAt),
    ...data.events.map(modifiedAt),
    ...(data.removed ?? []).map(modifiedAt),
    ...(data.announcements ?? []).map((item) => item.at),
  ]);
}

/**
 * The newest modification among the events a page view shows
 * (src/site/views.ts): its event, its events (a series' page), or its days'
 * or weeks' events. Null when it shows none with a known modification: the
 * page then says its calendar's, else the site's (the `dataUpdated` filter,
 * src/eleventy/site-plugin.ts). Not the calendar's on pages with events:
 * portals move a calendar's modification time with every edit of one of its
 * events, and every page of the calendar would then change with each edit.
 */
export function viewEventsUpdatedAt(view: unknown): string | null {
  if (typeof view !== "object" || view === null) return null;
  const found: (string | null)[] = [];
  const shown = view as {
    event?: CalendarEvent;
    days?: readonly { events: readonly CalendarEvent[] }[];
    weeks?: readonly (readonly { events: readonly CalendarEvent[] }[])[];
    events?: readonly CalendarEvent[];
  };
  if (shown.event) found.push(modifiedAt(shown.event));
  for (const event of shown.events ?? []) found.push(modifiedAt(event));
  for (const day of shown.days ?? []) for (const event of day.events) found.push(modifiedAt(event));
  for (const week of shown.weeks ?? []) {
    for (const day of week) for (const event of day.events) found.push(modifiedAt(event));
  }
  return newest(found);
}
