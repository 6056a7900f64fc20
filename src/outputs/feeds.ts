import { Feed, type Item } from "feed";
import type { Announcement } from "../changes/published-state.ts";
import type { SiteConfig } from "../config/site.ts";
import { eventDigest } from "../model/event-digest.ts";
import type { PerEvent } from "../model/per-event.ts";
import { escapeHtml } from "../model/sanitize.ts";
import type { CalendarEvent } from "../model/types.ts";
import { absoluteUrl, type FeedFormat, paths, type ScopeFiles } from "../model/url-scheme.ts";
import { singleLine } from "./event-text.ts";
import { cdataHtml, textNode, xmlAttr, xmlText } from "./feed-xml.ts";
import { announcementEntry } from "./feeds-announcements.ts";
import { datedByData, type FeedEntry, feedEntry, feedUpdated } from "./feeds-entry.ts";
import { feedUrls, type ScopeFileOptions, type ScopeSite, scopeTitle } from "./feeds-urls.ts";
import { selectFeedEvents, timedEvents } from "./feeds-window.ts";
import { jsonFeed } from "./json-feed.ts";
import { rssCharacterData, rssText } from "./rss-character-data.ts";

/**
 * RSS 2.0, Atom 1.0 and JSON Feed 1.1 writers: `(events, options) => string`.
 * Each writes one item per event in the feed window (upcoming plus
 * `feedPastDays` of recent past, relative to the build's pinned `now`, at
 * most `feedMaxItems`: see selectFeedEvents).
 *
 * The `feed` package writes RSS and Atom (JSON Feed 1.1: json-feed.ts). It
 * leaves some escaping to the caller (xml-js escapes only quotes in
 * attributes, splits only the first "]]>" of a CDATA section, passes
 * characters XML 1.0 forbids, unescapes "&amp;" in text before escaping it)
 * and guesses enclosure types from file extensions; feed-xml.ts and the
 * enclosure helpers below cover those gaps, and rss-character-data.ts gives RSS's plain text the form
 * aggregators read alike.
 */

/** The settings the feeds read; `websubHub` may be left out: no hub. */
export type FeedSiteOptions = ScopeSite &
  Pick<SiteConfig, "feedMaxItems"> &
  Partial<Pick<SiteConfig, "websubHub">>;

export interface FeedOptions extends ScopeFileOptions<FeedSiteOptions> {
  /**
   * Change announcements of this scope, newest first (feeds-announcements.ts):
   * each becomes an item of its own ahead of the events, at most
   * `feedMaxItems` of them.
   */
  readonly announcements?: readonly Announcement[];
  /** Entries a build shares between its feeds (feed-scopes.ts); none: built for this feed alone. */
  readonly entries?: PerEvent<FeedEntry>;
}

const FEED_GENERATOR = "Event Calendar Publisher";

interface PreparedFeed {
  readonly title: string;
  readonly description: string;
  readonly urls: ScopeFiles;
  readonly entries: readonly FeedEntry[];
  readonly updated: Date;
}

/** The feed's entries, in order: its announcements, then its events. */
function prepare(events: readonly CalendarEvent[], options: FeedOptions): PreparedFeed {
  const { site } = options;
  const selected = selectFeedEvents(timedEvents(events, options.warn), site);
  const context = { siteUrl: site.url, lang: site.lang, dataUpdatedAt: options.dataUpdatedAt };
  const announcements = (options.announcements ?? []).slice(0, site.feedMaxItems);
  const entries: FeedEntry[] = [];
  const updated: Date[] = [];
  for (const announcement of announcements) {
    const entry = announcementEntry(announcement, site.lang);
    updated.push(entry.updated);
    entries.push(entry);
  }
  for (const timed of selected) {
    const entry = feedEntry(timed, context, options.entries);
    updated.push(entry.updated);
    entries.push(entry);
  }
  return {
    title: scopeTitle(options.scope, singleLine(site.title)),
    description: singleLine(options.description ?? site.description),
    urls: feedUrls(options.scope, site.url),
    entries,
    updated: feedUpdated(updated, options.dataUpdatedAt),
  };
}

/**
 * Everything a feed's bytes depend on besides the code, as text (FileGroup.inputs):
 * the format, the settings, the scope, its announcements and each event it
 * selects, whole. The build's clock only selects the events, so it is left
 * out; when the data last changed only where a feed shows it (no items, or
 * an event with no time of its own). A feed whose events and settings are
 * those of its last publish is then kept as it is, whatever else changed.
 */
