import type { Calendar, CalendarEvent } from "../model/types.ts";
import { paths } from "../model/url-scheme.ts";
import type { SeriesIndex, SeriesSummary } from "./series-index.ts";

/**
 * The pages of every series: `/calendars/<calendar>/series/<key>/`, then
 * `page/2/`... Most series have a few dates, a weekly one a hundred a year;
 * a daily one or a portal's thousands of dates would make one page grow
 * without bound (2,000 dates were 311 KB), so a page lists at most
 * SERIES_DATES_PER_PAGE dates. They come in the order a visitor asks for
 * them: the upcoming dates, soonest first, then the past ones, most recent
 * first; so the first page has the next dates, and each page is one step
 * further from now. The pages link each other (rel="prev" and "next") and
 * are in the sitemap like every list.
 */

/** Compact lines, a date each: a year of a weekly series fits on one page. */
export const SERIES_DATES_PER_PAGE = 100;

export interface SeriesPage {
  readonly series: SeriesSummary;
  readonly calendar: Calendar;
  readonly path: string;
  readonly pageNumber: number;
  readonly pageCount: number;
  readonly previousPath: string | null;
  readonly nextPath: string | null;
  /** The page's upcoming dates, soonest first. */
  readonly upcoming: readonly CalendarEvent[];
  /** The page's past dates, most recent first. */
  readonly past: readonly CalendarEvent[];
  /** Every date the page shows ("Data updated" is the newest of their modifications). */
  readonly events: readonly CalendarEvent[];
}

export function seriesPages(
  series: SeriesIndex,
  calendars: ReadonlyMap<string, Calendar>,
): SeriesPage[] {
  return series.all.flatMap((summary) => {
    const calendar = calendars.get(summary.calendarId);
    return calendar ? pagesOf(summary, calendar) : [];
  });
}

function pagesOf(series: SeriesSummary, calendar: Calendar): SeriesPage[] {
  const pageCount = Math.max(1, Math.ceil(series.dates.length / SERIES_DATES_PER_PAGE));
  const pathOf = (n: number) => paths.listPage(series.path, n);
  return Array.from({ length: pageCount }, (_, i) => {
    const pageNumber = i + 1;
    const from = i * SERIES_DATES_PER_PAGE;
    const to = from + SERIES_DATES_PER_PAGE;
    const upcoming = series.upcoming.slice(from, to);
    // The past dates continue where the upcoming ones end.
    const pastFrom = Math.max(0, from - series.upcoming.length);
    const pastTo = Math.max(0, to - series.upcoming.length);
    const past = series.past.slice(pastFrom, pastTo);
    return {
      series,
      calendar,
      path: pathOf(pageNumber),
      pageNumber,
      pageCount,
      previousPath: pageNumber > 1 ? pathOf(pageNumber - 1) : null,
      nextPath: pageNumber < pageCount ? pathOf(pageNumber + 1) : null,
      upcoming,
      past,
      events: [...upcoming, ...past],
    };
  });
}
