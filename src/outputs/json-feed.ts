import { singleLine } from "./event-text.ts";
import type { FeedEntry } from "./feeds-entry.ts";

/**
 * JSON Feed 1.1 (jsonfeed.org/version/1.1), written here: the `feed` package
 * writes version 1.0 only (a singular `author`, no `language`), and a JSON
 * Feed is a plain JSON object, which needs no serializer of its own.
 *
 * Readers of 1.0 keep working: 1.1 only adds fields, and the deprecated
 * `author` is written beside `authors`, as the specification allows for
 * them ("Deprecations"; readers that know 1.1 prefer `authors`).
 */

export const JSON_FEED_VERSION = "https://jsonfeed.org/version/1.1";

/** An author object: every member optional, at least one present (the spec's "authors"). */
export interface JsonFeedAuthor {
  readonly name: string;
  readonly url: string;
}

export interface JsonFeedItem {
  readonly id: string;
  readonly content_html: string;
  readonly url: string;
  readonly title: string;
  readonly summary: string;
  readonly image?: string;
  readonly date_modified: string;
  readonly date_published?: string;
  readonly tags: readonly string[];
}

export interface JsonFeed {
  readonly version: typeof JSON_FEED_VERSION;
  readonly title: string;
  readonly home_page_url: string;
  readonly feed_url: string;
  readonly hubs?: readonly { readonly type: "WebSub"; readonly url: string }[];
  readonly description: string;
  /** The feed's language, an RFC 5646 tag ("en-GB"). */
  readonly language: string;
  readonly authors: readonly JsonFeedAuthor[];
  /** JSON Feed 1.0's field, for its readers: the first of `authors`. */
  readonly author: JsonFeedAuthor;
  readonly items: readonly JsonFeedItem[];
}

export interface JsonFeedInput {
  readonly title: string;
  readonly homePageUrl: string;
  readonly feedUrl: string;
  readonly description: string;
  readonly language: string;
  readonly author: JsonFeedAuthor;
  /** A WebSub hub (W3C WebSub, section 4; the spec's `hubs`); null: none. */
  readonly hub: string | null;
  /** Plain text everywhere but `contentHtml` (the only HTML field JSON Feed has). */
  readonly entries: readonly FeedEntry[];
}

/** The feed as JSON, indented by four spaces, as the other writers' output is. */
export function jsonFeed(input: JsonFeedInput): string {
  const feed: JsonFeed = {
    version: JSON_FEED_VERSION,
    title: input.title,
    home_page_url: input.homePageUrl,
    feed_url: input.feedUrl,
    ...(input.hub ? { hubs: [{ type: "WebSub", url: input.hub }] } : {}),
    description: input.description,
    language: input.language,
    authors: [input.author],
    author: input.author,
    items: input.entries.map(jsonFeedItem),
  };
  return JSON.stringify(feed, null, 4);
}

function jsonFeedItem(entry: FeedEntry): JsonFeedItem {
  return {
    id: entry.id,
    content_html: entry.contentHtml,
    url: entry.url,
    title: entry.title,
    // A sentence of plain text: when and where.
    summary: entry.summary,
    // The main image's URL (a string, not an attachment); also in the content.
    ...(entry.image ? { image: entry.image.url } : {}),
    date_modified: entry.updated.toISOString(),
    ...(entry.published ? { date_published: entry.published.toISOString() } : {}),
    tags: entry.categories.map((category) => singleLine(category.name)),
  };
}
