import type { DateTime } from "luxon";
import { count } from "../metrics.ts";
import { isValidZone } from "../model/dates.ts";
import {
  type EventTimes,
  endMillis,
  eventTimes,
  startMillis,
  validEventTimes,
} from "../model/event-times.ts";
import { offsetInstant } from "../model/offset-times.ts";
import { byStartMs } from "../model/order.ts";
import type { CalendarEvent } from "../model/types.ts";

/**
 * Which events a feed or a calendar subscription carries. Relative to the
 * build's pinned "now" (SiteConfig.now), never to the machine clock, so two
 * builds of the same snapshot select the same events.
 */

export interface TimedEvent {
  readonly event: CalendarEvent;
  readonly startMs: number;
  readonly endMs: number;
  /** Parsed in the event's zone on first use: only for events a file shows. */
  readonly times: EventTimes;
}

class Timed implements TimedEvent {
  constructor(
    readonly event: CalendarEvent,
    readonly startMs: number,
    readonly endMs: number,
  ) {}

  get times(): EventTimes {
    return validEventTimes(this.event);
  }
}

/** Whether the event's times are usable, without parsing them in its zone when their form says so. */
function readableTimes(event: CalendarEvent): boolean {
  if (offsetInstant(event.start) !== null && offsetInstant(event.end) !== null) {
    return isValidZone(event.timeZone);
  }
  return eventTimes(event) !== null;
}

export type Warn = (message: string) => void;

const warnToConsole: Warn = (message) => console.warn(`[feeds] ${message}`);

/**
 * Reads every event's instants, skips (with a warning naming it) events whose
 * times do not parse and duplicates of an already seen calendar/event id pair
 * (a duplicate would give two VEVENTs the same UID), and sorts by start
 * instant, then calendar id, then event id. Code-unit comparison keeps the
 * order independent of the build machine's locale.
 */
export function timedEvents(
  events: readonly CalendarEvent[],
  warn: Warn = warnToConsole,
): readonly TimedEvent[] {
  // A scope's events are asked for by each of its four files: sort them once.
  let result = sortedScopes.get(events);
  if (!result) {
    result = sortTimedEvents(events, warn);
    sortedScopes.set(events, result);
  }
  return result;
}

const sortedScopes = new WeakMap<readonly CalendarEvent[], readonly TimedEvent[]>();

/**
 * Lists known to hold each calendar/event id pair once at most: their
 * events are not checked for duplicates again. The feed scopes
 * (feed-scopes.ts) check the site's events once for all their lists, which
 * hold an event in six to twelve places; checked list by list, a set of
 * ids each, reading and sorting the lists took twice as long
 * (docs/performance.md, What changed, item 75).
 */
const distinctLists = new WeakSet<readonly CalendarEvent[]>();

/** Says that `events` holds each calendar/event id pair once at most (see distinctEvents). */
export function knownDistinct(events: readonly CalendarEvent[]): void {
  distinctLists.add(events);
}

/** Whether no two of these events, in all the lists, share a calendar and an id. */
export function distinctEvents(...lists: readonly (readonly CalendarEvent[])[]): boolean {
  const seen = new IdsByCalendar();
  for (const events of lists) {
    count("feeds.eventsCheckedForDuplicates", events.length);
    for (const event of events) {
      if (seen.has(event)) return false;
      seen.add(event);
    }
  }
  return true;
}

/** Ids seen, by calendar: no key made per event. */
class IdsByCalendar {
  readonly #ids = new Map<string, Set<string>>();

  has(event: CalendarEvent): boolean {
    return this.#ids.get(event.calendarId)?.has(event.id) ?? false;
  }

  add(event: CalendarEvent): void {
    let ids = this.#ids.get(event.calendarId);
    if (!ids) {
      ids = new Set();
      this.#ids.set(event.calendarId, ids);
    }
    ids.add(event.id);
  }
}

function sortTimedEvents(events: readonly CalendarEvent[], warn: Warn): TimedEvent[] {
  const seen = distinctLists.has(events) ? null : new IdsByCalendar();
  if (seen) count("feeds.eventsCheckedForDuplicates", events.length);
  const result: TimedEvent[] = [];
  for (const event of events) {
    if (seen?.has(event)) {
      warn(`skipped duplicate event "${event.id}" in calendar "${event.calendarId}"`);
      continue;
    }
    const timed = timedEvent(event);
    if (!timed) {
      warn(
        `skipped event "${event.id}" in calendar "${event.calendarId}": invalid start/end or time zone`,
      );
      continue;
    }
    seen?.add(event);
    result.push(timed);
  }
  return result.sort(compareTimedEvents);
}

