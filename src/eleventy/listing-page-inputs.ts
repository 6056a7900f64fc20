import { eventDigest } from "../model/event-digest.ts";
import { gathering, noteEvent, noteScope, scopeRead } from "../model/shown-reads.ts";
import type { CalendarEvent, UpcomingAndPast } from "../model/types.ts";
import { recentPast } from "../model/upcoming-and-past.ts";
import { ObjectDigests } from "../render/object-digest.ts";
import type { FilterLookup, PageInputs } from "../render/streamed-pages.ts";
import type { SiteData } from "../site/load.ts";
import type { WhenPage } from "../site/when/when-views.ts";
import { siteWideInputs } from "./site-wide-inputs.ts";

type Data = Record<string, unknown>;
// biome-ignore lint/suspicious/noExplicitAny: a template's item, read as its template reads it.
type Item = Record<string, any>;

/** A listing's templates: every streamed template but the event's own (src/eleventy/publisher-plugin.ts). */
export const LISTING_TEMPLATES = [
  "calendars/list.njk",
  "calendars/month.njk",
  "categories/category.njk",
  "events.njk",
  "when/when.njk",
  "places/place.njk",
  "series/series.njk",
  "organizations/organization.njk",
];

/**
 * The scope whose share card and feeds a page names (base.njk's
 * `feedScope`, which this mirrors): a calendar's, a category's, a place's
 * or a series'; the site's ("/") for the others.
 */
const FEED_SCOPE: Readonly<Record<string, (page: Item) => unknown>> = {
  "calendars/list.njk": (page) => page.calendar,
  "calendars/month.njk": (page) => page.calendar,
  "categories/category.njk": (page) => page.summary.category,
  "places/place.njk": (page) => page.summary.scope,
  "series/series.njk": (page) => page.series.scope,
};

/**
 * The scopes whose derived values a listing's page shows (src/eleventy/page-record.ts):
 * its feed scope's (its share card, how its calendar file was trimmed), and
 * its calendar's (a page without events says when its calendar changed).
 */
export function listingScopeOf(template: string, item: unknown): string[] {
  const page = item as Item;
  const scopes: string[] = [];
  const calendarId = page.calendar?.id;
  if (typeof calendarId === "string") scopes.push(scopeRead.calendar(calendarId));
  const scope = FEED_SCOPE[template]?.(page) as Item | undefined;
  if (template === "categories/category.njk" && scope) scopes.push(scopeRead.category(scope.id));
  else if (scope?.kind === "place") scopes.push(scopeRead.place(scope.id));
  else if (scope?.kind === "series") scopes.push(scopeRead.series(scope.calendarId, scope.id));
  return scopes;
}

/** The pages with a subscribe panel, which says how the scope's calendar file was trimmed. */
const SHOWS_TRIM = new Set(["calendars/list.njk", "categories/category.njk"]);

/**
 * Everything a listing's page shows (a calendar's list or month, a
 * category's, a place's, a series', an organization's, the "when" pages,
 * all events: every streamed template but the event's own, with the layout
 * and includes they use), as text, for the writer to keep the page as
 * published when none of it changed (src/render/streamed-pages.ts).
 *
 * - Site-wide, once per run: the settings and the site's own global data
 *   (site-wide-inputs.ts), and what the navigation and the filter form show
 *   of the rest of the site: the calendars' summaries and their first
 *   upcoming month (the clock's month), the organizations, the categories,
 *   the calendars' names, the "when" pages and the search's facts. Events
 *   there count by their ids: what a page shows of an event is its own item's.
 * - Per page: the template, and the page's item (what pagination gives it)
 *   whole, each event in it by its digest with what its row asks of the
 *   series (how many more dates, the series' page); when its data last
 *   changed; its scope's share card and, where shown, how the scope's
 *   calendar file was trimmed.
 *
 * Read as plain data (src/render/object-digest.ts), each shared object
 * once in a run, whichever listing shows it: the site's parts and the
 * events' rows are the same for every template (an event is in the lists of
 * its calendar, month, categories, place and series, and the "when" pages).
 * An item that is not plain data names no inputs: its page is rendered.
 *
 * Returns each listing template's inputs, given the run's global data;
 * undefined for every template when that cannot be written as JSON.
 */
