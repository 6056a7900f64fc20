import { DateTime } from "luxon";
import { endMillis } from "../model/event-times.ts";
import { eventUid } from "../model/event-uid.ts";
import { byStart, compareCodeUnits } from "../model/order.ts";
import type { CalendarEvent, EventHistory, PortalSnapshot } from "../model/types.ts";
import { paths } from "../model/url-scheme.ts";
import { shortHash } from "../short-hash.ts";
import { eventActivities } from "./event-activity.ts";
import {
  type Announcement,
  type ChangeKind,
  PUBLISHED_STATE_VERSION,
  type PublishedEventRecord,
  type PublishedState,
  type RemovedEventRecord,
} from "./published-state.ts";

/**
 * What changed since the last publish, and what that means for this one
 * (docs/feeds.md, "Changes"). Pure: the previous state, the snapshot and the
 * build's clock give the events to publish (with their SEQUENCE, UID and
 * history), the removed events still published as cancellations, the change
 * announcements for feeds, the report for the build log, and the state to
 * keep once this build is published.
 *
 * Without a previous state nothing is known to have changed: no event is
 * taken for deleted, and nothing is announced.
 */

export interface ChangeOptions {
  /** SITE_URL without trailing slash. */
  readonly siteUrl: string;
  /** The build's "now". */
  readonly now: DateTime;
  readonly changeNoticeDays: number;
  readonly cancelledGraceDays: number;
  readonly feedPastDays: number;
  /** SITE_PAST_DAYS: events that ended before it are neither on the site nor in the state. */
  readonly pastDays: number;
}

export interface ReportItem {
  readonly title: string;
  /** For the site owner, in English like the rest of the build log. */
  readonly detail: string | null;
}

/** The kinds of change the build report counts: those announced in feeds, and more. */
export type ReportKind = "added" | "changed" | ChangeKind | "deleted";

/** What changed since the last publish, for the build report: the events of each kind of change. */
export type ChangeReport = {
  /** When the previous state was published. */
  readonly since: string;
} & { readonly [K in ReportKind]: readonly ReportItem[] };

const REPORT_KINDS: readonly ReportKind[] = [
  "added",
  "changed",
  "moved",
  "cancelled",
  "postponed",
  "reinstated",
  "deleted",
];

/** How many changes the report lists, of every kind. */
export function reportedChanges(report: ChangeReport): number {
  return REPORT_KINDS.reduce((sum, kind) => sum + report[kind].length, 0);
}

export interface ChangeResult {
  /** The snapshot's events in their order; an object is replaced only where the site adds something. */
  readonly events: readonly CalendarEvent[];
  /** Events gone from the portal but still published, as cancelled, until they expire. */
  readonly removed: readonly CalendarEvent[];
  /** Changes still announced in feeds, newest first. */
  readonly announcements: readonly Announcement[];
  /** Null when there was no previous state to compare with. */
  readonly report: ChangeReport | null;
  /** What to keep once this build is published. */
  readonly next: PublishedState;
}

const DAY_MS = 86_400_000;
/** schema.org allows previousStartDate to repeat; a few are plenty. */
const MAX_PREVIOUS_STARTS = 5;

type Mutable<T> = { -readonly [K in keyof T]: T[K] extends readonly (infer U)[] ? U[] : T[K] };

