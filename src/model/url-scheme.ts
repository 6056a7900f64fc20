import { createHash } from "node:crypto";
import type { CalendarEvent } from "./types.ts";

/**
 * The site's URL scheme: every address the project writes, in every output,
 * is one of these site paths, turned into a link or an absolute URL by
 * `SiteUrls`, the one place that knows where SITE_URL puts the site (a host's
 * root, or a folder such as a GitHub Pages project site's `/<repo>/`).
 *
 * Site paths start with "/" and are relative to the site's root, whatever its
 * prefix: the prefix is added only when a path is written into an output.
 */

/**
 * Portal ids become URL path segments and folder names. Any id the portal can
 * return must give a safe, unique segment, identical on case-insensitive file
 * systems, and stable across builds (links and calendar subscriptions depend
 * on it).
 *
 * - lowercase ASCII letters, digits and inner hyphens, up to 64 chars: kept as is;
 * - anything else: "_" + hex of its UTF-8 bytes (unique; "_" never starts a kept id);
 * - longer than 32 bytes and not plain: "__" + SHA-256 hex (unique in practice).
 */
const PLAIN = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;

/** A source's id in a sources file (docs/sources.md): a slug of up to 32 characters. */
export const SOURCE_ID = /^[a-z0-9](?:[a-z0-9-]{0,30}[a-z0-9])?$/;

/**
 * A calendar of a named source is `<source>~<calendar id>` (docs/sources.md,
 * "Addresses and UIDs"): its source's namespace, always, so that adding or
 * removing another source never renames it. "~" is unreserved in URLs
 * (RFC 3986, 2.3) and never in a segment of a source's own calendar, which
 * is its id encoded on its own: `culture~community` stays readable.
 */
export const SOURCE_SEPARATOR = "~";
const NAMESPACED = /^([a-z0-9](?:[a-z0-9-]{0,30}[a-z0-9])?)~(.+)$/s;

/** The site's id of calendar `calendarId` of named source `sourceId`. */
export function sourceCalendarId(sourceId: string, calendarId: string): string {
  return `${sourceId}${SOURCE_SEPARATOR}${calendarId}`;
}

export function encodeIdSegment(id: string): string {
  if (PLAIN.test(id)) return id;
  const namespaced = NAMESPACED.exec(id);
  if (namespaced?.[1] && namespaced[2]) {
    return `${namespaced[1]}${SOURCE_SEPARATOR}${encodeIdSegment(namespaced[2])}`;
  }
  const bytes = Buffer.from(id, "utf8");
  if (bytes.length <= 32) return `_${bytes.toString("hex")}`;
  return `__${createHash("sha256").update(bytes).digest("hex")}`;
}

const segment = encodeIdSegment;

