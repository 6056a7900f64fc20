import { DateTime } from "luxon";
import { calendarIdsOf } from "../model/event-calendars.ts";
import { sourceIdsOf } from "../model/event-sources.ts";
import {
  endedBefore,
  endedFrom,
  localDays,
  localStartDate,
  sameLocalDay,
  validEventTimes,
} from "../model/event-times.ts";
import { groupEvents } from "../model/group-events.ts";
import { PerEvent } from "../model/per-event.ts";
import { timeZone } from "../model/time-zone.ts";
import type {
  Calendar,
  CalendarEvent,
  Category,
  PortalSnapshot,
  UpcomingAndPast,
} from "../model/types.ts";
import { paths } from "../model/url-scheme.ts";
import { PlaceIndex } from "../places/place-index.ts";
import { type PlacePageOf, placePages } from "../places/place-pages.ts";
import { SeriesIndex } from "../series/series-index.ts";
import { type SeriesPage, seriesPages } from "../series/series-pages.ts";
import { dayAround, monthGrid } from "./month-grid.ts";
import { type OrganizationSummary, organizationSummaries } from "./organizations.ts";

/**
 * Everything the page templates iterate over, derived once per build from the
 * snapshot: which events are upcoming or past, list pages grouped by day, month
 * grids (only for months that have events), categories and event pages.
 * Pure: the same snapshot and clock always give the same views.
 */

export const EVENTS_PER_LIST_PAGE = 20;
const HOME_EVENT_COUNT = 20;

export interface DayGroup {
  /** ISO date (yyyy-mm-dd) in the page's zone. */
  readonly date: string;
  readonly events: readonly CalendarEvent[];
}

export interface ListPage extends DayListPage {
  readonly calendar: Calendar;
  readonly kind: "upcoming" | "past";
}

export interface MonthDay {
  readonly date: string;
  readonly inMonth: boolean;
  readonly isToday: boolean;
  readonly events: readonly CalendarEvent[];
}

export interface MonthRef {
  readonly year: number;
  readonly month: number;
  /** Site path of the month's page (src/model/url-scheme.ts); templates link it with `href`. */
  readonly path: string;
}

export interface MonthPage extends MonthRef {
  readonly calendar: Calendar;
  readonly weeks: readonly (readonly MonthDay[])[];
  readonly eventCount: number;
  /**
   * Timed events of the two days before and after the month (in the calendar's
   * zone) that are not in it: in a visitor's zone they may fall on one of its
   * days, and the page's "Show in my time zone" places them there.
   */
  readonly nearby: readonly CalendarEvent[];
  readonly previous: MonthRef | null;
  readonly next: MonthRef | null;
}

export interface CalendarSummary extends UpcomingAndPast {
  readonly calendar: Calendar;
  readonly path: string;
  readonly pastPath: string;
  readonly months: readonly MonthRef[];
}

export interface CategorySummary extends UpcomingAndPast {
  readonly category: Category;
  readonly path: string;
}

/** A page of a category's upcoming events (/categories/{id}/, page/2/...). */
export interface CategoryPage extends DayListPage {
  readonly summary: CategorySummary;
}

export interface EventPage {
  readonly event: CalendarEvent;
  readonly calendar: Calendar;
  readonly path: string;
  /** The organizations that publish it, in a site of several sources; absent otherwise. */
  readonly publishedBy?: readonly OrganizationSummary[];
  readonly isPast: boolean;
}

/** One page of a paged day list, with its neighbours for the pager. */
export interface DayListPage {
  readonly path: string;
  readonly pageNumber: number;
  readonly pageCount: number;
  readonly eventCount: number;
  readonly days: readonly DayGroup[];
  readonly previousPath: string | null;
  readonly nextPath: string | null;
}

/** A page of the site-wide list of upcoming events (/events/, /events/page/2/...). */
export type AllEventsPage = DayListPage;

