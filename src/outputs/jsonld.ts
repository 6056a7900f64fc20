import type { AccessFeature, CalendarEvent, Offer, Performer, Place } from "../model/types.ts";

/**
 * schema.org `Event` for an event page (https://schema.org/Event and Google's
 * event structured data guidelines): offsets on every date, eventStatus and
 * eventAttendanceMode as schema.org URLs, a Place or VirtualLocation (or both
 * for hybrid events).
 */

/** How the page names an access feature: in the site's language, or in the portal's words. */
export type AccessName = (feature: AccessFeature) => string;

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

/** The `@id` of the event whose page is at `url`: what other nodes name it by. */
export function eventJsonLdId(url: string): string {
  return `${url}#event`;
}

/**
 * `images`: more pictures of the event (absolute URLs), after its own image:
 * the share cards in the shapes Google asks for (src/cards). `accessName`
 * names the event's access features (src/model/access-features.ts) as the
 * page does.
 */
export function eventJsonLd(
  event: CalendarEvent,
  url: string,
  images: readonly string[] = [],
  accessName?: AccessName,
): Record<string, unknown> {
  const place =
    event.location && withAmenities(placeNode(event.location), event.access, accessName);
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
    "@id": eventJsonLdId(url),
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
    organizer: organizersOf(event),
    offers: offerOf(event.registrationUrl, event.offer),
    performer: event.performers?.length ? event.performers.map(performerOf) : undefined,
  };
}

/** Tickets: the registration link and what the portal says of price, currency, sale and stock. */
function offerOf(
  url: string | null,
  offer: Offer | undefined,
): Record<string, unknown> | undefined {
  if (!url && !offer) return undefined;
  return {
    "@type": "Offer",
    url: url ?? undefined,
    price: offer?.price ?? undefined,
    priceCurrency: offer?.currency ?? undefined,
    availability: offer?.availability ? `https://schema.org/${offer.availability}` : undefined,
    validFrom: offer?.validFrom ?? undefined,
  };
}

function performerOf(performer: Performer): Record<string, unknown> {
  return {
    "@type": performer.kind === "group" ? "PerformingGroup" : "Person",
    name: performer.name,
    url: performer.url ?? undefined,
  };
}

/**
 * Access features as the place's amenities for this event. schema.org gives
 * Event no property for them (accessibilityFeature, accessibilityHazard and
 * accessibilitySummary are CreativeWork's), and Place.amenityFeature with
 * LocationFeatureSpecification (a PropertyValue: a name and `true`) is what
 * schema.org's validator and Google's accept (docs/site.md, "Access
 * information"). An online-only event has no Place to carry them: its page
 * and the public JSON still list them.
 */
function withAmenities(
  place: Record<string, unknown>,
  access: CalendarEvent["access"],
  accessName: AccessName | undefined,
): Record<string, unknown> {
  if (!access?.length || !accessName) return place;
  return {
    ...place,
    amenityFeature: access.map((feature) => ({
      "@type": "LocationFeatureSpecification",
      name: accessName(feature),
      value: true,
    })),
  };
}

/** schema.org `Place`: name, PostalAddress and GeoCoordinates, as far as the portal gives them. */
function placeNode(place: Place): Record<string, unknown> {
  return {
    "@type": "Place",
    name: place.name ?? place.address?.formatted ?? undefined,
    address: place.address && {
      "@type": "PostalAddress",
      streetAddress: place.address.street ?? undefined,
      addressLocality: place.address.locality ?? undefined,
      addressRegion: place.address.region ?? undefined,
      postalCode: place.address.postalCode ?? undefined,
      addressCountry: place.address.country ?? undefined,
    },
    geo: place.geo && {
      "@type": "GeoCoordinates",
      latitude: place.geo.lat,
      longitude: place.geo.lon,
    },
  };
}

/**
 * schema.org `Place` for a place's page (https://schema.org/Place): the
 * place, its page as `url`, and its upcoming events as `event`, each naming
 * the `Event` of its own page (`@id`).
 */
export function placeJsonLd(
  place: Place,
  url: string,
  events: readonly { readonly event: CalendarEvent; readonly url: string }[],
): Record<string, unknown> {
  return {
    "@context": "https://schema.org",
    ...placeNode(place),
    "@id": `${url}#place`,
    url,
    event: events.length
      ? events.map(({ event, url: eventUrl }) => ({
          "@type": "Event",
          "@id": eventJsonLdId(eventUrl),
          name: event.title,
          url: eventUrl,
          startDate: event.allDay ? event.start.slice(0, 10) : event.start,
          eventStatus: STATUS[event.status],
        }))
      : undefined,
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

/**
 * The event's organizer, and those of the copies other sources publish of it
 * (docs/sources.md, "Each event once"): schema.org's organizer takes several.
 */
function organizersOf(event: CalendarEvent) {
  const all = [
    ...(event.organizer ? [event.organizer] : []),
    ...(event.merged ?? []).map((copy) => copy.organizer),
  ].map((organizer) => ({
    "@type": "Organization",
    name: organizer.name,
    url: organizer.url ?? undefined,
    email: organizer.email ?? undefined,
  }));
  return all.length > 1 ? all : all[0];
}