export function feedInputs(
  events: readonly CalendarEvent[],
  options: FeedOptions,
  format: NewsFeedFormat,
): string {
  const announcements = options.announcements ?? [];
  const selected = selectFeedEvents(timedEvents(events, options.warn), options.site).map((timed) =>
    feedEventDigest(timed.event),
  );
  const dated =
    (announcements.length === 0 && selected.length === 0) || selected.some((e) => e.datedByData);
  return JSON.stringify([
    format,
    options.scope,
    siteSettings(options),
    dated ? options.dataUpdatedAt : null,
    options.description ?? null,
    announcements,
    selected.map((event) => event.digest),
  ]);
}

/** The site's settings a feed is written with, as JSON; the build's clock only selects its events. */
function siteSettings(options: FeedOptions): string {
  return JSON.stringify(options.site, (key, value) => (key === "now" ? undefined : value));
}

interface EventDigest {
  readonly digest: string;
  readonly datedByData: boolean;
}

const eventDigests = new WeakMap<CalendarEvent, EventDigest>();

/** The event's digest, and whether a feed dates it by the data (once per event object). */
function feedEventDigest(event: CalendarEvent): EventDigest {
  let digest = eventDigests.get(event);
  if (digest === undefined) {
    digest = { digest: eventDigest(event), datedByData: datedByData(event) };
    eventDigests.set(event, digest);
  }
  return digest;
}

export const renderRss = (events: readonly CalendarEvent[], options: FeedOptions): string =>
  renderFeed(events, options, "rss");

/** What RSS and Atom say alike of the feed itself: its title, page, description, date, generator and hub. */
function channelOf(feed: PreparedFeed, options: FeedOptions) {
  return {
    title: textNode(feed.title),
    link: feed.urls.page,
    description: textNode(feed.description),
    updated: feed.updated,
    generator: FEED_GENERATOR,
    ...hubOf(options.site),
  };
}

/**
 * What an RSS item and an Atom entry carry alike: the link, the dates, the
 * summary as HTML (RSS 2.0, the profile and Atom's type="html": the plain
 * summary, escaped) and the content.
 */
function itemBody(
  entry: FeedEntry,
): Pick<Item, "link" | "date" | "description" | "content" | "published"> {
  return {
    link: entry.url,
    date: entry.updated,
    description: cdataHtml(escapeHtml(entry.summary)),
    content: cdataHtml(entry.contentHtml),
    ...(entry.published ? { published: entry.published } : {}),
  };
}

/** An entry as the package's RSS item: plain text in the profile's form (rss-character-data.ts). */
function rssItem(entry: FeedEntry, site: FeedSiteOptions): Item {
  // An event's item has no `id`: the package then writes <guid isPermaLink="true">
  // with the event page URL, which is stable (derived from portal ids only).
  // An announcement's id is not its link: <guid isPermaLink="false">.
  const item: Item = {
    ...(entry.id === entry.url ? {} : { id: entry.id }),
    title: rssText(xmlText(entry.title)),
    ...itemBody(entry),
    category: entry.categories.map((category) => ({
      name: textNode(singleLine(category.name)),
      domain: xmlAttr(absoluteUrl(site.url, paths.category(category.id))),
    })),
  };
  // RSS 2.0 requires a type on <enclosure>; without a known one we leave it
  // out (the image still appears in the content).
  if (entry.image?.type) item.image = { url: xmlAttr(entry.image.url), type: entry.image.type };
  return item;
}

/** The RSS document of these entries, written by the package in one piece. */
function rssDocument(feed: PreparedFeed, options: FeedOptions, entries: readonly FeedEntry[]) {
  // Plain text throughout (channel title and description, item titles,
  // categories), in the RSS Best Practices Profile's form (rss-character-data.ts).
  const out = new Feed({
    ...channelOf(feed, options),
    id: feed.urls.page,
    language: options.site.lang,
    ttl: options.site.refreshMinutes,
    feedLinks: { rss: feed.urls.rss },
  });
  for (const entry of entries) out.addItem(rssItem(entry, options.site));
  return rssCharacterData(out.rss2());
}

function writeRss(feed: PreparedFeed, options: FeedOptions, itemsAtOnce: number): FeedText {
  return inPieces(feed.entries, itemsAtOnce, RSS_ITEMS, {
    document: (entries) => rssDocument(feed, options, entries),
    // The package declares the content namespace on <rss> when an item has
    // content: the document around the items is written with such an item.
    around: (entries) => entries.find((entry) => rssItem(entry, options.site).content),
    items: (entries) => rssDocument(BARE_FEED, options, entries),
  });
}