export function detectChanges(
  previous: PublishedState | null,
  snapshot: Pick<PortalSnapshot, "calendars" | "events">,
  options: ChangeOptions,
): ChangeResult {
  const nowMs = options.now.toMillis();
  const nowIso = utcIso(options.now);
  const noticeFrom = nowMs - options.changeNoticeDays * DAY_MS;
  const calendarNames = new Map(snapshot.calendars.map((c) => [c.id, c.name]));
  const prevEvents = new Map((previous?.events ?? []).map((r) => [keyOf(r), r]));
  const prevRemoved = new Map((previous?.removed ?? []).map((r) => [keyOf(r), r]));
  // A copy merged into another source's event (src/sources/same-events.ts) is still current.
  const currentKeys = new Set(snapshot.events.flatMap(keysOf));
  // Records of events gone from where they were: candidates for a move to another calendar.
  const vanishedById = new Map<string, PublishedEventRecord[]>();
  for (const record of previous?.events ?? []) {
    if (currentKeys.has(keyOf(record))) continue;
    const list = vanishedById.get(record.id);
    if (list) list.push(record);
    else vanishedById.set(record.id, [record]);
  }
  const movedAway = new Set<string>();
  const report: Mutable<ChangeReport> | null = previous
    ? {
        since: previous.publishedAt,
        added: [],
        changed: [],
        moved: [],
        cancelled: [],
        postponed: [],
        reinstated: [],
        deleted: [],
      }
    : null;
  const announcements: Announcement[] = [];
  const removed: RemovedEventRecord[] = [];
  const events: CalendarEvent[] = [];
  const records: PublishedEventRecord[] = [];
  const wasSubscribed = (record: PublishedEventRecord) =>
    endMillis(record) >=
    nowMs -
      (record.status === "cancelled" ? options.cancelledGraceDays : options.feedPastDays) * DAY_MS;
  const until = (record: PublishedEventRecord) =>
    utcIso(
      DateTime.fromMillis(Math.max(endMillis(record), nowMs + options.cancelledGraceDays * DAY_MS)),
    );
  const announce = (
    kind: ChangeKind,
    now: PublishedEventRecord,
    before: PublishedEventRecord | null,
  ) => {
    announcements.push({
      id: `${now.url}#${kind}-${compactUtc(options.now)}`,
      kind,
      at: nowIso,
      calendarId: now.calendarId,
      eventId: now.id,
      title: now.title,
      url: now.url,
      start: now.start,
      end: now.end,
      allDay: now.allDay,
      timeZone: now.timeZone,
      previousStart: before?.start ?? null,
      previousEnd: before?.end ?? null,
      categories: now.categories,
    });
  };

  const horizon = nowMs - options.pastDays * DAY_MS;
  for (const event of snapshot.events) {
    if (endMillis(event) < horizon) {
      // Long over: not published but as a download, and not worth tracking.
      events.push(event);
      continue;
    }
    const key = keyOf(event);
    const ownUid = eventUid(event, options.siteUrl);
    const url = options.siteUrl + paths.event(event.calendarId, event.id);
    // Published before as a copy now merged into this one: it keeps the UID it had.
    let before: PublishedEventRecord | null =
      prevEvents.get(key) ?? mergedBefore(event, prevEvents) ?? null;
    let how: "same" | "moved" | "restored" = "same";
    if (!before && previous) {
      // The same id gone from another calendar in the same build, with the
      // same title or start: a move, which keeps the UID calendar apps know.
      const candidates = (vanishedById.get(event.id) ?? []).filter(
        (record) =>
          !movedAway.has(keyOf(record)) &&
          (record.title === event.title || sameInstant(record.start, event.start)),
      );
      const gone = prevRemoved.get(key);
      if (candidates.length === 1 && candidates[0]) {
        before = candidates[0];
        how = "moved";
        movedAway.add(keyOf(before));
      } else if (gone?.reason.kind === "deleted") {
        before = gone;
        how = "restored";
      }
    }
    const seen = seenSince(event, before, nowIso);
    if (!before) {
      if (previous) report?.added.push({ title: event.title, detail: null });
      events.push(seen ? { ...event, updatedAt: seen.at } : event);
      records.push(recordOf(event, { uid: ownUid, url, sequence: event.sequence, seen }));
      continue;
    }

    const startChanged = !sameInstant(before.start, event.start) || before.allDay !== event.allDay;
    const timeChanged = startChanged || !sameInstant(before.end, event.end);
    const visibleChange =
      timeChanged ||
      before.status !== event.status ||
      before.title !== event.title ||
      how !== "same";
    // SEQUENCE never goes down for a UID, and rises with every change calendar apps must take.
    let sequence = Math.max(event.sequence, before.sequence);
    if (visibleChange && event.sequence <= before.sequence) sequence = before.sequence + 1;
    const previousStarts = (
      startChanged ? [...before.previousStarts, before.start] : before.previousStarts
    )
      .filter((start) => !sameInstant(start, event.start))
      .slice(-MAX_PREVIOUS_STARTS);
    const rescheduledAt =
      previousStarts.length === 0 ? null : startChanged ? nowIso : before.rescheduledAt;
    const record = recordOf(event, {
      uid: before.uid,
      url,
      sequence,
      previousStarts,
      rescheduledAt,
      seen,
    });
    records.push(record);

    const kind = changeKind(before, event, timeChanged);
    // Corrections to events that are over are not news (asked of a change only:
    // the record's end is parsed for it alone).
    if (kind && Math.max(endMillis(before), endMillis(event)) >= nowMs) {
      announce(kind, record, timeChanged ? before : null);
    }
    if (how === "moved") {
      const to = calendarNames.get(event.calendarId) ?? event.calendarId;
      report?.moved.push({
        title: event.title,
        detail: `to calendar "${to}"${timeChanged ? `, ${newDateDetail(before, event)}` : ""}`,
      });
      // Its place in the calendar it left is marked cancelled for that calendar's subscribers.
      if (calendarNames.has(before.calendarId) && wasSubscribed(before)) {
        removed.push({
          ...before,
          status: "cancelled",
          sequence: before.sequence + 1,
          removedAt: nowIso,
          until: until(before),
          reason: { kind: "moved", calendarId: event.calendarId, calendarName: to },
        });
      }
    } else if (kind === "moved") {
      report?.moved.push({ title: event.title, detail: newDateDetail(before, event) });
    } else if (kind === "cancelled" || kind === "postponed" || kind === "reinstated") {
      report?.[kind].push({ title: event.title, detail: null });
    } else if (event.sequence > before.sequence || before.title !== event.title) {
      report?.changed.push({ title: event.title, detail: null });
    }

    const history: EventHistory | null =
      before.uid !== ownUid || previousStarts.length > 0
        ? {
            uid: before.uid !== ownUid ? before.uid : null,
            previousStarts,
            rescheduledAt,
            newDate:
              rescheduledAt !== null &&
              Date.parse(rescheduledAt) >= noticeFrom &&
              event.status !== "cancelled",
            removed: null,
          }
        : null;
    events.push(
      history || sequence !== event.sequence || seen
        ? {
            ...event,
            sequence,
            ...(history ? { history } : {}),
            ...(seen ? { updatedAt: seen.at } : {}),
          }
        : event,
    );
  }

  for (const record of previous?.events ?? []) {
    const key = keyOf(record);
    if (currentKeys.has(key) || movedAway.has(key) || endMillis(record) < horizon) continue;
    // A calendar that is gone may have been unpublished rather than deleted:
    // its events are not claimed to be cancelled.
    const calendarGone = !calendarNames.has(record.calendarId);
    report?.deleted.push({
      title: record.title,
      detail: calendarGone ? "with its calendar" : null,
    });
    if (calendarGone) continue;
    if (wasSubscribed(record)) {
      removed.push({
        ...record,
        status: "cancelled",
        sequence: record.sequence + 1,
        removedAt: nowIso,
        until: until(record),
        reason: { kind: "deleted" },
      });
    }
    if (record.status !== "cancelled" && endMillis(record) >= nowMs) {
      announce("cancelled", { ...record, status: "cancelled" }, null);
    }
  }

  const removedKeys = new Set(removed.map(keyOf));
  for (const record of previous?.removed ?? []) {
    const key = keyOf(record);
    // Back in the portal, replaced by a newer removal, or expired.
    if (currentKeys.has(key) || removedKeys.has(key)) continue;
    if (Date.parse(record.until) < nowMs) continue;
    removed.push(record);
  }
  removed.sort(byStart);

  const announced = new Map<string, Announcement>();
  for (const item of previous?.announcements ?? []) {
    if (Date.parse(item.at) >= noticeFrom && Date.parse(item.at) <= nowMs) {
      announced.set(item.id, item);
    }
  }
  for (const item of announcements) announced.set(item.id, item);
  const allAnnouncements = [...announced.values()].sort(
    (a, b) => Date.parse(b.at) - Date.parse(a.at) || compareCodeUnits(a.id, b.id),
  );

  return {
    events,
    removed: removed.map((record) => removedEvent(record, options.siteUrl)),
    announcements: allAnnouncements,
    report,
    next: {
      version: PUBLISHED_STATE_VERSION,
      siteUrl: options.siteUrl,
      publishedAt: nowIso,
      events: records,
      removed,
      announcements: allAnnouncements,
      activities: eventActivities(previous, records, {
        currentKeys,
        horizonMs: horizon,
        at: nowIso,
        keepFromMs: noticeFrom,
      }),
    },
  };
}