export function listingPagesInputs(
  globals: Data,
  host: string,
): (template: string) => PageInputs | undefined {
  const siteWide = siteWideInputs(globals, host);
  if (siteWide === undefined) return () => undefined;
  const portal = globals.portal as SiteData;
  const events = new Set<object>([...portal.events, ...portal.views.events]);
  const calendars = new Set<object>(portal.calendars);
  const summaries = new Set<object>([...portal.views.places.all, ...portal.views.categories]);
  let site: string | undefined;
  let rows: ObjectDigests | undefined;
  let linkRows: ObjectDigests | undefined;
  return (template) => (item, filter) => {
    try {
      site ??= siteParts(portal, events, calendars, filter);
      rows ??= eventRows(events, calendars, summaries, filter, shownSummary);
      // A series' page links its place by name; the place's lists are its own page's.
      let itemRows = rows;
      if (template === "series/series.njk") {
        linkRows ??= eventRows(events, calendars, summaries, filter, linkedSummary);
        itemRows = linkRows;
      }
      const page = item as Item;
      const scope = (FEED_SCOPE[template] ?? (() => "/"))(page);
      const inputs = JSON.stringify([
        siteWide,
        site,
        template,
        itemRows.of(page),
        filter("dataUpdated")(page),
        filter("shareCard")(scope),
        SHOWS_TRIM.has(template) ? filter("icsTrim")(scope) : null,
      ]);
      // For the page record: what the item shows, walked again rather than
      // remembered with each object's digest (the digests are shared by pages).
      if (gathering()) noteShown(page, events, summaries, calendars, 0);
      return inputs;
    } catch {
      return undefined;
    }
  };
}

/** What the listings' navigation and filter form show of the site (siteParts), for the page record. */
export function listingSiteParts(portal: SiteData, filter: FilterLookup): string {
  return siteParts(
    portal,
    new Set<object>([...portal.events, ...portal.views.events]),
    new Set<object>(portal.calendars),
    filter,
  );
}

/**
 * What the navigation and filter form show of the site, with its events by
 * their ids: of the calendars' and organizations' summaries, not their lists
 * of upcoming and past events, which only the site's index pages show (those
 * Eleventy renders every build); of the "when" pages, their links, not their
 * events. The day rolling over changes those lists, and with them here every
 * listing's page was named as changed: the months and series that it did not
 * change were rendered again to the same bytes (docs/performance.md, item 51).
 */
function siteParts(
  portal: SiteData,
  events: Known,
  calendars: Known,
  filter: FilterLookup,
): string {
  const ids = new ObjectDigests((value) =>
    events.has(value) ? JSON.stringify((value as CalendarEvent).id) : shownOf(calendars, value),
  );
  const firstMonths = portal.views.calendars.map(
    (summary) => filter("firstUpcomingMonth")(summary.months) ?? null,
  );
  return ids.of([
    portal.views.calendars.map(({ upcoming, past, ...shown }) => shown),
    firstMonths,
    portal.views.organizations.map(({ upcoming, calendars, ...shown }) => [
      shown,
      calendars.map((summary) => summary.calendar.id),
    ]),
    portal.categories,
    portal.calendars,
    portal.when.scopes.map((scope) => [scope.calendarId, scope.pages.map(whenLink)]),
    filter("searchFacts")(portal),
  ]);
}

/** A "when" page as the pages' navigation links it (when-nav.njk), not its events. */
function whenLink(page: WhenPage): [string, string] {
  return [page.key, page.path];
}

/**
 * An event in a page's item: the whole event, and what its row shows of its
 * series. A place's or a category's summary: as pages show it (shownSummary).
 */