// An event is in many scopes (the site, its calendar, categories, pairs,
// place, series) and each scope's list holds it: its times are read and
// checked once, into one Timed per event, not one per event and scope, which
// at 100,000 events held about 60 MB more.
const timedOnce = new WeakMap<CalendarEvent, TimedEvent | null>();

/** Null when the event's times or zone are unusable. */
function timedEvent(event: CalendarEvent): TimedEvent | null {
  let timed = timedOnce.get(event);
  if (timed === undefined) {
    timed = readableTimes(event) ? new Timed(event, startMillis(event), endMillis(event)) : null;
    timedOnce.set(event, timed);
  }
  return timed;
}

function compareTimedEvents(a: TimedEvent, b: TimedEvent): number {
  return byStartMs(a.startMs, a.event, b.startMs, b.event);
}

export interface FeedWindow {
  readonly now: DateTime;
  /** Days of recent past kept after an event has ended. */
  readonly feedPastDays: number;
}

export interface NewsFeedWindow extends FeedWindow {
  /** Most items one feed carries. */
  readonly feedMaxItems: number;
}

export interface SubscriptionWindow extends FeedWindow {
  /** Days a cancelled event stays (as STATUS:CANCELLED) after its end. */
  readonly cancelledGraceDays: number;
}

const DAY_MS = 86_400_000;

/**
 * The first instant (ms) at which an event is no longer in the feeds:
 * `feedPastDays` whole days (of 24 h, as "now" is UTC) after its end (`endMs`,
 * TimedEvent's, from endMillis). Both selections below
 * are written in terms of these, and so is the rebuild check's next
 * date-relative change (src/rebuild/next-change.ts).
 */
export function feedWindowUntil(endMs: number, window: Pick<FeedWindow, "feedPastDays">): number {
  return endMs + window.feedPastDays * DAY_MS + 1;
}

/** The first instant (ms) at which an event is no longer in the subscriptions. */
export function subscriptionWindowUntil(
  event: Pick<CalendarEvent, "status">,
  endMs: number,
  window: Pick<SubscriptionWindow, "feedPastDays" | "cancelledGraceDays">,
): number {
  const days = event.status === "cancelled" ? window.cancelledGraceDays : window.feedPastDays;
  return endMs + days * DAY_MS + 1;
}

/**
 * Feeds: upcoming and ongoing events plus those that ended within
 * `feedPastDays`, at most `feedMaxItems` of them. A reader downloads the whole
 * file on every poll and shows its items as news, so a large calendar keeps
 * the events nearest to now: those not yet ended, soonest first, then the
 * most recently ended. The result stays in start order.
 */
export function selectFeedEvents(
  events: readonly TimedEvent[],
  window: NewsFeedWindow,
): readonly TimedEvent[] {
  const nowMs = window.now.toMillis();
  const inWindow = events.filter((timed) => nowMs < feedWindowUntil(timed.endMs, window));
  const max = window.feedMaxItems;
  if (inWindow.length <= max) return inWindow;
  // "Current" is the endedBefore rule (endedFrom): the split moves when an event ends.
  const current = inWindow.filter((timed) => timed.endMs >= nowMs);
  if (current.length >= max) return current.slice(0, max);
  const ended = inWindow.filter((timed) => timed.endMs < nowMs);
  const keep = new Set(ended.sort((a, b) => b.endMs - a.endMs).slice(0, max - current.length));
  return inWindow.filter((timed) => keep.has(timed) || timed.endMs >= nowMs);
}

/**
 * Subscriptions: the feed window for scheduled and postponed events. A
 * cancelled event is kept until `cancelledGraceDays` after its end, so a
 * client that already stored it learns of the cancellation (RFC 5546 3.2.5
 * semantics through STATUS:CANCELLED) instead of seeing it silently vanish.
 */
export function selectSubscriptionEvents(
  events: readonly TimedEvent[],
  window: SubscriptionWindow,
): TimedEvent[] {
  const nowMs = window.now.toMillis();
  return events.filter(({ event, endMs }) => nowMs < subscriptionWindowUntil(event, endMs, window));
}
