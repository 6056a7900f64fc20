import { DateTime } from "luxon";
import { encodeIdSegment, paths } from "../../src/model/url-scheme.ts";
import {
  createDemoDataset,
  type DatasetCalendar,
  type DatasetEvent,
} from "../../src/portal/index.ts";
import { NOW } from "./clock.ts";

/**
 * What a demo build must publish, worked out from the reference portal's
 * demo dataset (the data the build reads over HTTP) rather than from the
 * build's own code, so the published files are checked against the source.
 */

/** Where the tests' builds say the site is published (SITE_URL). */
export const DEMO_SITE_URL = "https://events.example.org";

/** Site defaults (docs/configuration.md): FEED_PAST_DAYS and CANCELLED_GRACE_DAYS are 30. */
const FEED_PAST_DAYS = 30;

/** The events the demo organization's token sees: those of the calendars shared with it. */
export function demoEvents(now: string = NOW): DatasetEvent[] {
  const dataset = createDemoDataset(now);
  const organization = dataset.organizations[0]?.id ?? "";
  const visible = new Set(
    dataset.calendars.filter((c) => c.organizations.includes(organization)).map((c) => c.id),
  );
  return dataset.events.filter((event) => visible.has(event.calendarId));
}

/** The calendars the demo organization's token sees, as the portal describes them. */
export function demoCalendars(now: string = NOW): DatasetCalendar[] {
  const dataset = createDemoDataset(now);
  const organization = dataset.organizations[0]?.id ?? "";
  return dataset.calendars.filter((c) => c.organizations.includes(organization));
}

/** The event page's absolute URL: what feeds link to and what every VEVENT's URL says. */
export const eventUrl = (event: Pick<DatasetEvent, "calendarId" | "id">): string =>
  DEMO_SITE_URL + paths.event(event.calendarId, event.id);

/** Start and (exclusive) end instants; all-day dates are local midnights in the event's zone. */
export function instants(event: DatasetEvent): { start: DateTime; end: DateTime } {
  const parse = (value: string) => DateTime.fromISO(value, { zone: event.timeZone, setZone: true });
  return { start: parse(event.start), end: parse(event.end) };
}

/** Feeds and subscriptions: upcoming, ongoing, and ended within the last FEED_PAST_DAYS. */
export function inFeedWindow(event: DatasetEvent, now: string = NOW): boolean {
  const cutoff = DateTime.fromISO(now, { zone: "utc" }).minus({ days: FEED_PAST_DAYS });
  return instants(event).end >= cutoff;
}

type Scope =
  | { kind: "site" }
  | { kind: "calendar" | "category"; segment: string }
  | { kind: "calendarCategory"; calendar: string; category: string }
  | { kind: "place"; slug: string }
  | { kind: "series"; calendar: string; slug: string };

/**
 * The readable part of a place's or a series' folder (docs/site.md, "Places",
 * "Series"): its name's or title's letters and digits, accents dropped, words
 * joined by "-"; the folder adds "-" and 10 hex digits.
 */
export function slugOf(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

/** A folder named by a slug and 10 hex digits, with the hex left out: "repair-cafe". */
export const slugPart = (segment: string): string => segment.replace(/-[0-9a-f]{10}$/, "");

/** The place's name as the demo's portal gives it, null for online events. */
const placeOf = (event: DatasetEvent): string | null =>
  event.location?.name ?? event.location?.address?.street ?? null;

/**
 * The demo's places with their events: every event at a place of that name
 * (each demo place has one name and one address), one place per name.
 */
export function demoPlaces(events: readonly DatasetEvent[]): Map<string, DatasetEvent[]> {
  const places = new Map<string, DatasetEvent[]>();
  for (const event of events) {
    const name = placeOf(event);
    if (name) places.set(name, [...(places.get(name) ?? []), event]);
  }
  return places;
}

/** The demo's series: events of one calendar with one title and one place, two or more. */
export function demoSeries(events: readonly DatasetEvent[]): DatasetEvent[][] {
  let found = seriesOf.get(events);
  if (!found) {
    const series = new Map<string, DatasetEvent[]>();
    for (const event of events) {
      const key = JSON.stringify([event.calendarId, event.title, placeOf(event)]);
      series.set(key, [...(series.get(key) ?? []), event]);
    }
    found = [...series.values()].filter((dates) => dates.length >= 2);
    seriesOf.set(events, found);
  }
  return found;
}

const seriesOf = new WeakMap<readonly DatasetEvent[], DatasetEvent[][]>();

/** The scope a feed or subscription file belongs to, from its site-relative path. */
function scopeOf(file: string): Scope {
  const place = /^places\/([^/]+)\/[^/]+$/.exec(file);
  if (place) return { kind: "place", slug: slugPart(place[1] ?? "") };
  const series = /^calendars\/([^/]+)\/series\/([^/]+)\/[^/]+$/.exec(file);
  if (series) return { kind: "series", calendar: series[1] ?? "", slug: slugPart(series[2] ?? "") };
  const pair = /^calendars\/([^/]+)\/categories\/([^/]+)\/[^/]+$/.exec(file);
  if (pair) return { kind: "calendarCategory", calendar: pair[1] ?? "", category: pair[2] ?? "" };
  const match = /^(calendars|categories)\/([^/]+)\/[^/]+$/.exec(file);
  if (!match) return { kind: "site" };
  return { kind: match[1] === "calendars" ? "calendar" : "category", segment: match[2] ?? "" };
}

function inScope(event: DatasetEvent, scope: Scope, events: readonly DatasetEvent[]): boolean {
  if (scope.kind === "site") return true;
  if (scope.kind === "place") {
    const name = placeOf(event);
    return name !== null && slugOf(name) === scope.slug;
  }
  if (scope.kind === "series") {
    return demoSeries(events).some(
      (dates) =>
        dates.includes(event) &&
        encodeIdSegment(event.calendarId) === scope.calendar &&
        slugOf(event.title) === scope.slug,
    );
  }
  if (scope.kind === "calendarCategory") {
    return (
      encodeIdSegment(event.calendarId) === scope.calendar &&
      event.categories.some((category) => encodeIdSegment(category.id) === scope.category)
    );
  }
  if (scope.kind === "calendar") return encodeIdSegment(event.calendarId) === scope.segment;
  return event.categories.some((category) => encodeIdSegment(category.id) === scope.segment);
}

/** The URLs of the events a feed or subscription file at `file` must carry, sorted. */
export function expectedUrls(events: readonly DatasetEvent[], file: string): string[] {
  const scope = scopeOf(file);
  return events
    .filter((event) => inScope(event, scope, events) && inFeedWindow(event))
    .map(eventUrl)
    .sort();
}

/**
 * The weekly digest's files (src/digest): its feed, an item a week, and the
 * latest week as a mail, HTML and text (docs/followers.md). The mail is not
 * a page of the site: no site header, tables and inline styles for mail
 * clients, left out of the sitemap; test/digest checks it as a mail.
 */
export const isDigestFile = (file: string) =>
  /(^|\/)digest\/(feed\.xml|latest\.html|latest\.txt)$/.test(file);

/** The event feeds: an item per event (the digest's feed has one per week: isDigestFile). */
export const isFeedFile = (file: string) =>
  !isDigestFile(file) && /(^|\/)(feed\.xml|atom\.xml|feed\.json)$/.test(file);
export const isSubscription = (file: string) => /(^|\/)calendar\.ics$/.test(file);
export const isSingleEvent = (file: string) => /(^|\/)event\.ics$/.test(file);