export const renderAtom = (events: readonly CalendarEvent[], options: FeedOptions): string =>
  renderFeed(events, options, "atom");

/** An entry as the package's Atom entry. */
function atomEntry(entry: FeedEntry, scheme: string): Item {
  return {
    // type="html": the title is HTML, so the plain-text title is escaped once.
    title: cdataHtml(escapeHtml(entry.title)),
    id: entry.id,
    ...itemBody(entry),
    category: entry.categories.map((category) => ({
      term: xmlAttr(singleLine(category.id)),
      name: xmlAttr(singleLine(category.name)),
      scheme,
    })),
  };
}

/** The Atom document of these entries, written by the package in one piece. */
function atomDocument(feed: PreparedFeed, options: FeedOptions, entries: readonly FeedEntry[]) {
  const out = new Feed({
    ...channelOf(feed, options),
    id: feed.urls.atom,
    feedLinks: { atom: feed.urls.atom },
    // RFC 4287 4.1.1: a feed needs an author unless every entry has one.
    author: { name: textNode(singleLine(options.site.title)), link: homeUrl(options.site) },
  });
  const scheme = xmlAttr(absoluteUrl(options.site.url, paths.categories()));
  for (const entry of entries) out.addItem(atomEntry(entry, scheme));
  return withAtomLanguage(addAtomEnclosures(out.atom1(), entries), options.site.lang);
}

function writeAtom(feed: PreparedFeed, options: FeedOptions, itemsAtOnce: number): FeedText {
  return inPieces(feed.entries, itemsAtOnce, ATOM_ENTRIES, {
    document: (entries) => atomDocument(feed, options, entries),
    around: (entries) => entries[0],
    items: (entries) => atomDocument(BARE_FEED, options, entries),
  });
}

/**
 * The feed's language on its root, as RSS has <language>: `xml:lang`, which
 * RFC 4287 (section 2) lets any Atom element carry and its children inherit.
 * The package writes none; the tag is a canonical BCP 47 tag (src/config/site.ts),
 * safe in an attribute.
 */
function withAtomLanguage(xml: string, lang: string): string {
  return xml.replace(
    /<feed xmlns="http:\/\/www\.w3\.org\/2005\/Atom"/,
    (root) => `${root} xml:lang="${lang}"`,
  );
}

export const renderJsonFeed = (events: readonly CalendarEvent[], options: FeedOptions): string =>
  renderFeed(events, options, "json");

function writeJsonFeed(feed: PreparedFeed, options: FeedOptions): FeedText {
  const json = jsonFeed({
    title: feed.title,
    homePageUrl: feed.urls.page,
    feedUrl: feed.urls.json,
    description: feed.description,
    language: options.site.lang,
    author: { name: singleLine(options.site.title), url: homeUrl(options.site) },
    hub: options.site.websubHub ?? null,
    entries: feed.entries,
  });
  // Its line break a piece of its own: a large feed's text is not copied for it.
  return [json, "\n"];
}

/** The news feed formats (calendar files are ics.ts's). */
export type NewsFeedFormat = Exclude<FeedFormat, "ics">;

/** A feed's text, whole or in pieces (inPieces). */
type FeedText = string | readonly string[];

const WRITERS: Record<
  NewsFeedFormat,
  (feed: PreparedFeed, options: FeedOptions, itemsAtOnce: number) => FeedText
> = {
  rss: writeRss,
  atom: writeAtom,
  json: writeJsonFeed,
};

/**
 * The feed's text as the build writes it: in pieces when it has many items
 * (inPieces), never made one text. `itemsAtOnce`: how many items the package
 * writes in one document; the same bytes whatever it is.
 */
export function feedFile(
  events: readonly CalendarEvent[],
  options: FeedOptions,
  format: NewsFeedFormat,
  itemsAtOnce = ITEMS_AT_ONCE,
): FeedText {
  return WRITERS[format](prepare(events, options), options, itemsAtOnce);
}

/** The feed's text, whole. */
export function renderFeed(
  events: readonly CalendarEvent[],
  options: FeedOptions,
  format: NewsFeedFormat,
  itemsAtOnce = ITEMS_AT_ONCE,
): string {
  const text = feedFile(events, options, format, itemsAtOnce);
  return typeof text === "string" ? text : text.join("");
}

/** What inPieces needs of a feed format: its writer's three ways of writing entries. */
interface FeedPieces {
  /** The feed's document for these entries, written in one piece. */
  document(entries: readonly FeedEntry[]): string;
  /** The entry the document around the items is written with. */
  around(entries: readonly FeedEntry[]): FeedEntry | undefined;
  /** A document of these entries around nothing of the feed's own (BARE_FEED). */
  items(entries: readonly FeedEntry[]): string;
}

