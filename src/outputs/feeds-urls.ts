import type { CalendarEvent } from "../model/types.ts";
import { paths } from "../model/url-scheme.ts";

/**
 * Where the feed and calendar files live. Every path derives from portal ids
 * through `paths` (src/model/url-scheme.ts), so renaming a calendar, category or
 * event never breaks a subscription.
 */

export type FeedScope =
  | { readonly kind: "site" }
  | { readonly kind: "calendar"; readonly id: string; readonly name: string }
  | { readonly kind: "category"; readonly id: string; readonly name: string }
  | CalendarCategoryScope;

/**
 * One calendar's events in one category ("Sport & Outdoors · Family"). Its
 * files live under the calendar (`/calendars/{calendar}/categories/{category}/`);
 * it has no HTML page of its own: its page is the search page filtered to it.
 */
export interface CalendarCategoryScope {
  readonly kind: "calendarCategory";
  readonly calendarId: string;
  readonly categoryId: string;
  /** "Calendar name · Category name". */
  readonly name: string;
}

export interface FeedFiles {
  /** The HTML page the feed mirrors. */
  readonly page: string;
  readonly rss: string;
  readonly atom: string;
  readonly json: string;
  readonly ics: string;
}

export const FEED_FILE_NAMES = {
  rss: "feed.xml",
  atom: "atom.xml",
  json: "feed.json",
  ics: "calendar.ics",
} as const;

export const FEED_MEDIA_TYPES = {
  rss: "application/rss+xml",
  atom: "application/atom+xml",
  json: "application/feed+json",
  ics: "text/calendar",
} as const;

/** The HTML page that shows a scope's events. */
export function scopePagePath(scope: FeedScope): string {
  if (scope.kind === "calendar") return paths.calendar(scope.id);
  if (scope.kind === "category") return paths.category(scope.id);
  if (scope.kind === "calendarCategory")
    return paths.search({ calendar: scope.calendarId, category: scope.categoryId });
  return paths.home();
}

/** The folder (leading and trailing slash) that holds a scope's files. */
export function scopeFolderPath(scope: FeedScope): string {
  if (scope.kind === "calendarCategory")
    return paths.calendarCategory(scope.calendarId, scope.categoryId);
  return scopePagePath(scope);
}

/** Site-relative paths (leading slash) of the page and the four files of a scope. */
export function feedFilePaths(scope: FeedScope): FeedFiles {
  const folder = scopeFolderPath(scope);
  return {
    page: scopePagePath(scope),
    rss: folder + FEED_FILE_NAMES.rss,
    atom: folder + FEED_FILE_NAMES.atom,
    json: folder + FEED_FILE_NAMES.json,
    ics: folder + FEED_FILE_NAMES.ics,
  };
}

/** SITE_URL has no trailing slash and site paths start with one. */
export function absoluteUrl(siteUrl: string, sitePath: string): string {
  return siteUrl.replace(/\/+$/, "") + sitePath;
}

/** Absolute URLs of the four files of a scope (feeds reject relative URLs). */
export function feedUrls(scope: FeedScope, siteUrl: string): FeedFiles {
  const files = feedFilePaths(scope);
  return {
    page: absoluteUrl(siteUrl, files.page),
    rss: absoluteUrl(siteUrl, files.rss),
    atom: absoluteUrl(siteUrl, files.atom),
    json: absoluteUrl(siteUrl, files.json),
    ics: absoluteUrl(siteUrl, files.ics),
  };
}

export function eventPageUrl(siteUrl: string, event: Pick<CalendarEvent, "calendarId" | "id">) {
  return absoluteUrl(siteUrl, paths.event(event.calendarId, event.id));
}

/** Site-relative path of the single-event download. */
export function eventIcsPath(event: Pick<CalendarEvent, "calendarId" | "id">): string {
  return `${paths.event(event.calendarId, event.id)}event.ics`;
}

/** The name a scope's feeds and calendar carry: "Culture · Events". */
export function scopeTitle(scope: FeedScope, siteTitle: string): string {
  return scope.kind === "site" ? siteTitle : `${scope.name} · ${siteTitle}`;
}

export interface FeedLink {
  readonly rel: "alternate";
  readonly type: string;
  readonly href: string;
  readonly title: string;
}

/**
 * Autodiscovery entries for `<link rel="alternate">` in a page's head: RSS,
 * Atom, JSON Feed and the iCalendar subscription of the same scope.
 */
export function feedLinks(scope: FeedScope, site: { url: string; title: string }): FeedLink[] {
  const urls = feedUrls(scope, site.url);
  const title = scopeTitle(scope, site.title);
  return [
    { rel: "alternate", type: FEED_MEDIA_TYPES.rss, href: urls.rss, title: `${title} (RSS)` },
    { rel: "alternate", type: FEED_MEDIA_TYPES.atom, href: urls.atom, title: `${title} (Atom)` },
    {
      rel: "alternate",
      type: FEED_MEDIA_TYPES.json,
      href: urls.json,
      title: `${title} (JSON Feed)`,
    },
    {
      rel: "alternate",
      type: FEED_MEDIA_TYPES.ics,
      href: urls.ics,
      title: `${title} (iCalendar)`,
    },
  ];
}
