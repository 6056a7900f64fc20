import { createHash, type Hash } from "node:crypto";
import type { Announcement, RemovedEventRecord } from "../changes/published-state.ts";
import type { SiteConfig } from "../config/site.ts";
import { differsFrom } from "../config/site-languages.ts";
import { count } from "../metrics.ts";
import { calendarIdsOf } from "../model/event-calendars.ts";
import { eventDigest } from "../model/event-digest.ts";
import { sourceIdsOf } from "../model/event-sources.ts";
import { endedBefore } from "../model/event-times.ts";
import { eventUid } from "../model/event-uid.ts";
import type { Calendar, CalendarEvent, PortalSnapshot } from "../model/types.ts";
import { encodeIdSegment, FEED_FILE_NAMES, paths } from "../model/url-scheme.ts";
import { siteWindowUntil } from "../site/views.ts";
import {
  PUBLIC_JSON_VERSION,
  type PublicCalendar,
  type PublicCalendarsDocument,
  type PublicChangesDocument,
  type PublicEvent,
  type PublicEventsDocument,
  type PublicManifest,
} from "./public-json-types.ts";

/**
 * Writers for the token-free public JSON mirror (docs/public-json.md).
 * Pure: the same snapshot and settings give the same bytes. Objects are built
 * with a fixed key order, and only the manifest carries a build time, so
 * calendars.json and events.json stay byte-identical (and CDN-cacheable)
 * until the published content changes.
 */

export type PublicJsonSite = Pick<SiteConfig, "url" | "now" | "pastDays"> &
  /** Where the texts' languages are told (src/config/site-languages.ts); absent: the site's one. */
  Partial<Pick<SiteConfig, "lang" | "languages" | "contentLang">>;

/** True while an event has not ended (src/model/event-times.ts, endedBefore). */
export function isUpcoming(event: CalendarEvent, nowMs: number): boolean {
  return !endedBefore(event, nowMs);
}

/**
 * One build's public JSON: its events grouped by calendar once (every
 * calendar's file, the calendar list and the manifest ask), its documents on
 * demand.
 */
export class PublicJson {
  readonly #snapshot: PortalSnapshot;
  readonly #site: PublicJsonSite;
  readonly #byCalendar: Map<string, CalendarEvent[]>;
  /**
   * The manifest's hash of the bodies, fed by eventsJson while it is asked
   * for the calendars in order, each once (as their files are written,
   * src/outputs/public-json-files.ts), so the manifest written after them
   * does not make every events.json again. Asked otherwise, the manifest
   * makes them itself (`#bodiesInOrder` false).
   */
  #bodies: { readonly hash: Hash; fed: number } | null = null;
  #bodiesInOrder = true;
  /** Each calendar file's inputs, asked by its group and again to read its published copy. */
  readonly #inputs = new Map<string, string>();

  constructor(snapshot: PortalSnapshot, site: PublicJsonSite) {
    this.#snapshot = snapshot;
    this.#site = site;
    this.#byCalendar = publishedByCalendar(snapshot, site);
  }

  /** The published window: every event that ends after `now - pastDays`, in snapshot order. */
  events(calendarId: string): CalendarEvent[] {
    return this.#byCalendar.get(calendarId) ?? [];
  }

  calendarsDocument(): PublicCalendarsDocument {
    return {
      version: PUBLIC_JSON_VERSION,
      calendars: this.#snapshot.calendars.map((c) => this.#calendar(c)),
    };
  }

  eventsDocument(calendarId: string): PublicEventsDocument {
    count("json.eventsDocuments");
    const site = this.#site;
    return {
      version: PUBLIC_JSON_VERSION,
      ...this.#languages(),
      calendar: this.#calendar(this.#calendarOf(calendarId)),
      events: this.events(calendarId).map((e) => toPublicEvent(e, site.url)),
    };
  }

  /**
   * Everything a calendar's events.json says besides the code, as text
   * (FileGroup.inputs): the languages it names, its calendar as written
   * (the counts of upcoming events are where the clock reaches it), the
   * site's address and each event of its window whole. A file kept as
   * published is not made again.
   */
  eventsInputs(calendarId: string): string {
    let inputs = this.#inputs.get(calendarId);
    if (inputs === undefined) {
      inputs = JSON.stringify([
        this.#languages(),
        this.#calendar(this.#calendarOf(calendarId)),
        this.#site.url,
        this.events(calendarId).map(eventDigest),
      ]);
      this.#inputs.set(calendarId, inputs);
    }
    return inputs;
  }