const ITEMS_AT_ONCE = 32;

/** An item's tags, as the package writes them: the first is where the items begin, the last where they end. */
interface ItemTags {
  readonly open: string;
  readonly close: string;
}

const RSS_ITEMS: ItemTags = { open: "<item>", close: "</item>" };
const ATOM_ENTRIES: ItemTags = { open: "<entry>", close: "</entry>" };

/** The feed's own fields, empty: a document that is only there for its items. */
const BARE_FEED: PreparedFeed = {
  title: "",
  description: "",
  urls: { page: "", rss: "", atom: "", json: "", ics: "", qr: "" },
  entries: [],
  updated: new Date(0),
};

/**
 * How a feed of many items is written (docs/performance.md, What changed,
 * item 68). The package writes a document as one text, and each level of
 * its XML writer copies the level below it whole: a feed of 200 items is a
 * text of some 240 kB made several times over, each time among V8's large
 * objects, on pages fresh from the system (joining 60 texts of 2.2 kB took
 * 20 times as long a text as joining 58, the first over 128 kB). So the
 * items are written `ITEMS_AT_ONCE` at a time (`items`, in a document
 * around nothing of the feed's own, and cut out), and the document around
 * them once with one of them (`around`, cut where it is): the same bytes
 * (test/outputs/feeds.test.ts). The pieces go to the file writer as they
 * are, so a feed is never made one text (FileContent in
 * src/render/disk-writes.ts). A feed of that many items or fewer is written
 * in one piece, as before.
 */
function inPieces(
  entries: readonly FeedEntry[],
  itemsAtOnce: number,
  tags: ItemTags,
  pieces: FeedPieces,
): FeedText {
  const around = entries.length > itemsAtOnce ? pieces.around(entries) : undefined;
  if (!around) return `${pieces.document(entries)}\n`;
  const outer = pieces.document([around]);
  const [start, end] = itemsSpan(outer, tags);
  const parts = [outer.slice(0, start)];
  for (let at = 0; at < entries.length; at += itemsAtOnce) {
    const bare = pieces.items(entries.slice(at, at + itemsAtOnce));
    const [from, to] = itemsSpan(bare, tags);
    parts.push(bare.slice(from, to));
  }
  parts.push(outer.slice(end), "\n");
  return parts;
}

/**
 * Where a document's items are: from the line break before the first to the
 * end of the last. Before them is only text the package escapes (the feed's
 * own fields), after them only its closing tags.
 */
function itemsSpan(xml: string, { open, close }: ItemTags): [number, number] {
  return [xml.lastIndexOf("\n", xml.indexOf(open)), xml.lastIndexOf(close) + close.length];
}

/**
 * WebSub (W3C Recommendation, section 4): the feed names its hub beside its
 * own address (rel="self", written by the package from `feedLinks`), so
 * readers can subscribe for pushes instead of polling.
 */
function hubOf(site: FeedSiteOptions): { hub?: string } {
  return site.websubHub ? { hub: xmlAttr(site.websubHub) } : {};
}

/**
 * The site's home page, where its feeds name their author: SITE_URL with the
 * slash of its folder, so a site in a folder is not left for its parent.
 */
function homeUrl(site: FeedSiteOptions): string {
  return absoluteUrl(site.url, paths.home());
}

/**
 * Atom enclosures are written here rather than by the package, which would
 * state "image/<last path segment>" as the type (see feeds-image-type.ts).
 * The entry's own alternate link is unique (one entry per event page).
 */
function addAtomEnclosures(xml: string, entries: readonly FeedEntry[]): string {
  const enclosures = new Map<string, string>();
  for (const entry of entries) {
    // Without a type, readers assume text/html (feedparser does); the image
    // still appears in the content.
    if (!entry.image?.type) continue;
    const href = xmlAttr(entry.image.url).replace(/"/g, "&quot;");
    enclosures.set(
      xmlAttr(entry.url),
      `<link rel="enclosure" href="${href}" type="${entry.image.type}"/>`,
    );
  }
  if (enclosures.size === 0) return xml;
  // Entry alternate links are the only <link> elements with href as their sole attribute.
  return xml.replace(
    /( *)<link href="([^"]*)"\/>/g,
    (link: string, indent: string, href: string) => {
      const enclosure = enclosures.get(href);
      return enclosure ? `${link}\n${indent}${enclosure}` : link;
    },
  );
}
