/**
 * The public JSON mirror's wire types (docs/public-json.md). They are a
 * published contract, separate from the domain model: a field may be added
 * within `version: 1`, never renamed or removed. The portal's `source` URL,
 * warnings and anything token-related never appear here.
 */

import type { AccessFeatureId } from "../model/access-vocabulary.ts";

export const PUBLIC_JSON_VERSION = 1;

export interface PublicCalendarCounts {
  /** Events in this calendar's events.json (the published window). */
  readonly events: number;
  /** Of those, events that had not ended at build time. */
  readonly upcoming: number;
}

export interface PublicCalendar {
  readonly id: string;
  /** The URL path segment derived from `id` (stable across renames). */
  readonly segment: string;
  readonly name: string;
  readonly description: string;
  readonly timeZone: string;
  /** "#rrggbb" or null. */
  readonly color: string | null;
  /** Absolute URL of the calendar's page. */
  readonly url: string;
  /** Absolute URL of this calendar's events.json. */
  readonly eventsUrl: string;
  /** Absolute URL of the iCalendar subscription. */
  readonly icsUrl: string;
  /** Absolute URL of the embeddable widget page. */
  readonly embedUrl: string;
  readonly counts: PublicCalendarCounts;
}

export interface PublicAddress {
  readonly street: string | null;
  readonly locality: string | null;
  readonly region: string | null;
  readonly postalCode: string | null;
  readonly country: string | null;
  readonly formatted: string;
}

export interface PublicLocation {
  readonly name: string | null;
  readonly address: PublicAddress | null;
  readonly geo: { readonly lat: number; readonly lon: number } | null;
}

export interface PublicImage {
  readonly url: string;
  readonly alt: string;
  readonly width: number | null;
  readonly height: number | null;
}

export interface PublicCategory {
  readonly id: string;
  readonly name: string;
}

/** `{ "feature": "hearing-loop" }`, or `{ "text": "…" }` for anything outside the vocabulary. */
export type PublicAccessFeature = { readonly feature: AccessFeatureId } | { readonly text: string };

export interface PublicEvent {
  readonly id: string;
  readonly calendarId: string;
  /**
   * A site of several sources (docs/sources.md): the ids of the organizations
   * that publish it, its own first; absent for a site of one portal.
   */
  readonly sources?: readonly string[];
  readonly title: string;
  /** ISO 8601 with the offset of `timeZone`. */
  readonly start: string;
  /** Exclusive end (all-day: midnight after the last day). */
  readonly end: string;
  readonly allDay: boolean;
  readonly timeZone: string;
  readonly status: "scheduled" | "postponed" | "cancelled";
  readonly attendanceMode: "offline" | "online" | "mixed";
  readonly onlineUrl: string | null;
  readonly location: PublicLocation | null;
  readonly image: PublicImage | null;
  readonly categories: readonly PublicCategory[];
  /**
   * What the event offers for access: a feature of the vocabulary
   * (docs/public-json.md) or the portal's own words; empty when it says nothing.
   */
  readonly access: readonly PublicAccessFeature[];
  /** Plain text; may be empty. */
  readonly summary: string;
  /** Absolute URL of the event's page. */
  readonly url: string;
  /** The iCalendar SEQUENCE of its VEVENT: rises with every change subscribers must take. */
  readonly sequence: number;
  /** The iCalendar UID: stable, and kept when the event moves to another calendar. */
  readonly uid: string;
  /** Earlier start times, oldest first, when it got new dates. */
  readonly previousStarts: readonly string[];
  /** When its latest new date was first published (ISO 8601, UTC), or null. */
  readonly rescheduledAt: string | null;
  /** It got a new date within the site's CHANGE_NOTICE_DAYS: show "New date". */
  readonly newDate: boolean;
  /**
   * A site in several languages (docs/translating.md): the texts given in
   * this file's language, translated from the portal's; absent when none is.
   */
  readonly translated?: readonly ("title" | "summary")[];
}

