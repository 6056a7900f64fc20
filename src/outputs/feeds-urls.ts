import type { SiteConfig } from "../config/site.ts";
import { messagesFor, translate } from "../i18n/messages.ts";
import type { CalendarEvent } from "../model/types.ts";
import {
  absoluteUrl,
  type DigestFiles,
  type DigestScope,
  digestFiles,
  type FeedFormat,
  type FeedScope,
  hasDigest,
  paths,
  type ScopeFiles,
  scopeFiles,
  scopeFormats,
} from "../model/url-scheme.ts";
import { singleLine } from "./event-text.ts";
import type { Warn } from "./feeds-window.ts";

/**
 * The absolute addresses feeds, calendars and page heads carry (feed
 * readers and calendar apps reject relative ones), from the site paths of
 * the URL scheme (src/model/url-scheme.ts): every path derives from portal
 * ids, so renaming a calendar, category or event never breaks a subscription.
 */

/** What every feed and calendar of a scope reads of the site's settings (src/config/site.ts). */
export type ScopeSite = Pick<
  SiteConfig,
  "url" | "title" | "description" | "lang" | "now" | "feedPastDays" | "refreshMinutes"
>;

/** What a scope's feed and its calendar file are both given: the settings `S` they read, the scope, and more. */
export interface ScopeFileOptions<S extends ScopeSite> {
  readonly site: S;
  /** Whole site, one calendar or one category: decides URLs and the title. */
  readonly scope: FeedScope;
  /**
   * When the portal's data last changed (src/site/data-updated.ts), else when
   * it was fetched: the feed's date when it has no items, the calendar's
   * DTSTAMP of events without timestamps.
   */
  readonly dataUpdatedAt: string;
  /** Defaults to the site description. */
  readonly description?: string;
  readonly warn?: Warn;
}

const FEED_MEDIA_TYPES = {
  rss: "application/rss+xml",
  atom: "application/atom+xml",
  json: "application/feed+json",
  ics: "text/calendar",
} as const;

/** Absolute URLs of a scope's page and files. */
export function feedUrls(scope: FeedScope, siteUrl: string): ScopeFiles {
  return absoluteUrls(siteUrl, scopeFiles(scope));
}

/** Each of a set of site paths as an absolute URL, under the same names. */
function absoluteUrls<T extends Record<keyof T, string>>(siteUrl: string, files: T): T {
  const sitePaths: [string, string][] = Object.entries(files);
  const urls = sitePaths.map(([name, path]) => [name, absoluteUrl(siteUrl, path)]);
  return Object.fromEntries(urls) as T;
}

export function eventPageUrl(siteUrl: string, event: Pick<CalendarEvent, "calendarId" | "id">) {
  return absoluteUrl(siteUrl, paths.event(event.calendarId, event.id));
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

/** The name of a scope's weekly digest feed (src/digest): "Culture · City Events · Weekly digest". */
export function digestFeedTitle(
  scope: DigestScope,
  site: Pick<SiteConfig, "title" | "lang">,
): string {
  const name = scopeTitle(scope, singleLine(site.title));
  return `${name} · ${translate(messagesFor(site.lang), "digest")}`;
}

/** Absolute URLs of a scope's weekly digest (its feed, the latest week as HTML and text), or null for a scope without one. */
export function digestUrls(scope: FeedScope, siteUrl: string): DigestFiles | null {
  return hasDigest(scope) ? absoluteUrls(siteUrl, digestFiles(scope)) : null;
}

/**
 * Autodiscovery entries for `<link rel="alternate">` in a page's head: RSS,
 * Atom, JSON Feed and the iCalendar subscription of the same scope (those it
 * has: scopeFormats), and the scope's weekly digest (an RSS feed too) where
 * it has one.
 */
export function feedLinks(
  scope: FeedScope,
  site: Pick<SiteConfig, "url" | "title" | "lang">,
): FeedLink[] {
  const urls = feedUrls(scope, site.url);
  const title = scopeTitle(scope, site.title);
  const formats = scopeFormats(scope);
  const links: FeedLink[] = [
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
  const own =
    formats.length === 4 ? links : links.filter((link) => formats.includes(formatOf(link)));
  if (!hasDigest(scope)) return own;
  const digest: FeedLink = {
    rel: "alternate",
    type: FEED_MEDIA_TYPES.rss,
    href: absoluteUrl(site.url, digestFiles(scope).rss),
    title: `${digestFeedTitle(scope, site)} (RSS)`,
  };
  return [...own, digest];
}

function formatOf(link: FeedLink): FeedFormat {
  const found = Object.entries(FEED_MEDIA_TYPES).find(([, type]) => type === link.type);
  return (found?.[0] ?? "rss") as FeedFormat;
}