/** Site paths of the pages and files (leading slash; folders end with one). */
export const paths = {
  home: () => "/",
  calendars: () => "/calendars/",
  calendar: (calendarId: string) => `/calendars/${segment(calendarId)}/`,
  calendarPast: (calendarId: string) => `/calendars/${segment(calendarId)}/past/`,
  calendarMonth: (calendarId: string, year: number, month: number) =>
    `/calendars/${segment(calendarId)}/${year}/${String(month).padStart(2, "0")}/`,
  event: (calendarId: string, eventId: string) =>
    `/calendars/${segment(calendarId)}/events/${segment(eventId)}/`,
  /** The single-event download beside an event's page. */
  eventIcs: (event: Pick<CalendarEvent, "calendarId" | "id">) =>
    `${paths.event(event.calendarId, event.id)}event.ics`,
  categories: () => "/categories/",
  category: (categoryId: string) => `/categories/${segment(categoryId)}/`,
  /** Folder of the feeds and calendar of one calendar's events in one category (no HTML page). */
  calendarCategory: (calendarId: string, categoryId: string) =>
    `/calendars/${segment(calendarId)}/categories/${segment(categoryId)}/`,
  /** Every place with a page, and its events (src/places). */
  places: () => "/places/",
  /** A place's page: `key` is its URL segment already (src/places/place-key.ts). */
  place: (key: string) => `/places/${key}/`,
  placePast: (key: string) => `/places/${key}/past/`,
  /** A series' page in its calendar: `key` is its URL segment already (src/series/series-key.ts). */
  series: (calendarId: string, key: string) => `/calendars/${segment(calendarId)}/series/${key}/`,
  /** The organizations of a site of several sources (docs/sources.md): only then. */
  organizations: () => "/organizations/",
  /** An organization's page, its calendars, events and files: `sourceId` is a slug. */
  organization: (sourceId: string) => `/organizations/${segment(sourceId)}/`,
  /** Every upcoming event, 20 a page (`page/2/`...). */
  events: () => "/events/",
  /** Page `n` of a paged list whose first page is `first`. */
  listPage: (first: string, n: number) => (n === 1 ? first : `${first}page/${n}/`),
  subscribe: () => "/subscribe/",
  /** The weekly digest of the whole site (src/digest): its feed, and the latest week as a mail. */
  digest: () => "/digest/",
  /** A calendar's weekly digest. "digest" is no year, `past`, `events`, `page` or `series`. */
  calendarDigest: (calendarId: string) => `/calendars/${segment(calendarId)}/digest/`,
  /** A category's weekly digest. */
  categoryDigest: (categoryId: string) => `/categories/${segment(categoryId)}/digest/`,
  /** The accessibility statement (templates/accessibility.njk, docs/configuration.md). */
  accessibility: () => "/accessibility/",
  /** What is on today, tomorrow, this weekend... (src/site/when): `/when/today/`, `/when/next-week/`. */
  when: (key: string) => `/when/${key}/`,
  calendarWhen: (calendarId: string, key: string) =>
    `/calendars/${segment(calendarId)}/when/${key}/`,
  /** The search page; filters ride in the query string (docs/site.md, "Search and filters"). */
  search: (filters: Readonly<Record<string, string>> = {}) => {
    const query = new URLSearchParams(filters).toString();
    return query ? `/search/?${query}` : "/search/";
  },
  /** The search index's files (Pagefind's bundle, the list of parts: src/search/index-layout.ts). */
  searchIndex: () => "/pagefind/",
  /** One part of the search index (src/search/search-parts.ts): a Pagefind index of its own. */
  searchIndexPart: (key: string) => `/pagefind/${segment(key)}/`,
  /** Every subscription the search page can offer (docs/feeds.md). */
  subscriptionsJson: () => "/search/subscriptions.json",
  embedGuide: () => "/embed/",
  embed: (calendarId: string) => `/embed/${segment(calendarId)}/`,
  /**
   * The widget of several calendars (all by default, docs/widget.md). "_all"
   * is no calendar's segment: encoded ids are "_" and hex digits only.
   */
  embedCalendars: () => "/embed/_all/",
  /** One event as a card to embed, inside its calendar's embed folder (framable like it). */
  embedEvent: (calendarId: string, eventId: string) =>
    `/embed/${segment(calendarId)}/events/${segment(eventId)}/`,
  embedScript: () => "/embed.js",
  oembed: (calendarId: string) => paths.oembedOfSegment(segment(calendarId)),
  /** The static oEmbed answer of a calendar's path segment (already encoded). */
  oembedOfSegment: (calendarSegment: string) => `/oembed/${calendarSegment}.json`,
  /** The oEmbed endpoint where the host runs functions (src/oembed/endpoint.ts). */
  oembedEndpoint: () => "/oembed",
  oembedEvent: (calendarId: string, eventId: string) =>
    `/oembed/${segment(calendarId)}/events/${segment(eventId)}.json`,
  /** A file of the site's own assets (templates/assets, the site's scripts, the widget's files). */
  asset: (name: string) => `/assets/${name}`,
  widgetAsset: (name: string) => `/embed/${name}`,
  /** An image copied into the site, named by its bytes. */
  media: (name: string) => `/media/${name}`,
  /** A share card (src/cards), named by a hash of what it shows. */
  card: (name: string) => `/cards/${name}`,
  apiCalendars: () => "/api/calendars.json",
  apiEvents: (calendarId: string) => `/api/calendars/${segment(calendarId)}/events.json`,
  /** A "when" page's events for the widget and other sites (docs/public-json.md). */
  apiWhen: (key: string) => `/api/when/${key}.json`,
  apiCalendarWhen: (calendarId: string, key: string) =>
    `/api/calendars/${segment(calendarId)}/when/${key}.json`,
  apiManifest: () => "/api/manifest.json",
  apiChanges: () => "/api/changes.json",
  buildState: () => "/api/build-state.json",
  buildStateCalendar: (calendarId: string) => `/api/build-state/${segment(calendarId)}.json`,
  sitemap: () => "/sitemap.xml",
  /** IndexNow's key file, at the site's root (src/config/indexnow.ts): its name is the key. */
  indexNowKey: (key: string) => `/${key}.txt`,
  /** One file of a sitemap too long for one (src/outputs/sitemap-files.ts), from 1. */
  sitemapPart: (n: number) => `/sitemaps/${n}.xml`,
  robots: () => "/robots.txt",
  notFound: () => "/404.html",
  /**
   * The site's fediverse account (src/fediverse, docs/followers.md): WebFinger
   * (RFC 7033 section 10.1 registers the path at the host's root), the actor,
   * its outbox in pages, each event's ActivityStreams object; the inbox and
   * the followers collection answer where the host runs functions.
   */
  webfinger: () => "/.well-known/webfinger",
  apActor: () => "/ap/actor.json",
  apInbox: () => "/ap/inbox",
  apFollowers: () => "/ap/followers",
  apOutbox: () => "/ap/outbox.json",
  /** Page `n` of the outbox, from 1, the newest activities first. */
  apOutboxPage: (n: number) => `/ap/outbox/${n}.json`,
  apEvent: (calendarId: string, eventId: string) =>
    `/ap/events/${segment(calendarId)}/${segment(eventId)}.json`,
  /** Files a host reads from the deploy and does not serve (src/hosts/host-files.ts). */
  headersFile: () => "/_headers",
  redirectsFile: () => "/_redirects",
  noJekyll: () => "/.nojekyll",
} as const;

