import { DateTime } from "luxon";
import { calendarIdsOf } from "../../model/event-calendars.ts";
import { endMillis, startMillis } from "../../model/event-times.ts";
import { groupEvents } from "../../model/group-events.ts";
import { timeZone } from "../../model/time-zone.ts";
import type { Calendar, CalendarEvent } from "../../model/types.ts";
import { paths } from "../../model/url-scheme.ts";
import { eventDays, isOn } from "./event-days.ts";
import { addDays, type DayRange, WHEN_KEYS, type WhenKey, whenRange } from "./ranges.ts";
import { type WeekRules, weekRules } from "./week-rules.ts";

/**
 * The "when" pages (Today, Tomorrow, This weekend, This week, Next week,
 * This month), site-wide in the site's zone and per calendar in the
 * calendar's, worked out once per build from the site's views.
 *
 * Each page holds two views: the build's day and the next one. The page
 * shows the first; its script (src/site/browser/when.ts) switches to the
 * second once the visitor's clock has passed midnight in the page's zone, so
 * a page served a few hours after the day changed (before the rebuild the day
 * change triggers has been published) still shows the right events and date.
 * Both views depend on the date only, never on the hour: a rebuild at any
 * later time of the same day writes the same bytes.
 *
 * Cost: one pass over the site's events picks those near the build's days
 * (the candidates); each page then reads only its scope's candidates, and
 * looks up the next event after its range by binary search.
 */

/** The build's day and the one after it. */
export const WHEN_VARIANTS = 2;

export interface WhenVariant {
  /** The date (yyyy-mm-dd, in the page's zone) this view is for. */
  readonly today: string;
  readonly range: DayRange;
  /** The events on the range's days, in the site's order. */
  readonly events: readonly CalendarEvent[];
  /** The first scheduled event on a day after the range, for "Nothing today; next: …". */
  readonly next: CalendarEvent | null;
}

export interface WhenRow {
  readonly event: CalendarEvent;
  /** The views that show this row ("0", "1", "0 1"); null: the same as its day's. */
  readonly in: string | null;
  /** Not shown in the build's view although its day is. */
  readonly hidden: boolean;
}

/** Which of a page's views show a part of it. */
export interface ShownIn {
  /** The views that show it ("0", "1", "0 1"). */
  readonly in: string;
  /** Not shown in the build's view (view 0). */
  readonly hidden: boolean;
}

/** The events listed under one day: each under the first day of the range it is on. */
export interface WhenDay extends ShownIn {
  readonly date: string;
  readonly rows: readonly WhenRow[];
  /** The rows' events (what the page's "Data updated" line reads). */
  readonly events: readonly CalendarEvent[];
}

export interface WhenPage {
  readonly key: WhenKey;
  /** Site path of the page (src/model/url-scheme.ts). */
  readonly path: string;
  /** Site path of its JSON (docs/public-json.md). */
  readonly jsonPath: string;
  /** Null for the site-wide pages. */
  readonly calendar: Calendar | null;
  /** The zone its days are in: the site's, or the calendar's. */
  readonly zone: string;
  /**
   * When each view holds: view i from bounds[i] until bounds[i + 1] (ISO
   * instants, the starts of days in `zone`). After the last, the page is out
   * of date.
   */
  readonly bounds: readonly string[];
  readonly variants: readonly WhenVariant[];
  /** The page's headings: one per distinct range of its views. */
  readonly headings: readonly WhenShown<DayRange>[];
  /** What the views without events say instead: one per distinct next event. */
  readonly empty: readonly WhenShown<CalendarEvent | null>[];
  readonly days: readonly WhenDay[];
}

/** A part of the page that one or more views show. */
export interface WhenShown<T> extends ShownIn {
  readonly value: T;
}

/** The pages of one scope: the site, or one calendar. */
export interface WhenScope {
  readonly calendarId: string | null;
  readonly pages: readonly WhenPage[];
}