  /**
   * Called once a calendar's events.json is written or kept, in the
   * calendars' order: a file kept as published gives the manifest's hash
   * its body as `published` reads it (its published copy, src/render/file-writer.ts)
   * rather than made again; made when there is no such copy.
   */
  eventsWritten(calendarId: string, published: () => Uint8Array | undefined): void {
    const bodies = this.#bodies;
    // Made by eventsJson (which fed it), or out of order: the manifest makes what it lacks.
    if (!this.#bodiesInOrder || this.#snapshot.calendars[bodies?.fed ?? 0]?.id !== calendarId) {
      return;
    }
    const copy = published();
    count(copy ? "json.eventsReadBack" : "json.eventsMadeForHash");
    this.#feed(calendarId, copy ?? this.#eventsBody(calendarId));
  }

  #calendarOf(calendarId: string): Calendar {
    const calendar = this.#snapshot.calendars.find((c) => c.id === calendarId);
    if (!calendar) throw new RangeError(`No calendar with id ${JSON.stringify(calendarId)}.`);
    return calendar;
  }

  #languages(): Pick<PublicEventsDocument, "language" | "contentLanguage"> {
    const site = this.#site;
    const { lang, contentLang } = site;
    return lang &&
      contentLang &&
      ((site.languages?.length ?? 1) > 1 || differsFrom(contentLang, lang))
      ? { language: lang, contentLanguage: contentLang }
      : {};
  }

  manifest(): PublicManifest {
    const site = this.#site;
    const snapshot = this.#snapshot;
    const calendars = snapshot.calendars.map((c) => ({
      id: c.id,
      name: c.name,
      events: this.events(c.id).length,
      url: site.url + paths.calendar(c.id),
    }));
    // The hash covers exactly the published bodies, so it changes when and only
    // when what consumers can read changes (not with the build time).
    const bodies = this.#bodies;
    let hash: Hash;
    if (this.#bodiesInOrder && bodies && bodies.fed === snapshot.calendars.length) {
      hash = bodies.hash.copy();
    } else {
      hash = createHash("sha256").update(this.calendarsJson());
      for (const c of snapshot.calendars) hash.update("\n").update(this.#eventsBody(c.id));
    }
    return {
      version: PUBLIC_JSON_VERSION,
      generatedAt: site.now.toUTC().toISO() ?? "",
      snapshotFetchedAt: snapshot.fetchedAt,
      siteUrl: site.url,
      calendars,
      ...(snapshot.sources && { sources: this.#sourceCounts(snapshot.sources, calendars) }),
      ...((site.languages?.length ?? 1) > 1 && {
        languages: site.languages?.map(({ lang, url }) => ({ lang, url })),
      }),
      totals: {
        calendars: calendars.length,
        events: calendars.reduce((sum, c) => sum + c.events, 0),
      },
      contentHash: `sha256-${hash.digest("hex")}`,
    };
  }

  /**
   * Each organization's events: the sum of its calendars', an event listed in
   * two of them counted in each, as the shrink guard compares them.
   */
  #sourceCounts(
    sources: NonNullable<PortalSnapshot["sources"]>,
    calendars: readonly { readonly id: string; readonly events: number }[],
  ): NonNullable<PublicManifest["sources"]> {
    const sourceOf = new Map(this.#snapshot.calendars.map((c) => [c.id, c.source]));
    return sources.map((source) => ({
      id: source.id,
      name: source.name,
      events: calendars
        .filter((calendar) => sourceOf.get(calendar.id) === source.id)
        .reduce((sum, calendar) => sum + calendar.events, 0),
    }));
  }

  calendarsJson(): string {
    return `${JSON.stringify(this.calendarsDocument())}\n`;
  }

  eventsJson(calendarId: string): string {
    const body = this.#eventsBody(calendarId);
    this.#feed(calendarId, body);
    return body;
  }

  /** The manifest's hash of the bodies, fed the next calendar's; one out of order stops it. */
  #feed(calendarId: string, body: string | Uint8Array): void {
    if (!this.#bodiesInOrder) return;
    this.#bodies ??= { hash: createHash("sha256").update(this.calendarsJson()), fed: 0 };
    if (this.#snapshot.calendars[this.#bodies.fed]?.id === calendarId) {
      this.#bodies.hash.update("\n").update(body);
      this.#bodies.fed++;
    } else {
      this.#bodiesInOrder = false;
    }
  }

  #eventsBody(calendarId: string): string {
    return `${JSON.stringify(this.eventsDocument(calendarId))}\n`;
  }

  manifestJson(): string {
    return `${JSON.stringify(this.manifest(), null, 2)}\n`;
  }

  #calendar(calendar: Calendar): PublicCalendar {
    const site = this.#site;
    const events = this.events(calendar.id);
    const nowMs = site.now.toMillis();
    return {
      id: calendar.id,
      segment: encodeIdSegment(calendar.id),
      name: calendar.name,
      description: calendar.description,
      timeZone: calendar.timeZone,
      color: calendar.color,
      url: site.url + paths.calendar(calendar.id),
      eventsUrl: site.url + paths.apiEvents(calendar.id),
      icsUrl: site.url + paths.calendar(calendar.id) + FEED_FILE_NAMES.ics,
      embedUrl: site.url + paths.embed(calendar.id),
      counts: {
        events: events.length,
        upcoming: events.filter((e) => isUpcoming(e, nowMs)).length,
      },
    };
  }
}