/**
 * A set of events with feeds and a calendar of its own: the whole site, one
 * calendar, one category, or one calendar's events in one category
 * ("Sport & Outdoors · Family"), whose files live under the calendar and
 * whose page is the search page filtered to it.
 */
export type FeedScope =
  | { readonly kind: "site" }
  | { readonly kind: "calendar"; readonly id: string; readonly name: string }
  | { readonly kind: "category"; readonly id: string; readonly name: string }
  | CalendarCategoryScope
  /** A place with a page (src/places): `id` is its key. */
  | { readonly kind: "place"; readonly id: string; readonly name: string }
  /** An organization of a site of several sources: `id` is its source's id. */
  | { readonly kind: "organization"; readonly id: string; readonly name: string }
  /** A series (src/series): `id` is its key in its calendar. */
  | {
      readonly kind: "series";
      readonly calendarId: string;
      readonly id: string;
      readonly name: string;
    };

export interface CalendarCategoryScope {
  readonly kind: "calendarCategory";
  readonly calendarId: string;
  readonly categoryId: string;
  /** "Calendar name · Category name". */
  readonly name: string;
}

export const FEED_FILE_NAMES = {
  rss: "feed.xml",
  atom: "atom.xml",
  json: "feed.json",
  ics: "calendar.ics",
  qr: "calendar-qr.svg",
} as const;

export type FeedFormat = "rss" | "atom" | "json" | "ics";

/**
 * The files a scope has: every format, but a place and a series (there are
 * many, a series often of two or three dates) get their calendar and one
 * feed, RSS, the one every reader reads: a third of the feeds' bytes.
 */
export function scopeFormats(scope: FeedScope): readonly FeedFormat[] {
  return scope.kind === "place" || scope.kind === "series"
    ? ["rss", "ics"]
    : ["rss", "atom", "json", "ics"];
}

/** Site paths of a scope's page and files. */
export interface ScopeFiles {
  /** The HTML page that shows the scope's events. */
  readonly page: string;
  readonly rss: string;
  readonly atom: string;
  readonly json: string;
  readonly ics: string;
  /** The QR code of the calendar subscription (it encodes the webcal URL). */
  readonly qr: string;
}

/** The HTML page that shows a scope's events. */
function scopePagePath(scope: FeedScope): string {
  if (scope.kind === "calendar") return paths.calendar(scope.id);
  if (scope.kind === "category") return paths.category(scope.id);
  if (scope.kind === "calendarCategory")
    return paths.search({ calendar: scope.calendarId, category: scope.categoryId });
  if (scope.kind === "place") return paths.place(scope.id);
  if (scope.kind === "organization") return paths.organization(scope.id);
  if (scope.kind === "series") return paths.series(scope.calendarId, scope.id);
  return paths.home();
}

/** The folder that holds a scope's files. */
function scopeFolderPath(scope: FeedScope): string {
  if (scope.kind === "calendarCategory")
    return paths.calendarCategory(scope.calendarId, scope.categoryId);
  return scopePagePath(scope);
}