/** The one announcement a change gets, the strongest first. */
function changeKind(
  before: PublishedEventRecord,
  event: CalendarEvent,
  timeChanged: boolean,
): ChangeKind | null {
  if (event.status === "cancelled") return before.status === "cancelled" ? null : "cancelled";
  if (event.status === "postponed") {
    if (before.status !== "postponed") return "postponed";
    return timeChanged ? "moved" : null;
  }
  if (timeChanged) return "moved";
  return before.status === "scheduled" ? null : "reinstated";
}

/** A removed event as the outputs publish it: cancelled, with what the record keeps. */
function removedEvent(record: RemovedEventRecord, siteUrl: string): CalendarEvent {
  const ownUid = eventUid(record, siteUrl);
  return {
    id: record.id,
    calendarId: record.calendarId,
    title: record.title,
    summary: "",
    descriptionHtml: "",
    descriptionText: "",
    start: record.start,
    end: record.end,
    allDay: record.allDay,
    timeZone: record.timeZone,
    status: "cancelled",
    attendanceMode: "offline",
    location: null,
    onlineUrl: null,
    image: null,
    categories: record.categories,
    organizer: null,
    registrationUrl: null,
    createdAt: null,
    // DTSTAMP and LAST-MODIFIED: the removal, the same in every later build.
    updatedAt: record.removedAt,
    sequence: record.sequence,
    history: {
      uid: record.uid !== ownUid ? record.uid : null,
      previousStarts: record.previousStarts,
      rescheduledAt: record.rescheduledAt,
      newDate: false,
      removed: record.reason,
    },
  };
}

