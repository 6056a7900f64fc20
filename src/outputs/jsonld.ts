import type { CalendarEvent } from "../model/types.ts";

/**
 * schema.org `Event` for an event page (https://schema.org/Event and Google's
 * event structured data guidelines): offsets on every date, eventStatus and
 * eventAttendanceMode as schema.org URLs, a Place or VirtualLocation (or both
 * for hybrid events).
 */

const STATUS = {
  scheduled: "https://schema.org/EventScheduled",
  postponed: "https://schema.org/EventPostponed",
  cancelled: "https://schema.org/EventCancelled",
} as const;

const RESCHEDULED = "https://schema.org/EventRescheduled";

const ATTENDANCE = {
  offline: "https://schema.org/OfflineEventAttendanceMode",
  online: "https://schema.org/OnlineEventAttendanceMode",
  mixed: "https://schema.org/MixedEventAttendanceMode",
} as const;

/**
 * `images`: more pictures of the event (absolute URLs), after its own image:
 * the share cards in the shapes Google asks for (src/cards).
 */
export function eventJsonLd(
  event: CalendarEvent,
  url: string,
  images: readonly string[] = [],
): Record<string, unknown> {
  const place = event.location && {
    "@type": "Place",
    name: event.location.name ?? event.location.address?.formatted ?? undefined,
    address: event.location.address && {
      "@type": "PostalAddress",
      streetAddress: event.location.address.street ?? undefined,
      addressLocality: event.location.address.locality ?? undefined,
      addressRegion: event.location.address.region ?? undefined,
      postalCode: event.location.address.postalCode ?? undefined,
      addressCountry: event.location.address.country ?? undefined,
    },
    geo: event.location.geo && {
      "@type": "GeoCoordinates",
      latitude: event.location.geo.lat,
      longitude: event.location.geo.lon,
    },
  };
  const virtual = event.onlineUrl && { "@type": "VirtualLocation", url: event.onlineUrl };
  const locations = [place, virtual].filter(Boolean);
  const allDay = (iso: string) => iso.slice(0, 10);
  const endIso = event.allDay ? lastDayOf(event.end) : event.end;
  // Google: a new date keeps startDate/endDate current, says EventRescheduled
  // and gives the old start as previousStartDate (repeated after several
  // moves); previousStartDate goes with EventRescheduled only. Cancelled and
  // postponed events keep their own status and their start.
  const previous = event.history?.previousStarts ?? [];
  const rescheduled = event.status === "scheduled" && previous.length > 0;
  const previousStartDate = rescheduled
    ? previous.map((iso) => (event.allDay ? allDay(iso) : iso))
    : [];
  return {
    "@context": "https://schema.org",
    "@type": "Event",
    "@id": `${url}#event`,
    name: event.title,
    url,
    startDate: event.allDay ? allDay(event.start) : event.start,
    endDate: event.allDay ? endIso : event.end,
    eventStatus: rescheduled ? RESCHEDULED : STATUS[event.status],
    previousStartDate:
      previousStartDate.length === 0
        ? undefined
        : previousStartDate.length === 1
          ? previousStartDate[0]
          : previousStartDate,
    eventAttendanceMode: ATTENDANCE[event.attendanceMode],
    location: locations.length === 1 ? locations[0] : locations.length ? locations : undefined,
    image: imageList(event, images),
    description: event.summary || event.descriptionText || undefined,
    organizer: event.organizer
      ? {
          "@type": "Organization",
          name: event.organizer.name,
          url: event.organizer.url ?? undefined,
          email: event.organizer.email ?? undefined,
        }
      : undefined,
    offers: event.registrationUrl ? { "@type": "Offer", url: event.registrationUrl } : undefined,
  };
}

function imageList(event: CalendarEvent, images: readonly string[]): string[] | undefined {
  const all = [...new Set([...(event.image ? [event.image.url] : []), ...images])];
  return all.length > 0 ? all : undefined;
}

/** The inclusive last date of an all-day event whose end is exclusive. */
function lastDayOf(exclusiveEnd: string): string {
  const date = new Date(`${exclusiveEnd.slice(0, 10)}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() - 1);
  return date.toISOString().slice(0, 10);
}

/**
 * JSON for a `<script type="application/ld+json">` block: `<` is escaped so no
 * text from the portal can close the element (HTML spec, "script data" state).
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}