export interface SiteViews {
  /** Events on the site: upcoming ones and those that ended within the past window. */
  readonly events: readonly CalendarEvent[];
  readonly upcoming: readonly CalendarEvent[];
  /** The next events across all calendars, for the home page. */
  readonly homeDays: readonly DayGroup[];
  readonly homeEventCount: number;
  /** Every upcoming event across calendars, grouped by day in the site's zone, paged. */
  readonly allEventsPages: readonly AllEventsPage[];
  readonly calendars: readonly CalendarSummary[];
  readonly categories: readonly CategorySummary[];
  /** Every category's upcoming events, paged like the calendars' lists. */
  readonly categoryPages: readonly CategoryPage[];
  readonly listPages: readonly ListPage[];
  readonly monthPages: readonly MonthPage[];
  readonly eventPages: readonly EventPage[];
  /** Places with a page, and the place of each event (src/places). */
  readonly places: PlaceIndex;
  /** Every place's pages of upcoming and past events. */
  readonly placePages: readonly PlacePage[];
  /** Series, and the series of each event (src/series). */
  readonly series: SeriesIndex;
  readonly seriesPages: readonly SeriesPage[];
  /** A site of several sources: each organization (none for a site of one portal). */
  readonly organizations: readonly OrganizationSummary[];
  /** Each organization's pages of upcoming events (/organizations/{id}/, page/2/...). */
  readonly organizationPages: readonly OrganizationPage[];
  /** The page listing the organizations: one when there are several, else none. */
  readonly organizationIndex: readonly { readonly path: string }[];
}

/** A page of an organization's upcoming events. */
export type OrganizationPage = DayListPage & { readonly summary: OrganizationSummary };

/** A page of a place's upcoming or past events (/places/{key}/, page/2/, past/...). */
export type PlacePage = DayListPage & PlacePageOf;

export interface ViewOptions {
  readonly now: DateTime;
  readonly pastDays: number;
  /** Zone for pages spanning calendars (home, categories). */
  readonly timeZone: string;
  /** COLLAPSE_SERIES: lists of upcoming events show each series once, at its next date. */
  readonly collapseSeries?: boolean;
  /**
   * The ISO weekday (1 Monday ... 7 Sunday) the month grids' weeks start on:
   * the site locale's CLDR first day (src/site/when/week-rules.ts); Monday
   * (ISO 8601) when not given.
   */
  readonly firstDay?: number;
}

const DAY_MS = 86_400_000;

/**
 * The first instant (ms) at which an event leaves the site (archive, event
 * page, public JSON): `pastDays` whole days after it ended. The public JSON
 * and the rebuild check's next date-relative change use it too.
 */
export function siteWindowUntil(event: CalendarEvent, pastDays: number): number {
  return endedFrom(event) + pastDays * DAY_MS;
}

export function buildViews(snapshot: PortalSnapshot, options: ViewOptions): SiteViews {
  const nowMs = options.now.toMillis();
  const days = new LocalDays();
  const events = snapshot.events.filter((e) => nowMs < siteWindowUntil(e, options.pastDays));
  const isPast = (e: CalendarEvent) => endedBefore(e, nowMs);
  const upcoming = events.filter((e) => !isPast(e));
  const past = events.filter(isPast).reverse();

  // Grouped once: a filter per calendar would read every event once per calendar.
  // An event other sources publish too is listed in each of their calendars (docs/sources.md).
  const eventsOf = groupEvents(events, calendarIdsOf);
  const upcomingOf = groupEvents(upcoming, calendarIdsOf);
  const pastOf = groupEvents(past, calendarIdsOf);
  const calendars = snapshot.calendars.map(
    (calendar): CalendarSummary => ({
      calendar,
      path: paths.calendar(calendar.id),
      pastPath: paths.calendarPast(calendar.id),
      upcoming: upcomingOf.get(calendar.id) ?? [],
      past: pastOf.get(calendar.id) ?? [],
      months: monthsWithEvents(eventsOf.get(calendar.id) ?? [], calendar, days),
    }),
  );
  const calendarsById = new Map(snapshot.calendars.map((c) => [c.id, c]));
  const categories = buildCategories(upcoming, past);
  // Places and series: each bucketed once (src/places, src/series).
  const places = new PlaceIndex(upcoming, past);
  const series = new SeriesIndex(
    upcoming,
    past,
    places,
    snapshot.calendars.map((c) => c.id),
  );
  const listed = (list: readonly CalendarEvent[]) =>
    options.collapseSeries ? series.collapse(list) : list;
  const organizations = organizationSummaries(snapshot.sources ?? [], calendars);
  const organizationsById = new Map(organizations.map((o) => [o.organization.id, o]));

  return {
    events,
    upcoming,
    homeDays: groupByDay(listed(upcoming).slice(0, HOME_EVENT_COUNT), options.timeZone, days),
    homeEventCount: HOME_EVENT_COUNT,
    allEventsPages: dayListPages(listed(upcoming), paths.events(), options.timeZone, days),
    calendars,
    categories,
    categoryPages: categoryPages(categories, options.timeZone, days, listed),
    listPages: calendars.flatMap((summary) => [
      ...listPages(summary.calendar, "upcoming", listed(summary.upcoming), summary.path, days),
      ...listPages(summary.calendar, "past", summary.past, summary.pastPath, days),
    ]),
    monthPages: calendars.flatMap((summary) =>
      monthPages(
        summary,
        eventsOf.get(summary.calendar.id) ?? [],
        options.now.setZone(timeZone(summary.calendar.timeZone)),
        days,
        options.firstDay ?? 1,
      ),
    ),
    eventPages: events.flatMap((event) => {
      const calendar = calendarsById.get(event.calendarId);
      if (!calendar) return [];
      const path = paths.event(calendar.id, event.id);
      const publishedBy = sourceIdsOf(event).flatMap((id) => organizationsById.get(id) ?? []);
      return [
        {
          event,
          calendar,
          path,
          ...(publishedBy.length ? { publishedBy } : {}),
          isPast: isPast(event),
        },
      ];
    }),
    places,
    placePages: placePages(
      places,
      (list, first) => dayListPages(list, first, options.timeZone, days),
      listed,
    ),
    series,
    seriesPages: seriesPages(series, calendarsById),
    organizations,
    organizationPages: organizations.flatMap((summary) =>
      dayListPages(listed(summary.upcoming), summary.path, options.timeZone, days).map((page) => ({
        ...page,
        summary,
      })),
    ),
    organizationIndex: organizations.length > 1 ? [{ path: paths.organizations() }] : [],
  };
}