/** `/api/calendars.json` */
export interface PublicCalendarsDocument {
  readonly version: typeof PUBLIC_JSON_VERSION;
  readonly calendars: readonly PublicCalendar[];
}

/** `/api/calendars/{segment}/events.json` */
export interface PublicEventsDocument {
  readonly version: typeof PUBLIC_JSON_VERSION;
  /**
   * Where the portal writes in another language than this file's site, or
   * the site is published in several (docs/translating.md): this file's
   * language, and the portal's, which its texts are in but those an event
   * lists as `translated`. Absent otherwise: every text is in the site's language.
   */
  readonly language?: string;
  readonly contentLanguage?: string;
  readonly calendar: PublicCalendar;
  /** Events ending after (build time - pastDays), sorted by start. */
  readonly events: readonly PublicEvent[];
}

/** `/api/manifest.json`; the deploy shrink guard compares it between builds. */
export interface PublicManifest {
  readonly version: typeof PUBLIC_JSON_VERSION;
  readonly generatedAt: string;
  readonly snapshotFetchedAt: string;
  readonly siteUrl: string;
  readonly calendars: readonly {
    readonly id: string;
    readonly name: string;
    readonly events: number;
    readonly url: string;
  }[];
  /**
   * A site of several sources (docs/sources.md): each organization's events,
   * for the shrink guard; absent for a site of one portal.
   */
  readonly sources?: readonly {
    readonly id: string;
    readonly name: string;
    readonly events: number;
  }[];
  /**
   * A site in several languages (SITE_LANGUAGES, docs/translating.md): each
   * one's tag and address, the root's first; absent for a site in one.
   */
  readonly languages?: readonly { readonly lang: string; readonly url: string }[];
  readonly totals: { readonly calendars: number; readonly events: number };
  /** "sha256-<hex>" of the calendars.json and events.json bodies; independent of build time. */
  readonly contentHash: string;
  /**
   * The addresses of the feeds whose bytes this build changed, for the WebSub
   * ping; added once the feeds are written (src/rebuild/write-build-state.ts).
   */
  readonly feedsChanged?: readonly string[];
}

/** One change announcement, as the feeds carry it for a while. */
export interface PublicAnnouncement {
  /** The feed item's id. */
  readonly id: string;
  readonly kind: "moved" | "cancelled" | "postponed" | "reinstated";
  /** When the change was first published (ISO 8601, UTC). */
  readonly at: string;
  readonly calendarId: string;
  readonly eventId: string;
  readonly title: string;
  readonly url: string;
  readonly start: string;
  readonly end: string;
  readonly allDay: boolean;
  readonly timeZone: string;
  /** The times before a new date; null for other changes. */
  readonly previousStart: string | null;
  readonly previousEnd: string | null;
  readonly categories: readonly PublicCategory[];
}

/** An event gone from the portal, still published as cancelled until `until`. */
export interface PublicRemovedEvent {
  readonly calendarId: string;
  readonly id: string;
  readonly title: string;
  readonly start: string;
  readonly end: string;
  readonly allDay: boolean;
  readonly timeZone: string;
  readonly status: "cancelled";
  readonly sequence: number;
  readonly url: string;
  readonly uid: string;
  readonly categories: readonly PublicCategory[];
  readonly previousStarts: readonly string[];
  readonly rescheduledAt: string | null;
  readonly removedAt: string;
  readonly until: string;
  /** Deleted, or moved to another calendar (this copy marks the calendar it left). */
  readonly reason:
    | { readonly kind: "deleted" }
    | { readonly kind: "moved"; readonly calendarId: string; readonly calendarName: string };
}

/** `/api/changes.json` */
export interface PublicChangesDocument {
  readonly version: typeof PUBLIC_JSON_VERSION;
  /** Newest first. */
  readonly announcements: readonly PublicAnnouncement[];
  /** By start. */
  readonly removed: readonly PublicRemovedEvent[];
}
