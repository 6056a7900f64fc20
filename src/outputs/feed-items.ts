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
  readonly open: string;
  /** The line it ends with, its line break before it. */
  readonly close: string;
  /** Between one item's end and the next one's line break. */
  readonly between: string;
}

const LAYOUTS: Readonly<Record<NewsFeedFormat, Layout>> = {
  rss: { open: "\n        <item>\n", close: "\n        </item>", between: "" },
  atom: { open: "\n    <entry>\n", close: "\n    </entry>", between: "" },
  json: { open: "\n        {\n", close: "\n        }", between: "," },
};

export interface FeedItems {
  readonly head: string;
  /** Each item's lines, without the line breaks around them. */
  readonly items: readonly string[];
  readonly tail: string;
}

/** The feed cut into its items; null when it has none or is not laid out as written here. */
export function feedItems(format: NewsFeedFormat, text: string): FeedItems | null {
  const { open, close, between } = LAYOUTS[format];
  const first = text.indexOf(open);
  if (first < 0) return null;
  const items: string[] = [];
  let start = first + 1;
  for (;;) {
    const end = text.indexOf(close, start + open.length - 1);
    if (end < 0) return null;
    const after = end + close.length;
    items.push(text.slice(start, after));
    if (!text.startsWith(between + open, after)) {
      return { head: text.slice(0, first + 1), items, tail: text.slice(after) };
    }
    start = after + between.length + 1;
  }
}

/** The feed the items were cut from, with these items. */
export function joinFeedItems(format: NewsFeedFormat, feed: FeedItems): string {
  return feed.head + feed.items.join(`${LAYOUTS[format].between}\n`) + feed.tail;
}
