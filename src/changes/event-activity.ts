import { endMillis } from "../model/event-times.ts";
import { compareCodeUnits } from "../model/order.ts";
import type { PublishedEventRecord, PublishedState } from "./published-state.ts";

/**
 * What each publish did to each event, as the fediverse reads it
 * (src/fediverse, docs/followers.md): an event first published is created,
 * one published again with a higher SEQUENCE (a new date, a new status, a new
 * title, any change the portal counts) is updated, and one no longer
 * published where it was (deleted from the portal, or moved to another
 * calendar, where it is created anew) is deleted. Pure: the previous state,
 * the records this publish keeps and the keys the portal still has give the
 * activities; the ones of earlier publishes are kept for a while after them.
 *
 * Without a previous state nothing is known to be new, as for the feeds'
 * announcements: a first build, or one whose state was lost, announces
 * nothing rather than every event at once.
 */

export type EventActivityKind = "create" | "update" | "delete";

export interface EventActivity {
  readonly kind: EventActivityKind;
  readonly calendarId: string;
  readonly eventId: string;
  /** The SEQUENCE the event was published with (for a deletion, its last). */
  readonly sequence: number;
  /** When this publish happened (ISO 8601, UTC): the activity's date, part of its id. */
  readonly at: string;
}

/**
 * The most activities kept, the newest publishes' first: one build that
 * changes more events announces the first of them by calendar and event id
 * and publishes the rest without an activity, so that the state, the outbox
 * and a delivery run stay bounded whatever a portal does (docs/followers.md,
 * "What is bounded").
 */
export const MAX_ACTIVITIES = 1000;

export interface ActivityOptions {
  /** The keys (`calendarId` NUL `id`) of every event the portal has now, published or long over. */
  readonly currentKeys: ReadonlySet<string>;
  /** Events that ended before this (ms) are neither published nor tracked: not deleted. */
  readonly horizonMs: number;
  /** The publish's "now", ISO 8601 UTC. */
  readonly at: string;
  /** Activities of earlier publishes at or after this (ms) are kept. */
  readonly keepFromMs: number;
}

export function eventActivities(
  previous: PublishedState | null,
  records: readonly PublishedEventRecord[],
  options: ActivityOptions,
): EventActivity[] {
  if (!previous) return [];
  const before = new Map(previous.events.map((record) => [keyOf(record), record]));
  const now: EventActivity[] = [];
  const activity = (kind: EventActivityKind, record: PublishedEventRecord): EventActivity => ({
    kind,
    calendarId: record.calendarId,
    eventId: record.id,
    sequence: record.sequence,
    at: options.at,
  });
  for (const record of records) {
    const was = before.get(keyOf(record));
    if (!was) now.push(activity("create", record));
    else if (record.sequence > was.sequence) now.push(activity("update", record));
  }
  for (const record of previous.events) {
    if (options.currentKeys.has(keyOf(record)) || endMillis(record) < options.horizonMs) continue;
    now.push(activity("delete", record));
  }
  now.sort(byKey);
  const kept = (previous.activities ?? []).filter(
    (item) => Date.parse(item.at) >= options.keepFromMs && item.at !== options.at,
  );
  return [...now, ...kept].slice(0, MAX_ACTIVITIES);
}

function keyOf(event: { readonly calendarId: string; readonly id: string }): string {
  return `${event.calendarId}\u0000${event.id}`;
}

/** One build's activities in one order: by calendar, event, then kind. */
function byKey(a: EventActivity, b: EventActivity): number {
  return (
    compareCodeUnits(a.calendarId, b.calendarId) ||
    compareCodeUnits(a.eventId, b.eventId) ||
    compareCodeUnits(a.kind, b.kind)
  );
}

/** An activity read back from a kept state, or null when it is not one. */
export function parseEventActivity(raw: unknown): EventActivity | null {
  if (typeof raw !== "object" || raw === null) return null;
  const { kind, calendarId, eventId, sequence, at } = raw as Record<string, unknown>;
  if (kind !== "create" && kind !== "update" && kind !== "delete") return null;
  if (typeof calendarId !== "string" || typeof eventId !== "string") return null;
  if (!Number.isSafeInteger(sequence) || typeof at !== "string" || Number.isNaN(Date.parse(at))) {
    return null;
  }
  return { kind, calendarId, eventId, sequence: sequence as number, at };
}
