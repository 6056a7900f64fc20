import { calendarIdsOf } from "../model/event-calendars.ts";
import { sourceIdsOf } from "../model/event-sources.ts";
import { validEventTimes } from "../model/event-times.ts";
import type { AttendanceMode, Calendar, CalendarEvent } from "../model/types.ts";
import { paths } from "../model/url-scheme.ts";
import { calendarClass } from "../site/calendar-colors.ts";
import { formatListTime, formatLocalDay } from "../site/format.ts";

/**
 * One search record per published event, built from the snapshot (not from
 * the rendered pages), in the shape of Pagefind's custom records. Pure: the
 * same events and settings give the same records.
 *
 * - `content`: what a query matches: title, summary, description text, place
 *   and address, organizer, category names and the calendar's name.
 * - `meta`: what a result row shows, formatted at build time exactly as the
 *   lists format it, so the browser only places text.
 * - `filters`: the facets of the search page (docs/site.md, "Search and filters").
 * - `sort`: start instant, then calendar and event id: the lists' order.
 *
 * The records come in the site's order. Pagefind numbers pages in the order
 * it is given them, so a new event renumbers the pages after it; ordering
 * by creation would spare that, but events leaving the site each day
 * renumber pages anyway, and the index of a 10,000-event site was 16%
 * larger in that order (docs/site.md, "Stable files").
 */

export interface SearchRecord {
  readonly url: string;
  readonly content: string;
  readonly language: string;
  readonly meta: Record<string, string>;
  readonly filters: Record<string, string[]>;
  readonly sort: Record<string, string>;
}

/** The filter names of the index, as the search page's URL parameters use them. */
const SEARCH_FILTERS = {
  calendar: "calendar",
  organization: "organization",
  category: "category",
  place: "place",
  attendance: "attendance",
  status: "status",
  day: "day",
} as const;

/** Values of the `attendance` filter: hybrid events carry both. */
const ATTENDANCE_VALUES: Readonly<Record<AttendanceMode, readonly string[]>> = {
  offline: ["in-person"],
  online: ["online"],
  mixed: ["in-person", "online"],
};

/** A multi-day event is findable on each of its days, up to a year of them. */
const MAX_DAYS = 366;

export interface SearchRecordOptions {
  /** SITE_LANG, for Intl formatting. */
  readonly lang: string;
  /** SITE_TIMEZONE: days and times are those of the site-wide lists. */
  readonly timeZone: string;
  /** Visitor-facing labels (src/i18n). */
  readonly labels: {
    readonly allDay: string;
    readonly onlineEvent: string;
    readonly hybridEvent: string;
  };
}

export function searchRecords(
  events: readonly CalendarEvent[],
  calendars: readonly Calendar[],
  options: SearchRecordOptions,
): SearchRecord[] {
  const calendarsById = new Map(calendars.map((c) => [c.id, c]));
  const language = options.lang.split("-")[0]?.toLowerCase() || "en";
  const dayLabels = new Map<string, string>();
  const dayLabel = (day: string) => {
    let label = dayLabels.get(day);
    if (label === undefined) {
      label = formatLocalDay(day, options.lang, options.timeZone);
      dayLabels.set(day, label);
    }
    return label;
  };
  return events.flatMap((event): SearchRecord[] => {
    const calendar = calendarsById.get(event.calendarId);
    if (!calendar) return [];
    const days = eventDays(event, options.timeZone);
    const firstDay = days[0] ?? "";
    const place = placeName(event);
    return [
      {
        // A site path: the search page tells Pagefind the site's folder (baseUrl).
        url: paths.event(event.calendarId, event.id),
        content: searchText(event, calendar),
        language,
        meta: {
          title: event.title,
          start: event.start,
          end: event.end,
          // The event's zone: the search page adds the visitor's own time where it differs.
          zone: event.timeZone,
          allDay: String(event.allDay),
          day: firstDay,
          dayLabel: dayLabel(firstDay),
          time: event.allDay
            ? options.labels.allDay
            : formatListTime(event, options.lang, options.timeZone),
          calendar: calendar.name,
          calendarClass: calendarClass(calendar.id),
          place,
          attendance: event.attendanceMode,
          attendanceLabel:
            event.attendanceMode === "online"
              ? options.labels.onlineEvent
              : event.attendanceMode === "mixed"
                ? options.labels.hybridEvent
                : "",
          status: event.status,
          // A new date within CHANGE_NOTICE_DAYS (src/changes): the lists' "New date" badge.
          newDate: String(event.history?.newDate === true && event.status !== "cancelled"),
        },
        filters: {
          // In each calendar it is listed in (docs/sources.md, "Each event once").
          [SEARCH_FILTERS.calendar]: calendarIdsOf(event),
          // A site of several sources: each organization that publishes it (none for one portal).
          ...(event.source === undefined
            ? {}
            : { [SEARCH_FILTERS.organization]: sourceIdsOf(event) }),
          [SEARCH_FILTERS.category]: [...new Set(event.categories.map((c) => c.id))],
          [SEARCH_FILTERS.place]: place ? [place] : [],
          [SEARCH_FILTERS.attendance]: [...ATTENDANCE_VALUES[event.attendanceMode]],
          [SEARCH_FILTERS.status]: [event.status],
          [SEARCH_FILTERS.day]: days,
        },
        sort: { start: sortKey(event) },
      },
    ];
  });
}

