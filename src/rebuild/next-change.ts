import { DateTime } from "luxon";
import { endedFrom, validEventTimes } from "../model/event-times.ts";
import type { PortalSnapshot } from "../model/types.ts";
import { feedWindowUntil, subscriptionWindowUntil } from "../outputs/feeds-window.ts";
import { siteWindowUntil } from "../site/views.ts";

/**
 * The next moment at which a date-relative output of this build would change
 * although the portal did not: an event ends and leaves "upcoming" (pages,
 * public JSON counts, widget pages), leaves the feeds, the subscriptions (a
 * cancelled one after its grace) or the site's past window, or the day changes
 * in the site's zone or a calendar's (month grids mark "today", the month
 * view opens on the current month, the widget shows years other than the
 * current one). Every moment comes from the rule the output itself uses
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

export function nextDateChange(
  snapshot: Pick<PortalSnapshot, "events" | "calendars">,
  windows: DateWindows,
  delayMs: number,
): NextChange | null {
  const nowMs = windows.now.toMillis();
  const event = new Earliest(nowMs);
  for (const e of snapshot.events) {
    const times = validEventTimes(e);
    const name = () => `event "${e.id}" in calendar "${e.calendarId}"`;
    event.consider(endedFrom(e), () => `${name()} ends`);
    event.consider(feedWindowUntil(times, windows), () => `${name()} leaves the feeds`);
    event.consider(
      subscriptionWindowUntil(e, times, windows),
      () => `${name()} leaves the calendar subscriptions`,
    );
    event.consider(siteWindowUntil(e, windows.pastDays), () => `${name()} leaves the site`);
  }
  const day = new Earliest(nowMs);
  for (const zone of new Set([windows.timeZone, ...snapshot.calendars.map((c) => c.timeZone)])) {
    const midnight = windows.now.setZone(zone).startOf("day").plus({ days: 1 }).toMillis();
    day.consider(midnight, () => `the day changes in ${zone}`);
  }

  const first = earliestOf([event.moment, day.moment]);
  const delayed = event.moment && { ...event.moment, at: event.moment.at + delayMs };
  const due = earliestOf([delayed, day.moment]);
  if (!first || !due) return null;
  return { at: first.at, reason: first.reason, rebuildAt: due.at, rebuildReason: due.reason };
}

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