function groupByDay(
  events: readonly CalendarEvent[],
  timeZone: string,
  days: LocalDays,
): DayGroup[] {
  const groups = new Map<string, CalendarEvent[]>();
  for (const event of events) {
    const date = days.startDate(event, timeZone);
    const group = groups.get(date);
    if (group) group.push(event);
    else groups.set(date, [event]);
  }
  return [...groups].map(([date, groupEvents]) => ({ date, events: groupEvents }));
}

function listPages(
  calendar: Calendar,
  kind: ListPage["kind"],
  events: readonly CalendarEvent[],
  firstPath: string,
  days: LocalDays,
): ListPage[] {
  return dayListPages(events, firstPath, calendar.timeZone, days).map((page) => ({
    ...page,
    calendar,
    kind,
  }));
}

function categoryPages(
  categories: readonly CategorySummary[],
  timeZone: string,
  days: LocalDays,
  listed: (events: readonly CalendarEvent[]) => readonly CalendarEvent[],
): CategoryPage[] {
  return categories.flatMap((summary) =>
    dayListPages(listed(summary.upcoming), summary.path, timeZone, days).map((page) => ({
      ...page,
      summary,
    })),
  );
}

/** `events` in pages of EVENTS_PER_LIST_PAGE, the first at `first`, then `first`page/2/... */
function dayListPages(
  events: readonly CalendarEvent[],
  first: string,
  timeZone: string,
  days: LocalDays,
): DayListPage[] {
  const pageCount = Math.max(1, Math.ceil(events.length / EVENTS_PER_LIST_PAGE));
  const pathOf = (n: number) => paths.listPage(first, n);
  return Array.from({ length: pageCount }, (_, i) => {
    const pageNumber = i + 1;
    const pageEvents = events.slice(i * EVENTS_PER_LIST_PAGE, pageNumber * EVENTS_PER_LIST_PAGE);
    return {
      path: pathOf(pageNumber),
      pageNumber,
      pageCount,
      eventCount: events.length,
      days: groupByDay(pageEvents, timeZone, days),
      previousPath: pageNumber > 1 ? pathOf(pageNumber - 1) : null,
      nextPath: pageNumber < pageCount ? pathOf(pageNumber + 1) : null,
    };
  });
}

/**
 * Each event's local start date and days in a zone other than its own: list
 * pages, month grids and the month index each ask, and every answer costs
 * Luxon zone conversions, so one build's views work each out once. In its own
 * zone (usually the page's too) the event's times are local already.
 */
class LocalDays {
  readonly #starts = new PerEvent<string>();
  readonly #days = new PerEvent<readonly string[]>();

