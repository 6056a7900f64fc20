import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { readMetrics } from "../../src/metrics.ts";
import type { CalendarEvent } from "../../src/model/types.ts";
import { feedFileGroups } from "../../src/outputs/feed-files.ts";
import { FeedScopes } from "../../src/outputs/feed-scopes.ts";
import { EventLoopTurns } from "../../src/render/event-loop-turns.ts";
import { type FileGroup, fileGroup, writeFileGroups } from "../../src/render/file-group.ts";
import { FileWriter } from "../../src/render/file-writer.ts";
import { hoursAfterNow, NOW } from "../helpers/clock.ts";
import { calendarEvent, calendarOf } from "../helpers/events.ts";
import { siteWith } from "../helpers/test-site.ts";

/**
 * Each event's feed entry is made once, shared by every feed that shows it,
 * and let go once the last scope whose feeds show it is written
 * (src/outputs/feed-entry-lifetimes.ts): checked through the build's own
 * feeds group, written to disk, against what the written JSON feeds show.
 */

const CATEGORIES = [
  { id: "music", name: "Music" },
  { id: "walks", name: "Walks" },
];

/** Twelve events a day apart over two calendars, each in one category. */
const EVENTS: CalendarEvent[] = Array.from({ length: 12 }, (_, at) =>
  calendarEvent({
    id: `e${at}`,
    calendarId: at % 2 === 0 ? "north" : "south",
    title: `Event ${at}`,
    start: hoursAfterNow(24 * (at + 1)),
    end: hoursAfterNow(24 * (at + 1) + 2),
    categories: [CATEGORIES[Math.floor(at / 3) % 2] as (typeof CATEGORIES)[number]],
    descriptionHtml: `<p>About event ${at}</p>`,
  }),
);

let folder = "";
afterEach(() => {
  if (folder) rmSync(folder, { recursive: true, force: true });
});

const made = () => readMetrics().counters["feeds.entriesMade"] ?? 0;

describe("feed entry lifetimes", () => {
  it("should make each event's entry once and let it go after the last scope whose feeds show it", async () => {
    folder = mkdtempSync(join(tmpdir(), "ecp-feed-entries-"));
    // The site's feeds show the first four events only; every scope has its own.
    const site = siteWith({ feedMaxItems: 4 });
    const scopes = new FeedScopes(
      {
        fetchedAt: NOW,
        updatedAt: NOW,
        calendars: [calendarOf("north"), calendarOf("south")],
        events: EVENTS,
        categories: CATEGORIES,
        removed: [],
        announcements: [],
      },
      site,
      () => {},
    );
    const feeds = feedFileGroups(scopes, () => {}).find((group) => group.name === "feeds");
    if (!feeds?.after) throw new Error("no feeds group, or it lets nothing go");
    // What the memo holds after each feed file, before the group is done and clears it.
    const written: { path: string; held: number }[] = [];
    const watched: FileGroup = fileGroup({
      ...feeds,
      after: (item) => {
        feeds.after?.(item);
        written.push({ path: feeds.path(item), held: scopes.entries.held });
      },
    });
    const before = made();
    await writeFileGroups([watched], new FileWriter(folder), new EventLoopTurns());

    // The events each scope's feeds show, in the order they were written, from its JSON feed.
    const shown = written
      .filter(({ path }) => path.endsWith("feed.json"))
      .map(({ path, held }) => {
        const feed = JSON.parse(readFileSync(join(folder, path), "utf8")) as {
          items: { id: string }[];
        };
        return { scope: dirname(path), held, ids: new Set(feed.items.map((item) => item.id)) };
      });
    expect(shown.map(({ scope }) => scope)).toEqual([
      "/",
      "/calendars/north",
      "/calendars/south",
      "/categories/music",
      "/categories/walks",
      "/calendars/north/categories/music",
      "/calendars/north/categories/walks",
      "/calendars/south/categories/music",
      "/calendars/south/categories/walks",
    ]);
    expect(shown[0]?.ids.size).toBe(4);
    const all = new Set(shown.flatMap(({ ids }) => [...ids]));
    expect(all.size).toBe(EVENTS.length);
    // Made once each, however many feeds show it, and never made again after it went.
    expect(made() - before).toBe(all.size);
    // After each scope: held are the events shown so far that a later scope shows too.
    shown.forEach(({ scope, held }, at) => {
      const later = new Set(shown.slice(at + 1).flatMap(({ ids }) => [...ids]));
      const sofar = new Set(shown.slice(0, at + 1).flatMap(({ ids }) => [...ids]));
      const needed = [...sofar].filter((id) => later.has(id)).length;
      expect({ scope, held }).toEqual({ scope, held: needed });
    });
    // Never every entry at once, and none once the last scope is written.
    expect(Math.max(...shown.map(({ held }) => held))).toBeLessThan(all.size);
    expect(shown.at(-1)?.held).toBe(0);
  });
});
