import type { Calendar, CalendarEvent } from "../model/types.ts";
import type { SeriesIndex, SeriesSummary } from "./series-index.ts";

/**
 * One page per series (`/calendars/<calendar>/series/<key>/`): every date,
 * upcoming first. A series' dates are few next to a calendar's, so its page
 * is not paged.
 */
export interface SeriesPage {
  readonly series: SeriesSummary;
  readonly calendar: Calendar;
  readonly path: string;
  /** Every date the page shows ("Data updated" is the newest of their modifications). */
  readonly events: readonly CalendarEvent[];
}

export function seriesPages(
  series: SeriesIndex,
  calendars: ReadonlyMap<string, Calendar>,
): SeriesPage[] {
  return series.all.flatMap((summary) => {
    const calendar = calendars.get(summary.calendarId);
    return calendar
      ? [{ series: summary, calendar, path: summary.path, events: summary.dates }]
      : [];
  });
}
