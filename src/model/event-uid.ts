import type { CalendarEvent } from "./types.ts";
import { encodeIdSegment } from "./url-scheme.ts";

/**
 * The VEVENT UID (RFC 5545 3.8.4.7; RFC 7986 5.3 recommends a host-qualified
 * form): "<calendar segment>.<event segment>@<site host>".
 *
 * Built from portal ids only, so it survives renames and rebuilds; clients
 * that saw an event once update it in place instead of duplicating it. The
 * segments come from `encodeIdSegment` ([a-z0-9_-] only, never a "."), so the
 * "." separator keeps distinct id pairs distinct and the value needs no
 * escaping. Moving the site to another host changes every UID (documented in
 * docs/feeds.md).
 */
export function eventUid(event: Pick<CalendarEvent, "calendarId" | "id">, siteUrl: string): string {
  const host = new URL(siteUrl).host.toLowerCase();
  return `${encodeIdSegment(event.calendarId)}.${encodeIdSegment(event.id)}@${host}`;
}
