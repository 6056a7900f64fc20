import { DateTime } from "luxon";
import { validateDataset } from "./dataset-validate.ts";
import type {
  DatasetCalendar,
  DatasetEvent,
  DatasetOrganization,
  EventPatch,
  NewEvent,
  PortalDataset,
  WireCalendar,
  WireEvent,
  WireEventDetails,
} from "./types.ts";

/** A list sorted by (primary, id); keyset cursors point between two entries. */
export type SortKey = readonly [number | string, string];

export interface EventEntry {
  details: DatasetEvent;
  key: SortKey;
  updatedMs: number;
}

export interface CalendarEntry {
  calendar: DatasetCalendar;
  organizations: ReadonlySet<string>;
  key: SortKey;
  /** Sorted by start, then id. */
  events: EventEntry[];
  byId: Map<string, EventEntry>;
  /** Latest change to the calendar or any of its events. */
  updatedMs: number;
}

export const compareKeys = (a: SortKey, b: SortKey): number =>
  a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0;

const byKey = <T extends { key: SortKey }>(a: T, b: T): number => compareKeys(a.key, b.key);

/** ISO instant in UTC with seconds precision, the form createdAt/updatedAt take on the wire. */
export const utcSeconds = (ms: number): string =>
  `${new Date(Math.floor(ms / 1000) * 1000).toISOString().slice(0, 19)}Z`;

/**
 * The portal's data, indexed for serving: per-calendar arrays sorted once at
 * load, so a page is a binary search plus a slice, and list records are
 * derived on the fly from the stored details.
 */
export class PortalStore {
  readonly organizations: readonly DatasetOrganization[];
  private readonly calendars = new Map<string, CalendarEntry>();
  private readonly allDayStart = new Map<string, number>();
  /** Rises with every edit; cached pages are keyed by it. */
  version = 0;

  constructor(dataset: PortalDataset) {
    this.organizations = dataset.organizations;
    for (const calendar of dataset.calendars) {
      this.calendars.set(calendar.id, {
        calendar,
        organizations: new Set(calendar.organizations),
        key: [calendar.name, calendar.id],
        events: [],
        byId: new Map(),
        updatedMs: Date.parse(calendar.updatedAt),
      });
    }
    for (const details of dataset.events) {
      const entry = this.calendars.get(details.calendarId);
      if (!entry) continue;
      const event = this.entryFor(details);
      entry.events.push(event);
      entry.byId.set(details.id, event);
      if (event.updatedMs > entry.updatedMs) entry.updatedMs = event.updatedMs;
    }
    for (const entry of this.calendars.values()) entry.events.sort(byKey);
  }

  get defaultOrganization(): DatasetOrganization | undefined {
    return this.organizations[0];
  }

  hasOrganization(orgId: string): boolean {
    return this.organizations.some((org) => org.id === orgId);
  }

  /** Calendars available to the organization, sorted by name then id. */
  calendarsFor(orgId: string): CalendarEntry[] {
    return [...this.calendars.values()].filter((c) => c.organizations.has(orgId)).sort(byKey);
  }

  /** Undefined both for unknown calendars and for calendars of other organizations. */
  calendarFor(orgId: string, calendarId: string): CalendarEntry | undefined {
    const entry = this.calendars.get(calendarId);
    return entry?.organizations.has(orgId) ? entry : undefined;
  }

  eventCount(): number {
    let count = 0;
    for (const entry of this.calendars.values()) count += entry.events.length;
    return count;
  }

  /** Applies a patch as an editor would: revision + 1, updatedAt = `now` (strictly rising). */
  updateEvent(calendarId: string, eventId: string, patch: EventPatch, nowMs: number): DatasetEvent {
    const entry = this.calendars.get(calendarId);
    const current = entry?.byId.get(eventId);
    if (!entry || !current) throw new RangeError(`no event ${eventId} in calendar ${calendarId}`);
    const updatedMs = Math.max(nowMs, current.updatedMs + 1000);
    const candidate = {
      ...current.details,
      ...patch,
      id: current.details.id,
      calendarId,
      revision: current.details.revision + 1,
      updatedAt: utcSeconds(updatedMs),
    };
    const checked = validateDataset({
      version: 1,
      organizations: this.organizations,
      calendars: [entry.calendar],
      events: [candidate],
    }).events[0] as DatasetEvent;
    const event = this.entryFor(checked);
    entry.byId.set(eventId, event);
    entry.events = entry.events.map((e) => (e === current ? event : e)).sort(byKey);
    entry.updatedMs = Math.max(entry.updatedMs, event.updatedMs);
    this.version++;
    return checked;
  }

