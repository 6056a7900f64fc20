import { DateTime } from "luxon";
import type { SiteConfig } from "../config/site.ts";
import type { CalendarEvent, EventStatus, Place } from "../model/types.ts";
import { paths } from "../model/url-scheme.ts";
import { type Account, PUBLIC } from "./account.ts";

/**
 * An event as an ActivityStreams `Event` following FEP-8a8e ("A common
 * approach to using the Event object type",
 * https://codeberg.org/fediverse/fep/src/branch/main/fep/8a8e/fep-8a8e.md):
 * its name (plain text), start and end (RFC 3339 with the offset of its own
 * zone, and that zone by name in `timezone`, since an offset is not a zone),
 * its status, its place as a `Place` with a schema.org `PostalAddress` and
 * coordinates, its online address as a schema.org `VirtualLocation`, its
 * page, its image and its description (sanitized once by the normalizer,
 * src/model/sanitize.ts). Its id is its own file, /ap/events/{calendar}/{event}.json,
 * linked from its page (`rel="alternate"`), where Mastodon and Fedify look.
 */

const STATUS: Readonly<Record<EventStatus, string>> = {
  scheduled: "EventScheduled",
  cancelled: "EventCancelled",
  postponed: "EventPostponed",
};

type EventSite = Pick<SiteConfig, "url" | "urls">;

/** The object's id: the address of its file. */
export function eventObjectId(
  site: EventSite,
  event: Pick<CalendarEvent, "calendarId" | "id">,
): string {
  return site.urls.absolute(paths.apEvent(event.calendarId, event.id));
}

/** The `Event` object, without a @context (the caller's document has one). */
export function eventObject(
  event: CalendarEvent,
  site: EventSite,
  account: Account,
): Record<string, unknown> {
  const location = [
    ...(event.location && event.attendanceMode !== "online" ? [placeOf(event.location)] : []),
    ...(event.onlineUrl ? [{ type: "VirtualLocation", url: event.onlineUrl }] : []),
  ];
  const open = Date.parse(event.end) <= Date.parse(event.start);
  return {
    id: eventObjectId(site, event),
    type: "Event",
    name: event.title,
    url: site.urls.absolute(paths.event(event.calendarId, event.id)),
    attributedTo: account.actor,
    to: [PUBLIC],
    cc: [account.followers],
    startTime: event.start,
    endTime: open ? openEnd(event) : event.end,
    // FEP-8a8e: an event without an end still needs one for machines; people are not shown it.
    ...(open ? { displayEndTime: false } : {}),
    timezone: event.timeZone,
    eventStatus: STATUS[event.status],
    ...(location.length === 1 ? { location: location[0] } : {}),
    ...(location.length > 1 ? { location } : {}),
    ...(event.descriptionHtml ? { content: event.descriptionHtml, mediaType: "text/html" } : {}),
    ...(event.image
      ? {
          image: {
            type: "Image",
            url: event.image.url,
            ...(event.image.alt ? { name: event.image.alt } : {}),
            ...(event.image.width ? { width: event.image.width } : {}),
            ...(event.image.height ? { height: event.image.height } : {}),
          },
        }
      : {}),
    ...(event.registrationUrl
      ? { joinMode: "external", externalParticipationUrl: event.registrationUrl }
      : {}),
    ...(event.createdAt ? { published: utc(event.createdAt) } : {}),
    ...(event.updatedAt ? { updated: utc(event.updatedAt) } : {}),
  };
}

/**
 * What is left of an event no longer published there (ActivityStreams
 * `Tombstone`): deleted from the portal, or moved to another calendar, where
 * it is an object of its own.
 */
export function tombstone(
  site: EventSite,
  event: Pick<CalendarEvent, "calendarId" | "id">,
  deleted: string | null,
): Record<string, unknown> {
  return {
    id: eventObjectId(site, event),
    type: "Tombstone",
    formerType: "Event",
    ...(deleted ? { deleted } : {}),
  };
}

function placeOf(place: Place): Record<string, unknown> {
  const address = place.address;
  return {
    type: "Place",
    ...(place.name || address ? { name: place.name ?? address?.formatted } : {}),
    ...(address
      ? {
          address: {
            type: "PostalAddress",
            ...(address.street ? { streetAddress: address.street } : {}),
            ...(address.locality ? { addressLocality: address.locality } : {}),
            ...(address.region ? { addressRegion: address.region } : {}),
            ...(address.postalCode ? { postalCode: address.postalCode } : {}),
            ...(address.country ? { addressCountry: address.country } : {}),
          },
        }
      : {}),
    ...(place.geo ? { latitude: place.geo.lat, longitude: place.geo.lon } : {}),
  };
}

/**
 * An end for an event the portal gives none: the end of its local day, and
 * at least an hour after its start (FEP-8a8e, "Events with Open End": the end
 * must be later than the start).
 */
function openEnd(event: Pick<CalendarEvent, "start" | "timeZone">): string {
  const start = DateTime.fromISO(event.start, { zone: event.timeZone });
  const end = DateTime.max(start.plus({ hours: 1 }), start.plus({ days: 1 }).startOf("day"));
  return end.toISO({ suppressMilliseconds: true }) ?? event.start;
}

function utc(iso: string): string {
  return DateTime.fromISO(iso, { zone: "utc" }).toISO({ suppressMilliseconds: true }) ?? iso;
}