/**
 * For an event without portal timestamps: when its current content was first
 * published (kept from the previous record while the digest matches), so its
 * DTSTAMP, feed date and "Data updated" stay put between builds. Null for
 * events the portal dates itself.
 */
function seenSince(
  event: CalendarEvent,
  before: PublishedEventRecord | null,
  nowIso: string,
): PublishedEventRecord["seen"] | null {
  if (event.updatedAt || event.createdAt) return null;
  const digest = shortHash("sha256", JSON.stringify(event), 22);
  return before?.seen?.digest === digest ? before.seen : { digest, at: nowIso };
}

function recordOf(
  event: CalendarEvent,
  facts: {
    uid: string;
    url: string;
    sequence: number;
    previousStarts?: readonly string[];
    rescheduledAt?: string | null;
    seen?: PublishedEventRecord["seen"] | null;
  },
): PublishedEventRecord {
  return {
    calendarId: event.calendarId,
    id: event.id,
    title: event.title,
    start: event.start,
    end: event.end,
    allDay: event.allDay,
    timeZone: event.timeZone,
    status: event.status,
    sequence: facts.sequence,
    url: facts.url,
    uid: facts.uid,
    categories: event.categories.map((c) => ({ id: c.id, name: c.name })),
    previousStarts: facts.previousStarts ?? [],
    rescheduledAt: facts.rescheduledAt ?? null,
    ...(facts.seen ? { seen: facts.seen } : {}),
  };
}

/** "new date Sat 5 Apr 2026 19:30, was Fri 4 Apr 2026 19:30" (the event's zone). */
function newDateDetail(before: PublishedEventRecord, event: CalendarEvent): string {
  const show = (iso: string, allDay: boolean, zone: string) =>
    DateTime.fromISO(iso, { zone, setZone: false }).toFormat(
      allDay ? "ccc d LLL yyyy" : "ccc d LLL yyyy HH:mm",
      { locale: "en-GB" },
    );
  return `new date ${show(event.start, event.allDay, event.timeZone)}, was ${show(before.start, before.allDay, before.timeZone)}`;
}

function keyOf(event: { readonly calendarId: string; readonly id: string }): string {
  return `${event.calendarId}\u0000${event.id}`;
}

/** An event's key, and those of the copies merged into it. */
function keysOf(event: CalendarEvent): string[] {
  return [keyOf(event), ...(event.merged ?? []).map(keyOf)];
}

/** The record of the first copy merged into `event` that the site published. */
function mergedBefore(
  event: CalendarEvent,
  published: ReadonlyMap<string, PublishedEventRecord>,
): PublishedEventRecord | undefined {
  for (const copy of event.merged ?? []) {
    const record = published.get(keyOf(copy));
    if (record) return record;
  }
  return undefined;
}

function sameInstant(a: string, b: string): boolean {
  return a === b || Date.parse(a) === Date.parse(b);
}

/** ISO 8601 in UTC without milliseconds: "2026-03-20T12:00:00Z". */
function utcIso(time: DateTime): string {
  return time.toUTC().toISO({ suppressMilliseconds: true }) ?? "";
}

/** "20260320T120000Z", for ids. */
function compactUtc(time: DateTime): string {
  return time.toUTC().toFormat("yyyyMMdd'T'HHmmss'Z'");
}
