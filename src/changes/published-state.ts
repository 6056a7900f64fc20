import type { Category, EventStatus, RemovedReason } from "../model/types.ts";
import { type EventActivity, parseEventActivity } from "./event-activity.ts";

/**
 * What the site published at its last successful build, as much as the next
 * build needs to tell what changed since (docs/feeds.md, "Changes"): every
 * event's identity, times, status, SEQUENCE, title and URL; the events kept
 * as cancellations after they left the portal; and the change announcements
 * still shown in feeds. Kept next to the fetch cache (previous-state.ts) and
 * mirrored by the public JSON, from which it can be read back.
 *
 * Plain JSON. Readers are tolerant: a record with a missing or odd field is
 * dropped (that event then looks new, which is harmless), and a document
 * that is not a state at all is "no previous state".
 */

export const PUBLISHED_STATE_VERSION = 1;

export interface PublishedEventRecord {
  readonly calendarId: string;
  readonly id: string;
  readonly title: string;
  /** ISO 8601 with the offset of `timeZone`, as in the snapshot. */
  readonly start: string;
  readonly end: string;
  readonly allDay: boolean;
  readonly timeZone: string;
  readonly status: EventStatus;
  /** The SEQUENCE its VEVENT was published with. */
  readonly sequence: number;
  /** Absolute URL of its page. */
  readonly url: string;
  /** The iCalendar UID it was published under. */
  readonly uid: string;
  readonly categories: readonly Category[];
  /** Earlier start times, oldest first (schema.org previousStartDate). */
  readonly previousStarts: readonly string[];
  /** When its latest new date was first published (ISO 8601, UTC). */
  readonly rescheduledAt: string | null;
  /**
   * Only for an event the portal gives no modification time: a digest of its
   * content and when that content was first published, which stands in for
   * the portal's `updatedAt` (detect-changes.ts).
   */
  readonly seen?: { readonly digest: string; readonly at: string };
}

/** An event that left the portal (or its calendar) and is published as cancelled until `until`. */
export interface RemovedEventRecord extends PublishedEventRecord {
  readonly removedAt: string;
  readonly until: string;
  readonly reason: RemovedReason;
}

export type ChangeKind = "moved" | "cancelled" | "postponed" | "reinstated";

const CHANGE_KINDS: readonly ChangeKind[] = ["moved", "cancelled", "postponed", "reinstated"];

/** One change, announced as its own feed item for CHANGE_NOTICE_DAYS. */
export interface Announcement {
  /** The feed item's id: the event page URL with a fragment naming the change and its time. */
  readonly id: string;
  readonly kind: ChangeKind;
  /** When the change was first published (ISO 8601, UTC): the item's date. */
  readonly at: string;
  readonly calendarId: string;
  readonly eventId: string;
  readonly title: string;
  readonly url: string;
  /** The event's times after the change. */
  readonly start: string;
  readonly end: string;
  readonly allDay: boolean;
  readonly timeZone: string;
  /** Its times before the change, when they changed. */
  readonly previousStart: string | null;
  readonly previousEnd: string | null;
  readonly categories: readonly Category[];
}

