import type { NewsFeedFormat } from "./feeds.ts";

/**
 * A feed cut into the text before its items, each item, and the text after
 * them, as the `feed` package writes the three formats (indented by four
 * spaces, items last): `joinFeedItems` puts them back together byte for
 * byte. What lets a feed keep the items of its published copy whose events
 * did not change (feeds.ts, renderFeedReusing).
 *
 * An item starts on a line of its own with its opening tag (or brace) at
 * the items' depth and ends on a line with its closing one. No text inside
 * an item can make such a line: titles are single lines, summaries and
 * content are escaped or sanitized HTML (an `<item>` or `<entry>` tag would
 * not survive the sanitizer, and a `<` of text is `&lt;`), and JSON strings
 * hold no line breaks.
 */

interface Layout {
  /** The line an item starts with, its line break before it. */
  readonly open: Buffer;
  /** The line it ends with, its line break before it. */
  readonly close: Buffer;
  /** Between one item's end and the next one's line break. */
  readonly between: Buffer;
  /** `between` and `open`: what follows an item that another item follows. */
  readonly next: Buffer;
  /** `between` and a line break: what joins two items' lines. */
  readonly separator: Buffer;
}

function layout(open: string, close: string, between: string): Layout {
  return {
    open: Buffer.from(open),
    close: Buffer.from(close),
    between: Buffer.from(between),
    next: Buffer.from(between + open),
    separator: Buffer.from(`${between}\n`),
  };
}

const LAYOUTS: Readonly<Record<NewsFeedFormat, Layout>> = {
  rss: layout("\n        <item>\n", "\n        </item>", ""),
  atom: layout("\n    <entry>\n", "\n    </entry>", ""),
  json: layout("\n        {\n", "\n        }", ","),
};

/**
 * Bytes, not text: the published copy is read from disk and the feed is
 * written back, so cutting and joining its bytes spares decoding and
 * encoding every kept item (most of a changed feed). The lines looked for
 * are ASCII, and no byte of a character UTF-8 writes in several bytes is.
 */
export interface FeedItems {
  readonly head: Buffer;
  /** Each item's lines, without the line breaks around them. */
  readonly items: readonly Buffer[];
  readonly tail: Buffer;
}

/** The feed cut into its items; null when it has none or is not laid out as written here. */
export function feedItems(format: NewsFeedFormat, feed: Buffer): FeedItems | null {
  const { open, close, between, next } = LAYOUTS[format];
  const first = feed.indexOf(open);
  if (first < 0) return null;
  const items: Buffer[] = [];
  let start = first + 1;
  for (;;) {
    const end = feed.indexOf(close, start + open.length - 1);
    if (end < 0) return null;
    const after = end + close.length;
    items.push(feed.subarray(start, after));
    if (!startsWith(feed, next, after)) {
      return { head: feed.subarray(0, first + 1), items, tail: feed.subarray(after) };
    }
    start = after + between.length + 1;
  }
}

function startsWith(bytes: Buffer, prefix: Buffer, at: number): boolean {
  const end = at + prefix.length;
  return end <= bytes.length && bytes.compare(prefix, 0, prefix.length, at, end) === 0;
}

/** The feed the items were cut from, with these items. */
export function joinFeedItems(format: NewsFeedFormat, feed: FeedItems): Buffer {
  const { separator } = LAYOUTS[format];
  const parts: Buffer[] = [feed.head];
  feed.items.forEach((item, index) => {
    if (index > 0) parts.push(separator);
    parts.push(item);
  });
  parts.push(feed.tail);
  return Buffer.concat(parts);
}