export function scopeFiles(scope: FeedScope): ScopeFiles {
  const folder = scopeFolderPath(scope);
  return {
    page: scopePagePath(scope),
    rss: folder + FEED_FILE_NAMES.rss,
    atom: folder + FEED_FILE_NAMES.atom,
    json: folder + FEED_FILE_NAMES.json,
    ics: folder + FEED_FILE_NAMES.ics,
    qr: folder + FEED_FILE_NAMES.qr,
  };
}

/**
 * The scopes with a weekly digest (src/digest): the whole site, each
 * calendar, each category. A pair, a place and a series have too few events
 * a week to be worth a mail of their own.
 */
export type DigestScope = Extract<FeedScope, { readonly kind: "site" | "calendar" | "category" }>;

export function hasDigest(scope: FeedScope): scope is DigestScope {
  return scope.kind === "site" || scope.kind === "calendar" || scope.kind === "category";
}

export const DIGEST_FILE_NAMES = {
  rss: "feed.xml",
  html: "latest.html",
  text: "latest.txt",
} as const;

/** Site paths of a scope's digest: its RSS feed (an item a week), and the latest week as HTML and text. */
export interface DigestFiles {
  /** The folder they are in (no page of its own). */
  readonly folder: string;
  readonly rss: string;
  readonly html: string;
  readonly text: string;
}

export function digestFiles(scope: DigestScope): DigestFiles {
  const folder =
    scope.kind === "calendar"
      ? paths.calendarDigest(scope.id)
      : scope.kind === "category"
        ? paths.categoryDigest(scope.id)
        : paths.digest();
  return {
    folder,
    rss: folder + DIGEST_FILE_NAMES.rss,
    html: folder + DIGEST_FILE_NAMES.html,
    text: folder + DIGEST_FILE_NAMES.text,
  };
}

/** SITE_URL (no trailing slash needed) joined with a site path. */
export function absoluteUrl(siteUrl: string, path: string): string {
  return siteUrl.replace(/\/+$/, "") + path;
}

/**
 * Where the site lives: SITE_URL's origin and folder. Pages link to the
 * site's own files by path (`href`: "/events/calendars/"), so a local
 * preview of a build works too; feeds, calendars, metadata and anything read
 * elsewhere use absolute URLs (`absolute`).
 */
export class SiteUrls {
  /** SITE_URL without a trailing slash: "https://example.org/events". */
  readonly siteUrl: string;
  /** The folder the site is published in, without a trailing slash: "" or "/events". */
  readonly basePath: string;

  /**
   * The site of one of the languages a site is published in (SITE_LANGUAGES)
   * but its first, whose folder it is in: what the site has once (images,
   * share cards) is linked there (`localLink`). Null for the root's.
   */
  readonly #root: SiteUrls | null;

  /** `rootUrl`: the root language's SITE_URL, for the site of another language. */
  constructor(siteUrl: string, rootUrl?: string) {
    const url = new URL(siteUrl);
    this.basePath = url.pathname.replace(/\/+$/, "");
    this.siteUrl = `${url.origin}${this.basePath}`;
    this.#root = rootUrl === undefined ? null : new SiteUrls(rootUrl);
  }

  /** The root-relative link of a site path: "/calendars/" -> "/events/calendars/". */
  href(path: string): string {
    return this.basePath + path;
  }

  /** The absolute URL of a site path: "/feed.xml" -> "https://example.org/events/feed.xml". */
  absolute(path: string): string {
    return absoluteUrl(this.siteUrl, path);
  }

  /**
   * The site path of a URL or root-relative link into this site (the reverse
   * of `href` and `absolute`); null for anything outside it.
   */
  sitePath(url: string): string | null {
    const rest = url.startsWith(`${this.siteUrl}/`)
      ? url.slice(this.siteUrl.length)
      : url.startsWith(`${this.basePath}/`)
        ? url.slice(this.basePath.length)
        : null;
    return rest;
  }

  /**
   * An absolute URL of this site's (or, in a language's folder, of the
   * root's: its images and cards) as a link by path, so a local preview
   * shows them too; any other URL as it is.
   */
  localLink(url: string): string {
    if (url.startsWith(`${this.siteUrl}/`)) return this.href(url.slice(this.siteUrl.length));
    return this.#root ? this.#root.localLink(url) : url;
  }
}