  /** The local date (yyyy-mm-dd, in `zone`) an event starts on. */
  startDate(event: CalendarEvent, zone: string): string {
    if (zone === event.timeZone) return localStartDate(event);
    return this.#starts.get(
      event,
      zone,
      () => DateTime.fromISO(event.start, { zone: timeZone(zone) }).toISODate() ?? "",
    );
  }

  /** Local days (in `zone`) an event occupies; all-day ends are exclusive. */
  of(event: CalendarEvent, zone: string): readonly string[] {
    if (zone === event.timeZone) return localDays(event);
    return this.#days.get(event, zone, () => computeEventDays(event, zone));
  }
}

/** The days an event occupies in another zone than its own. */
function computeEventDays(event: CalendarEvent, zone: string): string[] {
  const { start, end } = validEventTimes(event);
  // Exclusive end: an event ending at midnight does not occupy the next day.
  const inZone = timeZone(zone);
  const lastInstant = (end > start ? end.minus({ milliseconds: 1 }) : start).setZone(inZone);
  const startInZone = start.setZone(inZone);
  // Most events start and end on one day: no day arithmetic needed.
  if (sameLocalDay(startInZone, lastInstant)) return [startInZone.toISODate() ?? ""];
  const first = startInZone.startOf("day");
  const last = lastInstant.startOf("day");
  const days: string[] = [];
  for (let day = first; day <= last && days.length < 366; day = day.plus({ days: 1 })) {
    days.push(day.toISODate() ?? "");
  }
  return days;
}

function monthKey(isoDate: string): string {
  return isoDate.slice(0, 7);
}

function monthsWithEvents(
  events: readonly CalendarEvent[],
  calendar: Calendar,
  days: LocalDays,
): MonthRef[] {
  const keys = new Set<string>();
  for (const event of events) {
    for (const day of days.of(event, calendar.timeZone)) keys.add(monthKey(day));
  }
  return [...keys].sort().map((key) => {
    const year = Number(key.slice(0, 4));
    const month = Number(key.slice(5, 7));
    return { year, month, path: paths.calendarMonth(calendar.id, year, month) };
  });
}

/** `events`: the calendar's own, in snapshot order. */
function monthPages(
  summary: CalendarSummary,
  events: readonly CalendarEvent[],
  now: DateTime,
  days: LocalDays,
  firstDay: number,
): MonthPage[] {
  const { calendar, months } = summary;
  const zone = calendar.timeZone;
  const byDay = new Map<string, CalendarEvent[]>();
  for (const event of events) {
    for (const day of days.of(event, zone)) {
      const list = byDay.get(day);
      if (list) list.push(event);
      else byDay.set(day, [event]);
    }
  }
  const today = now.toISODate();
  return months.map((ref, index) => {
    const seen = new Set<string>();
    const weeks = monthGrid(ref.year, ref.month, firstDay).map((week) =>
      week.map(({ date, inMonth }): MonthDay => {
        const dayEvents = byDay.get(date) ?? [];
        if (inMonth) for (const e of dayEvents) seen.add(`${e.calendarId}\u0000${e.id}`);
        return { date, inMonth, isToday: date === today, events: dayEvents };
      }),
    );
    const nearby = new Map<string, CalendarEvent>();
    for (const day of [
      dayAround(ref.year, ref.month, "first", -2),
      dayAround(ref.year, ref.month, "first", -1),
      dayAround(ref.year, ref.month, "last", 1),
      dayAround(ref.year, ref.month, "last", 2),
    ]) {
      for (const e of byDay.get(day) ?? []) {
        const key = `${e.calendarId}\u0000${e.id}`;
        if (!e.allDay && !seen.has(key)) nearby.set(key, e);
      }
    }
    return {
      ...ref,
      calendar,
      weeks,
      eventCount: seen.size,
      nearby: [...nearby.values()],
      previous: months[index - 1] ?? null,
      next: months[index + 1] ?? null,
    };
  });
}

function buildCategories(
  upcoming: readonly CalendarEvent[],
  past: readonly CalendarEvent[],
): CategorySummary[] {
  const categories = new Map<string, Category>();
  for (const event of [...upcoming, ...past]) {
    for (const category of event.categories) {
      if (!categories.has(category.id)) categories.set(category.id, category);
    }
  }
  const idsOf = (e: CalendarEvent) => new Set(e.categories.map((c) => c.id));
  const upcomingIn = groupEvents(upcoming, idsOf);
  const pastIn = groupEvents(past, idsOf);
  return [...categories.values()]
    .sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id))
    .map((category) => {
      const categoryUpcoming = upcomingIn.get(category.id) ?? [];
      return {
        category,
        path: paths.category(category.id),
        upcoming: categoryUpcoming,
        past: pastIn.get(category.id) ?? [],
      };
    });
}