/** An event as every public JSON file writes it (docs/public-json.md, "events.json"). */
export function toPublicEvent(event: CalendarEvent, siteUrl: string): PublicEvent {
  const { location, image } = event;
  return {
    id: event.id,
    calendarId: event.calendarId,
    // A site of several sources: the organizations that publish it (absent for one portal).
    ...(event.source === undefined ? {} : { sources: sourceIdsOf(event) }),
    title: event.title,
    start: event.start,
    end: event.end,
    allDay: event.allDay,
    timeZone: event.timeZone,
    status: event.status,
    attendanceMode: event.attendanceMode,
    onlineUrl: event.onlineUrl,
    location: location
      ? {
          name: location.name,
          address: location.address
            ? {
                street: location.address.street,
                locality: location.address.locality,
                region: location.address.region,
                postalCode: location.address.postalCode,
                country: location.address.country,
                formatted: location.address.formatted,
              }
            : null,
          geo: location.geo ? { lat: location.geo.lat, lon: location.geo.lon } : null,
        }
      : null,
    image: image
      ? { url: image.url, alt: image.alt, width: image.width, height: image.height }
      : null,
    categories: event.categories.map((c) => ({ id: c.id, name: c.name })),
    access: (event.access ?? []).map((a) =>
      "feature" in a ? { feature: a.feature } : { text: a.text },
    ),
    summary: event.summary,
    url: siteUrl + paths.event(event.calendarId, event.id),
    sequence: event.sequence,
    uid: event.history?.uid ?? eventUid(event, siteUrl),
    previousStarts: [...(event.history?.previousStarts ?? [])],
    rescheduledAt: event.history?.rescheduledAt ?? null,
    newDate: event.history?.newDate ?? false,
    ...translatedOf(event),
  };
}

/** The texts of its file's language that a language's site translated (absent: none). */
function translatedOf(event: CalendarEvent): Pick<PublicEvent, "translated"> {
  const fields = (event.translated?.fields ?? []).filter(
    (field): field is "title" | "summary" => field === "title" || field === "summary",
  );
  return fields.length > 0 ? { translated: fields } : {};
}

function publishedByCalendar(
  snapshot: PortalSnapshot,
  site: PublicJsonSite,
): Map<string, CalendarEvent[]> {
  const nowMs = site.now.toMillis();
  const groups = new Map<string, CalendarEvent[]>();
  for (const event of snapshot.events) {
    if (nowMs >= siteWindowUntil(event, site.pastDays)) continue;
    for (const calendarId of calendarIdsOf(event)) {
      const list = groups.get(calendarId);
      if (list) list.push(event);
      else groups.set(calendarId, [event]);
    }
  }
  return groups;
}

/**
 * What changed recently (src/changes): the announcements feeds carry and the
 * removed events still published as cancelled. The next build reads it back
 * from the live site when its cache has no published state.
 */
function publicChangesDocument(changes: {
  readonly announcements: readonly Announcement[];
  readonly removedRecords: readonly RemovedEventRecord[];
}): PublicChangesDocument {
  return {
    version: PUBLIC_JSON_VERSION,
    announcements: changes.announcements.map((a) => ({
      id: a.id,
      kind: a.kind,
      at: a.at,
      calendarId: a.calendarId,
      eventId: a.eventId,
      title: a.title,
      url: a.url,
      start: a.start,
      end: a.end,
      allDay: a.allDay,
      timeZone: a.timeZone,
      previousStart: a.previousStart,
      previousEnd: a.previousEnd,
      categories: a.categories.map((c) => ({ id: c.id, name: c.name })),
    })),
    removed: changes.removedRecords.map((r) => ({
      calendarId: r.calendarId,
      id: r.id,
      title: r.title,
      start: r.start,
      end: r.end,
      allDay: r.allDay,
      timeZone: r.timeZone,
      status: "cancelled",
      sequence: r.sequence,
      url: r.url,
      uid: r.uid,
      categories: r.categories.map((c) => ({ id: c.id, name: c.name })),
      previousStarts: [...r.previousStarts],
      rescheduledAt: r.rescheduledAt,
      removedAt: r.removedAt,
      until: r.until,
      reason:
        r.reason.kind === "moved"
          ? { kind: "moved", calendarId: r.reason.calendarId, calendarName: r.reason.calendarName }
          : { kind: "deleted" },
    })),
  };
}

export function writeChangesJson(changes: Parameters<typeof publicChangesDocument>[0]): string {
  return `${JSON.stringify(publicChangesDocument(changes))}\n`;
}
