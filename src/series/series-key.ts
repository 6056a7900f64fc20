import type { CalendarEvent } from "../model/types.ts";
import { encodeIdSegment } from "../model/url-scheme.ts";
import { normalizeKeyText, slugWithHash } from "../places/key-text.ts";

/**
 * Which events are dates of one series (docs/site.md, "Series"). A series
 * lives in one calendar:
 *
 * - events the portal gives a series id (the field map's `seriesId`) belong
 *   to the series of that id in their calendar; its page is
 *   `/calendars/<calendar>/series/<id>/`;
 * - any other event belongs with the events of the same calendar, the same
 *   title (normalized: case, spaces, punctuation and accents do not count)
 *   and the same place (place-key.ts; no place counts as one place too, as
 *   for an online series); its page is
 *   `/calendars/<calendar>/series/<slug of the title>-<10 hex>/`.
 *
 * Either way it takes two events or more to make a series.
 */

/**
 * The title that names an event's series: the portal's own, also where a
 * language's site shows a translation (src/site/language-data.ts), so that a
 * series has one address in every language.
 */
export function seriesTitle(event: CalendarEvent): string {
  return event.translated?.originalTitle ?? event.title;
}

/**
 * What tells one series from another, given the event's place identity and
 * its title normalized (`normalizeKeyText`, which the caller may keep per title).
 */
export function seriesIdentity(
  event: CalendarEvent,
  placeIdentity: string | null,
  normalizedTitle: string = normalizeKeyText(seriesTitle(event)),
): string {
  if (event.seriesId) return `id\u0000${event.calendarId}\u0000${event.seriesId}`;
  return `rule\u0000${event.calendarId}\u0000${normalizedTitle}\u0000${placeIdentity ?? ""}`;
}

/** The segment a series asks for in its calendar, before collisions are settled. */
export function proposedSeriesSegment(identity: string, event: CalendarEvent): string {
  if (event.seriesId) return encodeIdSegment(event.seriesId);
  return slugWithHash(normalizeKeyText(seriesTitle(event)), identity);
}