function eventRows(
  events: Known,
  calendars: Known,
  summaries: Known,
  filter: FilterLookup,
  shown: (summary: UpcomingAndPast, rows: ObjectDigests) => string,
): ObjectDigests {
  const moreDates = filter("moreDates");
  const seriesOf = filter("seriesOf");
  const rows: ObjectDigests = new ObjectDigests((value) => {
    if (summaries.has(value)) return shown(value as UpcomingAndPast, rows);
    if (!events.has(value)) return shownOf(calendars, value);
    const event = value as CalendarEvent;
    const series = seriesOf(event) as { path: string } | null;
    return JSON.stringify([eventDigest(event), moreDates(event), series?.path ?? null]);
  });
  return rows;
}

/**
 * Notes, for the page record (src/model/shown-reads.ts), every event a
 * page's item shows and the scope of every summary it shows with the most
 * recent past events it lists: what `itemRows.of` read of the item, more or
 * less (a series' page names a place's fields alone). Read after the
 * inputs were made, so the item is known to be plain data without a cycle.
 */
function noteShown(
  value: unknown,
  events: Known,
  summaries: Known,
  calendars: Known,
  depth: number,
): void {
  if (value === null || typeof value !== "object" || calendars.has(value)) return;
  if (events.has(value)) {
    noteEvent(value as CalendarEvent);
    return;
  }
  if (summaries.has(value)) {
    noteScope(summaryScope(value as Item));
    for (const event of recentPast(value as UpcomingAndPast)) noteEvent(event);
    return;
  }
  if (depth > MAX_DEPTH) {
    // Deeper than any listing's item: what is below is not followed, so the page is asked every build.
    noteScope(scopeRead.always);
    return;
  }
  if (Array.isArray(value)) {
    for (const item of value) noteShown(item, events, summaries, calendars, depth + 1);
    return;
  }
  for (const field of Object.values(value))
    noteShown(field, events, summaries, calendars, depth + 1);
}

/** Deeper than any item the listings are given (a month's weeks, days and rows are four). */
const MAX_DEPTH = 16;

/** A place's or a category's summary's scope, as the page record names it. */
function summaryScope(summary: Item): string {
  return summary.scope?.kind === "place"
    ? scopeRead.place(summary.scope.id)
    : scopeRead.category(summary.category?.id);
}

/**
 * A place's or a category's summary as the listing pages show it: its own
 * fields (name, place, paths, scope), and of its lists of events their
 * lengths and the most recent past ones; a page's own events are in its
 * item apart. Whole, an edit of any event at a place or in a category would
 * name every page of that place or category as changed, and every series'
 * page at that place (31 category, 52 place and 28 series pages rendered
 * again for one edited title at 10,000 events, each to the same bytes).
 */
function shownSummary(summary: UpcomingAndPast, rows: ObjectDigests): string {
  const { upcoming, past, ...fields } = summary;
  return rows.of([fields, upcoming.length, past.length, recentPast(summary)]);
}

/**
 * A place's summary as a link to its page shows it (a series' page): its
 * own fields, none of its lists. With their lengths, every series' page at
 * a place was named as changed each day an event there ended.
 */
function linkedSummary(summary: UpcomingAndPast, rows: ObjectDigests): string {
  const { upcoming, past, ...fields } = summary;
  return rows.of(fields);
}

/**
 * The site's events or calendars, known by identity: the views hold these
 * very objects. Another object is read field by field, which costs time,
 * never a change.
 */
type Known = ReadonlySet<object>;

/**
 * A calendar as pages show it: all but when it was last modified, which
 * portals move with every edit of one of its events (the page's own
 * "data updated" date is among its inputs; src/site/data-updated.ts).
 */
function shownOf(calendars: Known, value: object): string | undefined {
  return calendars.has(value) ? JSON.stringify({ ...value, updatedAt: undefined }) : undefined;
}
