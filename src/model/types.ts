/**
 * The domain model every output is built from.
 *
 * These types are independent of the portal's wire format (see src/api) and of
 * the public JSON we publish (see src/outputs). Only the normalizer knows both
 * the wire records and these types.
 *
 * Times are ISO 8601 strings with an explicit UTC offset, expressed in the
 * event's own time zone (`2026-03-29T10:00:00+02:00`), so that a snapshot is
 * plain data: serializable, comparable and independent of the build machine's
 * time zone. Parse them with Luxon: `DateTime.fromISO(e.start, { zone: e.timeZone })`.
 */

import type { AccessFeatureId } from "./access-vocabulary.ts";

export type EventStatus = "scheduled" | "postponed" | "cancelled";

/** schema.org eventAttendanceMode, in short form. */
export type AttendanceMode = "offline" | "online" | "mixed";

export interface Calendar {
  /** The portal's id, verbatim. Paths are derived from it with `encodeIdSegment`. */
  readonly id: string;
  readonly name: string;
  /** Plain text. */
  readonly description: string;
  /** IANA zone name, e.g. "Europe/Amsterdam". */
  readonly timeZone: string;
  /** "#rrggbb", or null when the portal gives none. */
  readonly color: string | null;
  readonly updatedAt: string | null;
  /**
   * The source it comes from, in a site of several (EVENT_SOURCES_FILE,
   * docs/sources.md); absent for a site of one portal.
   */
  readonly source?: string;
}

export interface Category {
  /** Portal id when it gives one, otherwise a slug of the name. */
  readonly id: string;
  readonly name: string;
}

export interface PostalAddress {
  readonly street: string | null;
  readonly locality: string | null;
  readonly region: string | null;
  readonly postalCode: string | null;
  readonly country: string | null;
  /** One line, comma separated, for display and iCalendar LOCATION. */
  readonly formatted: string;
}

export interface Place {
  /**
   * The portal's id of the place, when it gives one (`location.id`, or the
   * field map's `placeId`): events with the same id are at the same place,
   * whatever their names and addresses say (src/places/place-key.ts).
   */
  readonly id?: string | null;
  readonly name: string | null;
  readonly address: PostalAddress | null;
  readonly geo: { readonly lat: number; readonly lon: number } | null;
}

export interface EventImage {
  /** Absolute http(s) URL. */
  readonly url: string;
  readonly alt: string;
  readonly width: number | null;
  readonly height: number | null;
}

export interface Organizer {
  readonly name: string;
  readonly email: string | null;
  readonly url: string | null;
}

/** Who performs (schema.org performer): a person, or a band, choir or company. */
export interface Performer {
  readonly name: string;
  readonly kind: "person" | "group";
  readonly url: string | null;
}

/**
 * One thing an event offers for access (src/model/access-features.ts): a
 * feature of the project's vocabulary, or the portal's own words for
 * anything else.
 */
export type AccessFeature = { readonly feature: AccessFeatureId } | { readonly text: string };

/** Tickets, as far as the portal says (schema.org Offer). */
export interface Offer {
  /** A decimal number as text ("12.50"; "0" is free), or null. */
  readonly price: string | null;
  /** ISO 4217 code ("EUR"), or null. */
  readonly currency: string | null;
  /** schema.org ItemAvailability name ("InStock", "SoldOut", "PreOrder"...), or null. */
  readonly availability: string | null;
  /** When tickets go on sale (ISO 8601, UTC), or null. */
  readonly validFrom: string | null;
}

