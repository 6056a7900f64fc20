import { DateTime } from "luxon";
import type { EventActivity } from "../changes/event-activity.ts";
import type { SiteConfig } from "../config/site.ts";
import type { CalendarEvent } from "../model/types.ts";
import { paths } from "../model/url-scheme.ts";
import { type Account, PUBLIC } from "./account.ts";
import { EVENT_CONTEXT } from "./activity-context.ts";
import { eventObject, eventObjectId, tombstone } from "./event-object.ts";

/**
 * The actor's outbox (ActivityPub section 5.1): an `OrderedCollection` of the
 * activities the recent publishes did (src/changes/event-activity.ts), newest
 * first, in pages of OUTBOX_PAGE_SIZE. A new event is a `Create`, a changed,
 * moved, cancelled or postponed one an `Update`, a deleted one a `Delete`
 * of a `Tombstone`. Each activity's id is its object's with a fragment naming
 * the kind and the publish's time, the same in every build that lists it;
 * the deploy's delivery (deploy-delivery.ts) reads the first pages to find
 * the activities it has not yet sent.
 */

export const OUTBOX_PAGE_SIZE = 50;

type OutboxSite = Pick<SiteConfig, "url" | "urls">;

export interface OutboxInput {
  readonly activities: readonly EventActivity[];
  /** The events published now, by key, for the objects of `Create` and `Update`. */
  readonly events: ReadonlyMap<string, CalendarEvent>;
}

export function outboxKey(event: {
  readonly calendarId: string;
  readonly eventId: string;
}): string {
  return `${event.calendarId}\u0000${event.eventId}`;
}

export function outboxPageCount(activities: number): number {
  return Math.max(1, Math.ceil(activities / OUTBOX_PAGE_SIZE));
}

/** /ap/outbox.json: how many activities, and where the pages are. */
export function renderOutbox(site: OutboxSite, account: Account, total: number): string {
  const pages = outboxPageCount(total);
  return json({
    "@context": EVENT_CONTEXT,
    id: account.outbox,
    type: "OrderedCollection",
    totalItems: total,
    first: site.urls.absolute(paths.apOutboxPage(1)),
    last: site.urls.absolute(paths.apOutboxPage(pages)),
  });
}

/** /ap/outbox/{n}.json: the n-th OUTBOX_PAGE_SIZE activities, newest first. */
export function renderOutboxPage(
  site: OutboxSite,
  account: Account,
  input: OutboxInput,
  n: number,
): string {
  const pages = outboxPageCount(input.activities.length);
  const items = input.activities.slice((n - 1) * OUTBOX_PAGE_SIZE, n * OUTBOX_PAGE_SIZE);
  return json({
    "@context": EVENT_CONTEXT,
    id: site.urls.absolute(paths.apOutboxPage(n)),
    type: "OrderedCollectionPage",
    partOf: account.outbox,
    ...(n > 1 ? { prev: site.urls.absolute(paths.apOutboxPage(n - 1)) } : {}),
    ...(n < pages ? { next: site.urls.absolute(paths.apOutboxPage(n + 1)) } : {}),
    orderedItems: items.map((item) =>
      activityOf(item, site, account, input.events.get(outboxKey(item)) ?? null),
    ),
  });
}

const TYPES = { create: "Create", update: "Update", delete: "Delete" } as const;

/**
 * One activity. `Create` and `Update` carry the event as it is published now
 * (or only its id once it is not published any more); `Delete` its tombstone.
 */
export function activityOf(
  item: EventActivity,
  site: OutboxSite,
  account: Account,
  event: CalendarEvent | null,
): Record<string, unknown> {
  const target = { calendarId: item.calendarId, id: item.eventId };
  const objectId = eventObjectId(site, target);
  const object =
    item.kind === "delete"
      ? tombstone(site, target, item.at)
      : event && !event.history?.removed
        ? eventObject(event, site, account)
        : objectId;
  return {
    id: `${objectId}#${item.kind}-${compactUtc(item.at)}`,
    type: TYPES[item.kind],
    actor: account.actor,
    published: item.at,
    to: [PUBLIC],
    cc: [account.followers],
    object,
  };
}

/** "2026-03-20T12:00:00Z" -> "20260320T120000Z", as the feeds' change items are named. */
function compactUtc(iso: string): string {
  return DateTime.fromISO(iso, { zone: "utc" }).toFormat("yyyyMMdd'T'HHmmss'Z'");
}

function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}