export interface PublishedState {
  readonly version: typeof PUBLISHED_STATE_VERSION;
  /** SITE_URL of the build that published it: a state of another site is ignored. */
  readonly siteUrl: string;
  /** The build's "now" (ISO 8601, UTC). */
  readonly publishedAt: string;
  readonly events: readonly PublishedEventRecord[];
  readonly removed: readonly RemovedEventRecord[];
  readonly announcements: readonly Announcement[];
  /**
   * What the recent publishes did to each event, for the fediverse's outbox
   * and deliveries (event-activity.ts); absent from states of earlier versions.
   */
  readonly activities?: readonly EventActivity[];
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const isString = (value: unknown): value is string => typeof value === "string";
const isInstant = (value: unknown): value is string =>
  isString(value) && !Number.isNaN(Date.parse(value));
const STATUSES = new Set<string>(["scheduled", "postponed", "cancelled"]);

/** A state document, or why it is not one. */
export function parsePublishedState(
  json: unknown,
): { state: PublishedState } | { problem: string } {
  if (!isObject(json)) return { problem: "not a JSON object" };
  if (json.version !== PUBLISHED_STATE_VERSION) {
    return { problem: `version ${JSON.stringify(json.version)} is not ${PUBLISHED_STATE_VERSION}` };
  }
  if (!isString(json.siteUrl) || !isInstant(json.publishedAt)) {
    return { problem: "siteUrl or publishedAt missing" };
  }
  if (!Array.isArray(json.events)) return { problem: "events is not a list" };
  return {
    state: {
      version: PUBLISHED_STATE_VERSION,
      siteUrl: json.siteUrl,
      publishedAt: json.publishedAt,
      events: keep(json.events, (raw) => parseEventRecord(raw)),
      removed: keep(json.removed, parseRemovedRecord),
      announcements: keep(json.announcements, parseAnnouncement),
      ...(Array.isArray(json.activities)
        ? { activities: keep(json.activities, parseEventActivity) }
        : {}),
    },
  };
}

function keep<T>(list: unknown, parse: (raw: unknown) => T | null): T[] {
  if (!Array.isArray(list)) return [];
  return list.flatMap((raw) => {
    const parsed = parse(raw);
    return parsed === null ? [] : [parsed];
  });
}

/**
 * An event record; `defaults` fills what older public JSON lacks (SEQUENCE,
 * UID). Events of the public JSON are read with this too.
 */
export function parseEventRecord(
  raw: unknown,
  defaults: { uid?: (calendarId: string, id: string) => string } = {},
): PublishedEventRecord | null {
  if (!isObject(raw)) return null;
  const { calendarId, id, title, start, end, timeZone, status, url } = raw;
  if (!isString(calendarId) || !isString(id) || !isString(title) || !isString(url)) return null;
  if (!isInstant(start) || !isInstant(end) || !isString(timeZone)) return null;
  if (!isString(status) || !STATUSES.has(status)) return null;
  const uid = isString(raw.uid) ? raw.uid : defaults.uid?.(calendarId, id);
  if (uid === undefined) return null;
  const sequence = Number.isSafeInteger(raw.sequence) ? Math.max(0, raw.sequence as number) : 0;
  return {
    calendarId,
    id,
    title,
    start,
    end,
    allDay: raw.allDay === true,
    timeZone,
    status: status as EventStatus,
    sequence,
    url,
    uid,
    categories: parseCategories(raw.categories),
    previousStarts: Array.isArray(raw.previousStarts) ? raw.previousStarts.filter(isInstant) : [],
    rescheduledAt: isInstant(raw.rescheduledAt) ? raw.rescheduledAt : null,
    ...(isObject(raw.seen) && isString(raw.seen.digest) && isInstant(raw.seen.at)
      ? { seen: { digest: raw.seen.digest, at: raw.seen.at } }
      : {}),
  };
}

export function parseRemovedRecord(raw: unknown): RemovedEventRecord | null {
  const record = parseEventRecord(raw);
  if (!record || !isObject(raw)) return null;
  const { removedAt, until } = raw;
  if (!isInstant(removedAt) || !isInstant(until)) return null;
  const reason = parseReason(raw.reason);
  return reason ? { ...record, removedAt, until, reason } : null;
}

function parseReason(raw: unknown): RemovedReason | null {
  if (!isObject(raw)) return null;
  if (raw.kind === "deleted") return { kind: "deleted" };
  if (raw.kind === "moved" && isString(raw.calendarId) && isString(raw.calendarName)) {
    return { kind: "moved", calendarId: raw.calendarId, calendarName: raw.calendarName };
  }
  return null;
}

export function parseAnnouncement(raw: unknown): Announcement | null {
  if (!isObject(raw)) return null;
  const { id, kind, at, calendarId, eventId, title, url, start, end, timeZone } = raw;
  if (!isString(id) || !CHANGE_KINDS.includes(kind as ChangeKind) || !isInstant(at)) return null;
  if (!isString(calendarId) || !isString(eventId) || !isString(title) || !isString(url)) {
    return null;
  }
  if (!isInstant(start) || !isInstant(end) || !isString(timeZone)) return null;
  return {
    id,
    kind: kind as ChangeKind,
    at,
    calendarId,
    eventId,
    title,
    url,
    start,
    end,
    allDay: raw.allDay === true,
    timeZone,
    previousStart: isInstant(raw.previousStart) ? raw.previousStart : null,
    previousEnd: isInstant(raw.previousEnd) ? raw.previousEnd : null,
    categories: parseCategories(raw.categories),
  };
}

function parseCategories(raw: unknown): Category[] {
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((category) =>
    isObject(category) && isString(category.id) && isString(category.name)
      ? [{ id: category.id, name: category.name }]
      : [],
  );
}