  /** Adds an event as an editor would: revision 1, createdAt = updatedAt = `now`. */
  addEvent(event: NewEvent, nowMs: number): DatasetEvent {
    const entry = this.calendars.get(event.calendarId);
    if (!entry) throw new RangeError(`no calendar ${event.calendarId}`);
    if (entry.byId.has(event.id)) {
      throw new RangeError(`event ${event.id} already exists in calendar ${event.calendarId}`);
    }
    const updatedMs = Math.max(nowMs, entry.updatedMs + 1000);
    const checked = this.checked(entry, {
      ...event,
      revision: 1,
      createdAt: utcSeconds(updatedMs),
      updatedAt: utcSeconds(updatedMs),
    });
    const added = this.entryFor(checked);
    entry.byId.set(checked.id, added);
    entry.events = [...entry.events, added].sort(byKey);
    entry.updatedMs = Math.max(entry.updatedMs, added.updatedMs);
    this.version++;
    return checked;
  }

  /**
   * Deletes an event. Its calendar's Last-Modified still rises (to `now`), so
   * conditional requests for the list see the change.
   */
  removeEvent(calendarId: string, eventId: string, nowMs: number): DatasetEvent {
    const entry = this.calendars.get(calendarId);
    const current = entry?.byId.get(eventId);
    if (!entry || !current) throw new RangeError(`no event ${eventId} in calendar ${calendarId}`);
    entry.byId.delete(eventId);
    entry.events = entry.events.filter((e) => e !== current);
    entry.updatedMs = Math.max(nowMs, entry.updatedMs + 1000);
    this.version++;
    return current.details;
  }

  /** Moves an event to another calendar, keeping its id: revision + 1, updatedAt = `now`. */
  moveEvent(
    calendarId: string,
    eventId: string,
    toCalendarId: string,
    nowMs: number,
  ): DatasetEvent {
    const target = this.calendars.get(toCalendarId);
    if (!target) throw new RangeError(`no calendar ${toCalendarId}`);
    if (target.byId.has(eventId)) {
      throw new RangeError(`event ${eventId} already exists in calendar ${toCalendarId}`);
    }
    const removed = this.removeEvent(calendarId, eventId, nowMs);
    const updatedMs = Math.max(
      nowMs,
      Date.parse(removed.updatedAt) + 1000,
      target.updatedMs + 1000,
    );
    const checked = this.checked(target, {
      ...removed,
      calendarId: toCalendarId,
      revision: removed.revision + 1,
      updatedAt: utcSeconds(updatedMs),
    });
    const moved = this.entryFor(checked);
    target.byId.set(eventId, moved);
    target.events = [...target.events, moved].sort(byKey);
    target.updatedMs = Math.max(target.updatedMs, moved.updatedMs);
    this.version++;
    return checked;
  }

  private checked(entry: CalendarEntry, candidate: DatasetEvent): DatasetEvent {
    return validateDataset({
      version: 1,
      organizations: this.organizations,
      calendars: [entry.calendar],
      events: [candidate],
    }).events[0] as DatasetEvent;
  }

  private entryFor(details: DatasetEvent): EventEntry {
    return {
      details,
      key: [this.startMs(details), details.id],
      updatedMs: Date.parse(details.updatedAt),
    };
  }

  private startMs(event: DatasetEvent): number {
    if (!event.allDay) return Date.parse(event.start);
    const memoKey = `${event.timeZone}\u0000${event.start}`;
    let ms = this.allDayStart.get(memoKey);
    if (ms === undefined) {
      ms = DateTime.fromISO(event.start, { zone: event.timeZone }).toMillis();
      this.allDayStart.set(memoKey, ms);
    }
    return ms;
  }
}

export function calendarRecord(entry: CalendarEntry): WireCalendar {
  const { calendar } = entry;
  return {
    id: calendar.id,
    name: calendar.name,
    description: calendar.description,
    timeZone: calendar.timeZone,
    color: calendar.color,
    eventCount: entry.events.length,
    updatedAt: utcSeconds(entry.updatedMs),
  };
}

export function eventRecord(entry: EventEntry): WireEvent {
  const e = entry.details;
  return {
    id: e.id,
    calendarId: e.calendarId,
    title: e.title,
    start: e.start,
    end: e.end,
    allDay: e.allDay,
    timeZone: e.timeZone,
    status: e.status,
    revision: e.revision,
    updatedAt: utcSeconds(entry.updatedMs),
  };
}

/** The details record; `/media/` image paths become absolute URLs on `origin`. */
export function detailsRecord(entry: EventEntry, origin: string): WireEventDetails {
  const e = entry.details;
  const image = e.image?.url.startsWith("/") ? { ...e.image, url: origin + e.image.url } : e.image;
  return {
    ...eventRecord(entry),
    summary: e.summary,
    description: e.description,
    location: e.location,
    onlineUrl: e.onlineUrl,
    attendanceMode: e.attendanceMode,
    image,
    categories: e.categories,
    organizer: e.organizer,
    registrationUrl: e.registrationUrl,
    createdAt: utcSeconds(Date.parse(e.createdAt)),
  };
}
