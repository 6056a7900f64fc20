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
const utcSeconds = (ms: number): string =>
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
    const checked = this.checked(entry.calendar, candidate);
    const event = this.entryFor(checked);
    entry.byId.set(eventId, event);
    entry.events = entry.events.map((e) => (e === current ? event : e)).sort(byKey);
    entry.updatedMs = Math.max(entry.updatedMs, event.updatedMs);
    this.version++;
    return checked;
  }

  /**
   * Adds a new event as an editor would: revision 1, createdAt = updatedAt =
   * `now`. The calendar must exist and must not hold an event with that id.
   */
  addEvent(input: NewEvent, nowMs: number): DatasetEvent {
    const entry = this.calendars.get(input.calendarId);
    if (!entry) throw new RangeError(`no calendar ${input.calendarId}`);
    if (entry.byId.has(input.id)) {
      throw new RangeError(`calendar ${input.calendarId} already has an event ${input.id}`);
    }
    const updatedMs = Math.max(nowMs, entry.updatedMs + 1000);
    const stamp = utcSeconds(updatedMs);
    const checked = this.checked(entry.calendar, {
      ...input,
      revision: 1,
      createdAt: stamp,
      updatedAt: stamp,
    });
    this.insert(entry, this.entryFor(checked));
    return checked;
  }

  /** Removes an event, as deleting it in the portal's editor does; returns what was removed. */
  deleteEvent(calendarId: string, eventId: string, nowMs: number): DatasetEvent {
    const entry = this.calendars.get(calendarId);
    const current = entry?.byId.get(eventId);
    if (!entry || !current) throw new RangeError(`no event ${eventId} in calendar ${calendarId}`);
    this.remove(entry, current, nowMs);
    return current.details;
  }

  /**
   * Moves an event to another calendar under the same id, as an editor
   * would: revision + 1, updatedAt = `now`; both calendars change.
   */
  moveEvent(calendarId: string, eventId: string, toCalendarId: string, nowMs: number) {
    const from = this.calendars.get(calendarId);
    const current = from?.byId.get(eventId);
    if (!from || !current) throw new RangeError(`no event ${eventId} in calendar ${calendarId}`);
    const to = this.calendars.get(toCalendarId);
    if (!to) throw new RangeError(`no calendar ${toCalendarId}`);
    if (to.byId.has(eventId)) {
      throw new RangeError(`calendar ${toCalendarId} already has an event ${eventId}`);
    }
    const updatedMs = Math.max(nowMs, current.updatedMs + 1000, from.updatedMs + 1000);
    const checked = this.checked(to.calendar, {
      ...current.details,
      calendarId: toCalendarId,
      revision: current.details.revision + 1,
      updatedAt: utcSeconds(updatedMs),
    });
    this.remove(from, current, updatedMs);
    this.insert(to, this.entryFor(checked));
    return checked;
  }

  /** The event validated against the dataset rules (throws DatasetError naming the problem). */
  private checked(calendar: DatasetCalendar, candidate: DatasetEvent): DatasetEvent {
    return validateDataset({
      version: 1,
      organizations: this.organizations,
      calendars: [calendar],
      events: [candidate],
    }).events[0] as DatasetEvent;
  }

  private insert(entry: CalendarEntry, event: EventEntry): void {
    entry.byId.set(event.details.id, event);
    entry.events = [...entry.events, event].sort(byKey);
    entry.updatedMs = Math.max(entry.updatedMs, event.updatedMs);
    this.version++;
  }

  private remove(entry: CalendarEntry, event: EventEntry, nowMs: number): void {
    entry.byId.delete(event.details.id);
    entry.events = entry.events.filter((e) => e !== event);
    // The list changed now: its Last-Modified must move on, or a client
    // asking If-Modified-Since would keep the deleted event.
    entry.updatedMs = Math.max(nowMs, entry.updatedMs + 1000);
    this.version++;
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
    ...(e.accessibility ? { accessibility: [...e.accessibility] } : {}),
    ...translatedFields(e.translations),
  };
}

/**
 * The event's texts in other languages as the details carry them, each its
 * own field named with its tag (`title_fr`, `description_pt-BR`), as portals
 * that translate their events commonly send them (docs/api.md, "Translations").
 */
function translatedFields(translations: WireEventDetails["translations"]): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [tag, texts] of Object.entries(translations ?? {})) {
    for (const [field, text] of Object.entries(texts)) {
      if (typeof text === "string") fields[`${field}_${tag}`] = text;
    }
  }
  return fields;
}