/** What a place filter and a result row call the event's place. */
export function placeName(event: Pick<CalendarEvent, "location">): string {
  const location = event.location;
  return (location?.name || location?.address?.formatted || "").trim();
}

/**
 * What a query matches. Pagefind stores each word's position in the record,
 * so an edit moves every word after it and rewrites every index file that
 * holds one of them: the title, edited most, comes last, so that a new title
 * rewrites only the index files of its own words (docs/site.md, "Stable
 * files"). Ranking does not depend on the order; the index is 5% larger
 * than with the title first.
 */
function searchText(event: CalendarEvent, calendar: Calendar): string {
  const location = event.location;
  return [
    event.summary,
    event.descriptionText,
    location?.name,
    location?.address?.formatted,
    event.organizer?.name,
    ...event.categories.map((c) => c.name),
    calendar.name,
    event.title,
  ]
    .filter((part): part is string => Boolean(part?.trim()))
    .join("\n");
}

/**
 * UTC start, then calendar and event id, as one string that sorts like the
 * site's lists (Pagefind compares sort values that are not numbers as text).
 * The domain's times carry their offset, so no zone rules are needed here.
 */
/** A record's `sort.start`: its start instant in UTC, then calendar and event id. */
export function sortKey(event: CalendarEvent): string {
  return `${new Date(Date.parse(event.start)).toISOString()} ${event.calendarId} ${event.id}`;
}

/** Local days (yyyy-mm-dd, in `zone`) an event occupies; ends are exclusive. */
export function eventDays(event: CalendarEvent, zone: string): string[] {
  // Times are ISO strings in the event's own zone: when that is `zone`, their
  // dates are the local dates, and parsing in an IANA zone (costly) is not needed.
  if (event.timeZone === zone) {
    const first = event.start.slice(0, 10);
    const startMs = Date.parse(event.start);
    const endMs = Math.max(startMs, Date.parse(event.end));
    const endDate = event.end.slice(0, 10);
    const endsAtMidnight = /T00:00(:00(\.0+)?)?(Z|[+-])/.test(event.end);
    const last = endMs > startMs && endsAtMidnight ? addDays(endDate, -1) : endDate;
    if (/^\d{4}-\d{2}-\d{2}$/.test(first) && /^\d{4}-\d{2}-\d{2}$/.test(last)) {
      return dateRange(first, last < first ? first : last);
    }
  }
  const { start, end } = validEventTimes(event);
  const first = start.setZone(zone).startOf("day");
  const lastInstant = (end > start ? end.minus({ milliseconds: 1 }) : start).setZone(zone);
  const days: string[] = [];
  for (let day = first; day <= lastInstant && days.length < MAX_DAYS; day = day.plus({ days: 1 })) {
    days.push(day.toISODate() ?? "");
  }
  return days;
}

const DAY_MS = 86_400_000;

function addDays(date: string, count: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + count * DAY_MS).toISOString().slice(0, 10);
}

/** Every date from `first` to `last` (yyyy-mm-dd), at most MAX_DAYS of them. */
function dateRange(first: string, last: string): string[] {
  const days = [first];
  let day = first;
  while (day < last && days.length < MAX_DAYS) {
    day = addDays(day, 1);
    days.push(day);
  }
  return days;
}