export interface WhenViews {
  readonly rules: WeekRules;
  /** Every page: the site's, then each calendar's, in WHEN_KEYS order. */
  readonly pages: readonly WhenPage[];
  readonly scopes: readonly WhenScope[];
}

export interface WhenSource {
  /** The events on the site, in the site's order (SiteViews.events). */
  readonly events: readonly CalendarEvent[];
  /** The upcoming ones (SiteViews.upcoming). */
  readonly upcoming: readonly CalendarEvent[];
  /** Each calendar with its upcoming events (SiteViews.calendars). */
  readonly calendars: readonly {
    readonly calendar: Calendar;
    readonly upcoming: readonly CalendarEvent[];
  }[];
}

export interface WhenOptions {
  readonly now: DateTime;
  /** SITE_TIMEZONE: the site-wide pages' zone. */
  readonly timeZone: string;
  /** SITE_LANG: its week rules (src/site/when/week-rules.ts). */
  readonly lang: string;
}

const DAY_MS = 86_400_000;
/** Wider than any zone's offset from another (26 hours): all-day events keep their dates everywhere. */
const MARGIN_MS = 2 * DAY_MS;

export function buildWhenViews(source: WhenSource, options: WhenOptions): WhenViews {
  const rules = weekRules(options.lang);
  const zones = [options.timeZone, ...source.calendars.map((s) => s.calendar.timeZone)];
  const candidates = eventsNear(source.events, new Set(zones), options.now, rules);
  const byCalendar = groupEvents(candidates, calendarIdsOf);
  const scopes: WhenScope[] = [
    {
      calendarId: null,
      pages: scopePages(null, options.timeZone, candidates, source.upcoming, options.now, rules),
    },
    ...source.calendars.map(({ calendar, upcoming }) => ({
      calendarId: calendar.id,
      pages: scopePages(
        calendar,
        calendar.timeZone,
        byCalendar.get(calendar.id) ?? [],
        upcoming,
        options.now,
        rules,
      ),
    })),
  ];
  return { rules, pages: scopes.flatMap((scope) => scope.pages), scopes };
}

/** The build's day and the next ones, as dates in `zone`. */
function viewDays(now: DateTime, zone: string): string[] {
  const today = now.setZone(timeZone(zone)).toISODate() ?? "";
  return Array.from({ length: WHEN_VARIANTS }, (_, i) => addDays(today, i));
}

/** The start of a date in a zone, as an ISO instant with the zone's offset. */
function startOfDay(date: string, zone: string): DateTime {
  return DateTime.fromISO(date, { zone: timeZone(zone) }).startOf("day");
}

/**
 * The events that can be on some page's days: one pass over all events,
 * comparing instants with a margin; the pages then decide by dates.
 */
function eventsNear(
  events: readonly CalendarEvent[],
  zones: ReadonlySet<string>,
  now: DateTime,
  rules: WeekRules,
): CalendarEvent[] {
  let from = Number.POSITIVE_INFINITY;
  let until = Number.NEGATIVE_INFINITY;
  for (const zone of zones) {
    const days = viewDays(now, zone);
    const first = days[0] ?? "";
    let last = first;
    for (const key of WHEN_KEYS) {
      for (const today of days) {
        const range = whenRange(key, today, rules);
        if (range.last > last) last = range.last;
      }
    }
    from = Math.min(from, startOfDay(first, zone).toMillis());
    until = Math.max(until, startOfDay(addDays(last, 1), zone).toMillis());
  }
  from -= MARGIN_MS;
  until += MARGIN_MS;
  return events.filter((event) => startMillis(event) < until && endMillis(event) >= from);
}

