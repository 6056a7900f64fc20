import { DateTime } from "luxon";
import type { PublishedState } from "../changes/published-state.ts";
import { endedFrom, endMillis } from "../model/event-times.ts";
import type { CalendarEvent, PortalSnapshot } from "../model/types.ts";
import { feedWindowUntil, subscriptionWindowUntil } from "../outputs/feeds-window.ts";
import { siteWindowUntil } from "../site/views.ts";

/**
 * The next moment at which a date-relative output of this build would change
 * although the portal did not: an event ends and leaves "upcoming" (pages,
 * public JSON counts, widget pages), leaves the feeds, the subscriptions (a
 * cancelled one after its grace) or the site's past window, or the day changes
 * in the site's zone or a calendar's (month grids mark "today", the month
 * view opens on the current month, the widget shows years other than the
 * current one, and the "when" pages turn over: src/site/when builds every
 * range of Today, Tomorrow, This weekend, This week, Next week and This
 * month from whole days, so each of their boundaries, the week's, the
 * weekend's and the month's included, is a midnight in the site's zone for
 * the site-wide pages or in the calendar's zone for a calendar's, and both
 * are among these day changes; test/site/when/when-views.test.ts holds it;
 * so is the day from which an event has share cards of its own,
 * SHARE_CARDS_DAYS before its start in the site's zone: src/cards/share-cards.ts).
 * Every moment comes from the rule the output itself uses
 * (endedFrom, feedWindowUntil, subscriptionWindowUntil, siteWindowUntil), so
 * they cannot drift apart.
 *
 * Nothing published changes when an event starts: it stays upcoming until it
 * ends.
 */

export interface DateWindows {
  readonly now: DateTime;
  /** SITE_TIMEZONE */
  readonly timeZone: string;
  readonly pastDays: number;
  readonly feedPastDays: number;
  readonly cancelledGraceDays: number;
  /** CHANGE_NOTICE_DAYS: how long announcements and "New date" badges stay. */
  readonly changeNoticeDays?: number;
}

export interface NextChange {
  /** The earliest moment after the build's "now" (ms). */
  readonly at: number;
  readonly reason: string;
  /**
   * When the check should ask for a build: the next day change at once, the
   * other moments after `delayMs` (REBUILD_DATE_DELAY), so that events ending
   * close together share one build.
   */
  readonly rebuildAt: number;
  readonly rebuildReason: string;
}

interface Moment {
  readonly at: number;
  readonly reason: string;
}

/**
 * The date-relative moments of one build's events, worked out once (parsing
 * times in IANA zones is what costs): asking what comes next after a given
 * "now" is then a binary search, so a simulated day of checks (npm run bench)
 * asks it thousands of times for the price of one. A build asks once:
 * nextDateChange.
 */
export class DateChanges {
  readonly #zones: readonly string[];
  readonly #moments: readonly EventMoment[];

  constructor(
    snapshot: Pick<PortalSnapshot, "events" | "calendars">,
    windows: Omit<DateWindows, "now">,
    changes: PublishedState | null = null,
  ) {
    this.#zones = zonesOf(snapshot, windows);
    this.#moments = eventMoments(snapshot.events, windows, changes);
  }

  /** The next change after `now`, and when to rebuild for it (`delayMs` after, but a new day at once). */
  next(now: DateTime, delayMs: number): NextChange | null {
    const nowMs = now.toMillis();
    const moments = this.#moments;
    // The first moment strictly after now (binary search over the sorted moments).
    let low = 0;
    let high = moments.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if ((moments[middle]?.at ?? 0) > nowMs) high = middle;
      else low = middle + 1;
    }
    return nextChangeFrom(moments[low] ?? null, now, delayMs, this.#zones);
  }
}

/**
 * The next change after `windows.now` (a build asks once): the earliest of
 * the same moments, found in one pass that makes none of them but the one
 * it keeps (sorting 400,000 moments, each with its reason, was 0.5 s of an
 * edited build at 100,000 events).
 */
export function nextDateChange(
  snapshot: Pick<PortalSnapshot, "events" | "calendars">,
  windows: DateWindows,
  delayMs: number,
  changes: PublishedState | null = null,
): NextChange | null {
  const nowMs = windows.now.toMillis();
  let at = Number.POSITIVE_INFINITY;
  let event: CalendarEvent | null = null;
  let which = 0;
  for (const e of snapshot.events) {
    eachEventMoment(e, windows, (moment, index) => {
      if (moment > nowMs && moment < at) {
        at = moment;
        event = e;
        which = index;
      }
    });
  }
  let found: EventMoment | null = event && momentOf(event, at, which);
  for (const moment of changeMoments(snapshot.events, changes, windows.changeNoticeDays)) {
    if (moment.at > nowMs && (found === null || moment.at < found.at)) found = moment;
  }
  return nextChangeFrom(found, windows.now, delayMs, zonesOf(snapshot, windows));
}

/**
 * `next` with one more moment at which the published site changes by date
 * alone, found while rendering (a calendar file's size budget:
 * FeedScopes.plansChangeAt), waited for as an event's moment is (`delayMs`).
 */