export interface CalendarEvent {
  readonly id: string;
  readonly calendarId: string;
  /**
   * The source it comes from, in a site of several (EVENT_SOURCES_FILE,
   * docs/sources.md); absent for a site of one portal, whose outputs stay
   * as they were.
   */
  readonly source?: string;
  readonly title: string;
  /** Short plain-text teaser; may be empty. */
  readonly summary: string;
  /** Sanitized HTML (allowlist; links are http, https or mailto only). */
  readonly descriptionHtml: string;
  /** Plain-text rendering of the description. */
  readonly descriptionText: string;
  /** Start instant, with the offset of `timeZone`. All-day: local midnight of the first day. */
  readonly start: string;
  /**
   * Exclusive end instant. All-day: local midnight after the last day (RFC 5545
   * DTEND semantics). A timed event without an end in the portal has end === start.
   */
  readonly end: string;
  readonly allDay: boolean;
  /** IANA zone: the event's own, else its calendar's, else the site default. */
  readonly timeZone: string;
  readonly status: EventStatus;
  readonly attendanceMode: AttendanceMode;
  readonly location: Place | null;
  readonly onlineUrl: string | null;
  readonly image: EventImage | null;
  readonly categories: readonly Category[];
  readonly organizer: Organizer | null;
  readonly registrationUrl: string | null;
  /**
   * Present only when the portal names any (field map `performer`), so that
   * events of portals without them stay exactly as they were.
   */
  readonly performers?: readonly Performer[];
  /** Present only when the portal gives a price or ticket details (field map `offers.*`). */
  readonly offer?: Offer;
  /**
   * What the event offers for access (field map `accessibility`): present
   * only when the portal says anything, so other events stay as they were.
   */
  readonly access?: readonly AccessFeature[];
  /**
   * The portal's id of the series the event is a date of, when it gives one
   * (the field map's `seriesId`): src/series/series-key.ts groups the dates.
   */
  readonly seriesId?: string | null;
  /**
   * The same event in another source of the site, as "<source id>:<event
   * id>" (the field map's `sameAs`, docs/sources.md): merged into one.
   */
  readonly sameAs?: string;
  /**
   * The copies of this event that other sources publish, merged into it
   * (src/sources/same-events.ts): it is listed in their calendars too, and
   * names their organizers.
   */
  readonly merged?: readonly MergedCopy[];
  readonly createdAt: string | null;
  /**
   * When the portal last changed the event. For a portal that gives no
   * modification times, when this site first published the event's current
   * content (src/changes/detect-changes.ts), so dates derived from it stay put
   * from one build to the next.
   */
  readonly updatedAt: string | null;
  /**
   * Revision counter that rises whenever the portal changes the event
   * (iCalendar SEQUENCE). From the portal's revision field when it has one,
   * otherwise derived from `updatedAt`.
   */
  readonly sequence: number;
  /**
   * What earlier publications of the site said about this event
   * (src/changes): set only on events with something to tell.
   */
  readonly history?: EventHistory;
  /**
   * Its texts in other languages, by language tag, as the field map's
   * translation entries (`title.fr`) read them: present only when the portal
   * sent any, so that other events stay exactly as they were.
   */
  readonly translations?: Readonly<Record<string, EventTexts>>;
  /**
   * Set on the copy a language's site shows (src/site/language-data.ts):
   * which of its texts are that language's translation rather than the
   * portal's own, and its own title, which keeps the series it is a date of
   * the same in every language.
   */
  readonly translated?: TranslatedTexts;
}

/** An event's texts in one other language; each absent where the portal gives none. */
export interface EventTexts {
  readonly title?: string;
  readonly summary?: string;
  /** Sanitized HTML, as `descriptionHtml`. */
  readonly descriptionHtml?: string;
  /** Its plain text, as `descriptionText`. */
  readonly descriptionText?: string;
}

export interface TranslatedTexts {
  /** The fields shown in the page's language. */
  readonly fields: readonly ("title" | "summary" | "description")[];
  /** The title as the portal wrote it. */
  readonly originalTitle: string;
}

/** Another source's copy of an event, merged into the copy the site publishes. */
export interface MergedCopy {
  readonly source: string;
  readonly calendarId: string;
  readonly id: string;
  /** Its organizer, else its organization. */
  readonly organizer: Organizer;
}

/** Why a published event left the portal's calendar while the site still carries it. */
export type RemovedReason =
  | { readonly kind: "deleted" }
  /** Moved to another calendar: this copy marks its place in the calendar it left. */
  | { readonly kind: "moved"; readonly calendarId: string; readonly calendarName: string };

export interface EventHistory {
  /**
   * The iCalendar UID the event was first published under, when it differs
   * from the one its ids give now (it moved to another calendar): calendar
   * apps key on the UID, so a move must not look like a new event.
   */
  readonly uid: string | null;
  /** Earlier start times, oldest first, when it got new dates (schema.org previousStartDate). */
  readonly previousStarts: readonly string[];
  /** When its latest new date was first published (ISO 8601, UTC), or null. */
  readonly rescheduledAt: string | null;
  /** It got a new date within CHANGE_NOTICE_DAYS: pages, lists and the widget say "New date". */
  readonly newDate: boolean;
  /**
   * Set on an event the portal no longer has in this calendar: the site keeps
   * publishing it as cancelled (subscriptions, its page) for a while
   * (docs/feeds.md, "Changes").
   */
  readonly removed: RemovedReason | null;
}

/**
 * The events of a calendar's, category's, place's or series' pages, split at
 * the build's "now": those not yet ended in the site's order, and those ended
 * within the site's past window for its archive.
 */
export interface UpcomingAndPast {
  readonly upcoming: readonly CalendarEvent[];
  /** Most recent first. */
  readonly past: readonly CalendarEvent[];
}

/** One immutable picture of the organization's portal, taken once per build. */
export interface PortalSnapshot {
  /** API base URL without credentials or query string. */
  readonly source: string;
  /** When the data was fetched (ISO 8601, UTC). */
  readonly fetchedAt: string;
  /** Sorted by name. */
  readonly calendars: readonly Calendar[];
  /** Sorted by start, then calendar id, then event id. Details merged in. */
  readonly events: readonly CalendarEvent[];
  /** Human-readable warnings about skipped or repaired records. */
  readonly warnings: readonly string[];
  /**
   * A site of several sources (EVENT_SOURCES_FILE, docs/sources.md): the
   * organizations, in the file's order; absent for a site of one portal.
   */
  readonly sources?: readonly SourceOrganization[];
}

/** One source of a site of several: the organization its calendars belong to. */
export interface SourceOrganization {
  /** The slug of its calendars' namespace (`<id>~<calendar>`) and of its page. */
  readonly id: string;
  readonly name: string;
}
