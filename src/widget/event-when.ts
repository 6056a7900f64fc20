import { DateTime } from "luxon";
import { timeZone } from "../model/time-zone.ts";
import type { CalendarEvent } from "../model/types.ts";

/**
 * When an event happens, as the widget shows it: a start and an optional end,
 * each with the machine-readable value for `<time datetime>` (HTML 4.8.10.3)
 * and the display text. The browser script formats with the same Intl
 * options, so a re-render in the browser looks like the build-time page.
 */
export interface WhenPart {
  readonly datetime: string;
  readonly text: string;
}

export interface EventWhen {
  readonly start: WhenPart;
  readonly end: WhenPart | null;
  /** Short zone name, shown when the event's zone differs from its calendar's. */
  readonly zone: string | null;
}

export interface WhenContext {
  readonly locale: string;
  readonly calendarZone: string;
  /** Year of "now"; dates in other years show their year. */
  readonly currentYear: number;
}

const TIME = { hour: "2-digit", minute: "2-digit", hourCycle: "h23" } as const;

export function eventWhen(
  event: Pick<CalendarEvent, "start" | "end" | "allDay" | "timeZone">,
  ctx: WhenContext,
): EventWhen {
  const zone = event.timeZone;
  const start = DateTime.fromISO(event.start, { zone: timeZone(zone) }).setLocale(ctx.locale);
  const end = DateTime.fromISO(event.end, { zone: timeZone(zone) }).setLocale(ctx.locale);
  const date = (d: DateTime) =>
    d.toLocaleString({
      weekday: "short",
      day: "numeric",
      month: "short",
      ...(d.year === ctx.currentYear ? {} : { year: "numeric" }),
    });
  const time = (d: DateTime) => d.toLocaleString(TIME);

  if (event.allDay) {
    // All-day ends are exclusive (RFC 5545 3.6.1): the last day is the one before.
    const last = end.minus({ days: 1 });
    const startDate = start.toISODate() ?? "";
    const lastDate = last.toISODate() ?? "";
    return {
      start: { datetime: startDate, text: date(start) },
      end: lastDate > startDate ? { datetime: lastDate, text: date(last) } : null,
      zone: null,
    };
  }
  const startPart = { datetime: event.start, text: `${date(start)}, ${time(start)}` };
  let endPart: WhenPart | null = null;
  if (end > start) {
    const sameDay = end.hasSame(start, "day");
    endPart = { datetime: event.end, text: sameDay ? time(end) : `${date(end)}, ${time(end)}` };
  }
  return {
    start: startPart,
    end: endPart,
    zone: zone === ctx.calendarZone ? null : start.toFormat("ZZZZ"),
  };
}