export function withMoment(
  next: NextChange | null,
  at: number | null,
  reason: string,
  delayMs: number,
): NextChange | null {
  if (at === null) return next;
  const rebuildAt = at + delayMs;
  if (next === null) return { at, reason, rebuildAt, rebuildReason: reason };
  return {
    ...(at < next.at ? { at, reason } : { at: next.at, reason: next.reason }),
    ...(rebuildAt < next.rebuildAt
      ? { rebuildAt, rebuildReason: reason }
      : { rebuildAt: next.rebuildAt, rebuildReason: next.rebuildReason }),
  };
}

/** The site's zone and its calendars': each one's midnight is a change. */
function zonesOf(
  snapshot: Pick<PortalSnapshot, "calendars">,
  windows: Pick<DateWindows, "timeZone">,
): string[] {
  return [...new Set([windows.timeZone, ...snapshot.calendars.map((c) => c.timeZone)])];
}

/** The change after `now`: the first event moment after it (`found`) or the next midnight in one of `zones`. */
function nextChangeFrom(
  found: EventMoment | null,
  now: DateTime,
  delayMs: number,
  zones: readonly string[],
): NextChange | null {
  const nowMs = now.toMillis();
  const event = new Earliest(nowMs);
  if (found) event.consider(found.at, found.reason);
  const day = new Earliest(nowMs);
  for (const zone of zones) {
    const midnight = now.setZone(zone).startOf("day").plus({ days: 1 }).toMillis();
    day.consider(midnight, () => `the day changes in ${zone}`);
  }

  const first = earliestOf([event.moment, day.moment]);
  const delayed = event.moment && { ...event.moment, at: event.moment.at + delayMs };
  const due = earliestOf([delayed, day.moment]);
  if (!first || !due) return null;
  return { at: first.at, reason: first.reason, rebuildAt: due.at, rebuildReason: due.reason };
}

interface EventMoment {
  readonly at: number;
  readonly reason: () => string;
}

/** What happens to an event at each of its moments, in eachEventMoment's order. */
const EVENT_MOMENTS = [
  "ends",
  "leaves the feeds",
  "leaves the calendar subscriptions",
  "leaves the site",
] as const;

/** An event's moments, each with its index in EVENT_MOMENTS. */
function eachEventMoment(
  e: CalendarEvent,
  windows: Omit<DateWindows, "now">,
  visit: (at: number, index: number) => void,
): void {
  const endMs = endMillis(e);
  visit(endedFrom(e), 0);
  visit(feedWindowUntil(endMs, windows), 1);
  visit(subscriptionWindowUntil(e, endMs, windows), 2);
  visit(siteWindowUntil(e, windows.pastDays), 3);
}

function momentOf(e: CalendarEvent, at: number, index: number): EventMoment {
  return {
    at,
    reason: () => `event "${e.id}" in calendar "${e.calendarId}" ${EVENT_MOMENTS[index]}`,
  };
}

/** Every event's moments, sorted. */
function eventMoments(
  events: readonly CalendarEvent[],
  windows: Omit<DateWindows, "now">,
  changes: PublishedState | null,
): EventMoment[] {
  const moments: EventMoment[] = [];
  for (const e of events) {
    eachEventMoment(e, windows, (at, index) => {
      moments.push(momentOf(e, at, index));
    });
  }
  moments.push(...changeMoments(events, changes, windows.changeNoticeDays));
  moments.sort((a, b) => a.at - b.at);
  return moments;
}

/**
 * What the changes publish for a while (src/changes/detect-changes.ts, whose
 * conditions these invert): an announcement stays while it is at most
 * `changeNoticeDays` old, a "New date" badge while the new date is, and a
 * deleted event stays published as cancelled until its `until`.
 */
function changeMoments(
  events: readonly CalendarEvent[],
  changes: PublishedState | null,
  noticeDays: number | undefined,
): EventMoment[] {
  const moments: EventMoment[] = [];
  const notice = (noticeDays ?? 0) * DAY_MS;
  if (noticeDays !== undefined) {
    for (const e of events) {
      const at = e.history?.newDate ? e.history.rescheduledAt : null;
      if (!at) continue;
      moments.push({
        at: Date.parse(at) + notice + 1,
        reason: () => `the "New date" of event "${e.id}" in calendar "${e.calendarId}" ends`,
      });
    }
    for (const item of changes?.announcements ?? []) {
      moments.push({
        at: Date.parse(item.at) + notice + 1,
        reason: () => `the announcement ${item.id} ends`,
      });
    }
  }
  for (const record of changes?.removed ?? []) {
    moments.push({
      at: Date.parse(record.until) + 1,
      reason: () =>
        `deleted event "${record.id}" in calendar "${record.calendarId}" leaves the subscriptions`,
    });
  }
  return moments.filter((m) => !Number.isNaN(m.at));
}

const DAY_MS = 86_400_000;

class Earliest {
  moment: Moment | null = null;
  constructor(readonly afterMs: number) {}
  consider(at: number, reason: () => string): void {
    if (at > this.afterMs && (this.moment === null || at < this.moment.at)) {
      this.moment = { at, reason: reason() };
    }
  }
}

function earliestOf(moments: readonly (Moment | null)[]): Moment | null {
  let best: Moment | null = null;
  for (const m of moments) if (m && (!best || m.at < best.at)) best = m;
  return best;
}

/** For messages: "2026-03-20T21:00:00Z". */
export function isoSeconds(ms: number): string {
  return DateTime.fromMillis(ms, { zone: "utc" }).toISO({ suppressMilliseconds: true }) ?? "";
}