function scopePages(
  calendar: Calendar | null,
  zone: string,
  candidates: readonly CalendarEvent[],
  upcoming: readonly CalendarEvent[],
  now: DateTime,
  rules: WeekRules,
): WhenPage[] {
  const days = viewDays(now, zone);
  const bounds = [...days, addDays(days.at(-1) ?? "", 1)].map(
    (date) => startOfDay(date, zone).toISO({ suppressMilliseconds: true }) ?? "",
  );
  // Each candidate's days in this scope's zone, once for the six pages.
  const candidateDays = candidates.map((event) => ({ event, on: eventDays(event, zone) }));
  return WHEN_KEYS.map((key) => {
    const ranges = days.map((today) => whenRange(key, today, rules));
    const variantEvents = ranges.map((): CalendarEvent[] => []);
    // date -> event -> the views listing it under that date
    const sections = new Map<string, Map<CalendarEvent, number[]>>();
    for (const { event, on } of candidateDays) {
      ranges.forEach((range, view) => {
        if (!isOn(on, range)) return;
        variantEvents[view]?.push(event);
        const date = on.first > range.first ? on.first : range.first;
        let rows = sections.get(date);
        if (!rows) {
          rows = new Map();
          sections.set(date, rows);
        }
        const views = rows.get(event);
        if (views) views.push(view);
        else rows.set(event, [view]);
      });
    }
    const variants = ranges.map((range, view) => ({
      today: days[view] ?? "",
      range,
      events: variantEvents[view] ?? [],
      next: nextAfter(upcoming, range, zone),
    }));
    return {
      key,
      path: calendar ? paths.calendarWhen(calendar.id, key) : paths.when(key),
      jsonPath: calendar ? paths.apiCalendarWhen(calendar.id, key) : paths.apiWhen(key),
      calendar,
      zone,
      bounds,
      variants,
      headings: shownBy(
        variants.map((variant) => variant.range),
        sameRange,
      ),
      empty: shownBy(
        variants.map((variant) => (variant.events.length ? undefined : variant.next)),
        (a, b) => a === b,
      ),
      days: [...sections]
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([date, rows]) => whenDay(date, rows)),
    };
  });
}

function whenDay(date: string, rows: ReadonlyMap<CalendarEvent, readonly number[]>): WhenDay {
  const dayViews = new Set<number>();
  for (const views of rows.values()) for (const view of views) dayViews.add(view);
  const day = shownIn([...dayViews].sort());
  return {
    date,
    ...day,
    rows: [...rows].map(([event, views]) => {
      const row = shownIn(views);
      return row.in === day.in ? { event, in: null, hidden: false } : { event, ...row };
    }),
    events: [...rows.keys()],
  };
}

/** A part of the page shown by `views`, in their order. */
function shownIn(views: readonly number[]): ShownIn {
  return { in: views.join(" "), hidden: !views.includes(0) };
}

const sameRange = (a: DayRange, b: DayRange) => a.first === b.first && a.last === b.last;

/** Each distinct value of the views (undefined: nothing to show), with the views showing it. */
function shownBy<T>(
  values: readonly (T | undefined)[],
  same: (a: T, b: T) => boolean,
): WhenShown<T>[] {
  const shown: { value: T; views: number[] }[] = [];
  values.forEach((value, view) => {
    if (value === undefined) return;
    const found = shown.find((item) => same(item.value, value));
    if (found) found.views.push(view);
    else shown.push({ value, views: [view] });
  });
  return shown.map(({ value, views }) => ({ value, ...shownIn(views) }));
}

/**
 * The first scheduled event (not cancelled or postponed, whose date is not
 * one) on a day after the range, in the site's order: found by binary search
 * on the start instants, from two days before the range ends.
 */
function nextAfter(
  upcoming: readonly CalendarEvent[],
  range: DayRange,
  zone: string,
): CalendarEvent | null {
  const after = startOfDay(addDays(range.last, 1), zone).toMillis() - MARGIN_MS;
  let low = 0;
  let high = upcoming.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    const event = upcoming[middle];
    if (event && startMillis(event) < after) low = middle + 1;
    else high = middle;
  }
  for (let i = low; i < upcoming.length; i++) {
    const event = upcoming[i];
    if (event?.status === "scheduled" && eventDays(event, zone).first > range.last) return event;
  }
  return null;
}
