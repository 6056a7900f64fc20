import { describe, expect, it } from "vitest";
import type { Announcement } from "../../src/changes/published-state.ts";
import type { CalendarEvent } from "../../src/model/types.ts";
import { feedItems, joinFeedItems } from "../../src/outputs/feed-items.ts";
import {
  type FeedOptions,
  feedPieces,
  type NewsFeedFormat,
  renderFeed,
  renderFeedReusing,
} from "../../src/outputs/feeds.ts";
import type { PublishedPieces } from "../../src/render/file-writer.ts";
import { hostileSnapshot } from "../fixtures/feeds-hostile.ts";
import { SITE_WIDE } from "../helpers/test-site.ts";

/*
 * A feed whose events partly changed is made from the items of its
 * published copy and the items rendered anew, and must be the feed a
 * render from scratch writes, byte for byte, in each format.
 */

const FORMATS: readonly NewsFeedFormat[] = ["rss", "atom", "json"];
const events = hostileSnapshot.events;

const announcement = (event: CalendarEvent, at: string): Announcement => ({
  id: `https://events.example.org/calendars/${event.calendarId}/events/${event.id}/#cancelled-${at}`,
  kind: "cancelled",
  at,
  calendarId: event.calendarId,
  eventId: event.id,
  title: event.title,
  url: `https://events.example.org/calendars/${event.calendarId}/events/${event.id}/`,
  start: event.start,
  end: event.end,
  allDay: event.allDay,
  timeZone: event.timeZone,
  previousStart: null,
  previousEnd: null,
  categories: event.categories,
});

/**
 * What the writer offers of a published feed (FileWriter.publishedPieces):
 * its text, its pieces, and where this build's pieces (`next`) are among them.
 */
const published = (
  text: string,
  pieces: readonly string[],
  next: readonly string[],
): PublishedPieces => ({
  bytes: Buffer.from(text),
  count: pieces.length,
  positions: next.map((piece) => pieces.indexOf(piece)),
});

/** A feed as the writer gets it (text, or bytes when items were reused), as text. */
const asText = (feed: string | Uint8Array): string =>
  typeof feed === "string" ? feed : Buffer.from(feed).toString();

const options = (announcements: readonly Announcement[] = []): FeedOptions => ({
  ...SITE_WIDE,
  announcements,
});

describe("feedItems", () => {
  it("should cut every feed into its items and put it back together byte for byte", () => {
    const [first] = events;
    if (!first) throw new Error("no fixture events");
    for (const format of FORMATS) {
      const text = renderFeed(
        events,
        options([announcement(first, "2026-03-02T10:00:00Z")]),
        format,
      );
      const cut = feedItems(format, Buffer.from(text));
      expect(cut?.items.length, format).toBe(feedPieces(events, options(), format).length + 1);
      expect(cut && asText(joinFeedItems(format, cut)), format).toBe(text);
    }
  });

  it("should not cut a feed without items", () => {
    for (const format of FORMATS) {
      expect(feedItems(format, Buffer.from(renderFeed([], options(), format))), format).toBeNull();
    }
  });
});

describe("renderFeedReusing", () => {
  it("should write what a render from scratch writes, taking only unchanged items from the published copy", () => {
    const [first, second, third, ...rest] = events;
    if (!first || !second || !third) throw new Error("too few fixture events");
    const before = { events, options: options([announcement(third, "2026-03-01T10:00:00Z")]) };
    // One title changed, one event gone, one new, and another announcement first.
    const renamed = { ...first, title: `${first.title} (moved indoors)` };
    const added = { ...second, id: `${second.id}-again`, title: "A new event" };
    const after = {
      events: [renamed, added, ...rest],
      options: options([
        announcement(second, "2026-03-03T10:00:00Z"),
        announcement(third, "2026-03-01T10:00:00Z"),
      ]),
    };
    for (const format of FORMATS) {
      const text = renderFeed(before.events, before.options, format);
      const pieces = feedPieces(before.events, before.options, format);
      const fresh = renderFeed(after.events, after.options, format);
      const next = feedPieces(after.events, after.options, format);
      expect(
        asText(
          renderFeedReusing(after.events, after.options, format, published(text, pieces, next)),
        ),
      ).toBe(fresh);

      // The unchanged items come from the published copy: marked there, they
      // come out marked; the changed and new ones come out as rendered.
      const cut = feedItems(format, Buffer.from(text));
      if (!cut) throw new Error(`${format}: no items`);
      const mark = (item: Buffer) =>
        Buffer.from(
          item.toString().replace("https://events.example.org/", "https://kept.example.org/"),
        );
      const marked = asText(joinFeedItems(format, { ...cut, items: cut.items.map(mark) }));
      const made = asText(
        renderFeedReusing(after.events, after.options, format, published(marked, pieces, next)),
      );
      const kept = next.filter((piece) => pieces.includes(piece)).length;
      expect(made.split("https://kept.example.org/").length - 1, format).toBe(kept);
      expect(kept, format).toBe(next.length - 3);
      expect(
        made.replaceAll("https://kept.example.org/", "https://events.example.org/"),
        format,
      ).toBe(fresh);
    }
  });

  it("should render every item again under other settings, and when the published copy cannot be cut", () => {
    for (const format of FORMATS) {
      const text = renderFeed(events, options(), format);
      const pieces = feedPieces(events, options(), format);
      const elsewhere: FeedOptions = {
        ...options(),
        site: { ...SITE_WIDE.site, url: "https://agenda.example.net/" },
      };
      const fresh = renderFeed(events, elsewhere, format);
      const next = feedPieces(events, elsewhere, format);
      expect(
        next.filter((piece) => pieces.includes(piece)),
        format,
      ).toEqual([]);
      expect(
        asText(renderFeedReusing(events, elsewhere, format, published(text, pieces, next))),
      ).toBe(fresh);
      // A published copy that is not the feed its pieces describe: rendered whole.
      const same = renderFeed(events, options(), format);
      expect(
        asText(
          renderFeedReusing(events, options(), format, published("not a feed", pieces, pieces)),
        ),
      ).toBe(same);
    }
  });
});
