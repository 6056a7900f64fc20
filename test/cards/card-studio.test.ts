import { readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { CardContent } from "../../src/cards/card-content.ts";
import { OG_SIZE, STRUCTURED_DATA_SIZES } from "../../src/cards/card-layout.ts";
import { CardStudio } from "../../src/cards/card-studio.ts";
import { CARD_CALENDAR, cardWriter } from "../helpers/cards.ts";
import { calendarEvent, withNewDate } from "../helpers/events.ts";
import { pngSize } from "../helpers/png.ts";
import { tempDir } from "../helpers/temp-dir.ts";

/** Renders counted, not timed: what the cache saves a build. */

const CALENDAR = CARD_CALENDAR;
const writer = cardWriter;
const ALL = [OG_SIZE, ...STRUCTURED_DATA_SIZES];

const eventOf = (n: number, title = `Event ${n}`) =>
  calendarEvent({
    id: `e${n}`,
    calendarId: "music",
    title,
    start: "2026-04-12T20:00:00+02:00",
    end: "2026-04-12T22:00:00+02:00",
  });

function card(n: number, title = `Event ${n}`): CardContent {
  return writer.event(eventOf(n, title), CALENDAR, "#862e9c", null);
}

describe("CardStudio", () => {
  it("should render each card once, reuse kept ones, and render only what changed", async () => {
    const dir = tempDir("cards-");
    const cold = await CardStudio.open(dir, { concurrency: 2 });
    const contents = [1, 2, 3].map((n) => card(n));
    const files = contents.flatMap((content) => cold.request(content, ALL));
    // Asked twice in one build (early, then for the pages): still once.
    for (const content of contents) cold.request(content, ALL);
    await cold.settled();
    expect(cold.stats).toMatchObject({ rendered: 12, reused: 0, started: true });
    for (const file of files) {
      expect(pngSize(readFileSync(file.cachePath))).toEqual({
        width: file.size.width,
        height: file.size.height,
      });
    }

    // A later build (a new process): the same content is in the cache, nothing is drawn.
    const warm = await CardStudio.open(dir, { concurrency: 2 });
    const again = contents.flatMap((content) => warm.request(content, ALL));
    await warm.settled();
    // Nothing to draw: no drawing process started.
    expect(warm.stats).toMatchObject({ rendered: 0, reused: 12, started: false });
    expect(again.map((file) => file.key)).toEqual(files.map((file) => file.key));

    // One event edited: its four cards, and no other.
    const changed = await CardStudio.open(dir, { concurrency: 2 });
    const edited = [card(1), card(2, "Event 2, moved indoors"), card(3)];
    const next = edited.flatMap((content) => changed.request(content, ALL));
    await changed.settled();
    expect(changed.stats).toMatchObject({ rendered: 4, reused: 8, started: true });

    // The cache keeps what the last build used, nothing older.
    expect(changed.prune(new Set(next.map((file) => file.key)))).toBe(4);
    expect(readdirSync(dir).sort()).toEqual(next.map((file) => `${file.key}.png`).sort());
    await Promise.all([cold.close(), warm.close(), changed.close()]);
  });

  it("should keep a card asked for early that the site did not use, so that the next build does not draw it again", async () => {
    const dir = tempDir("cards-");
    // Asked for early, from the event as the portal sends it; for its page, with the
    // badge of a new date the published state adds: two cards, of which the site uses one.
    const early = card(1);
    const published = writer.event(
      withNewDate(eventOf(1), "2026-04-05T20:00:00+02:00"),
      CALENDAR,
      "#862e9c",
      null,
    );
    const build = async () => {
      const studio = await CardStudio.open(dir, { concurrency: 1 });
      studio.request(early, [OG_SIZE]);
      const [used] = studio.request(published, [OG_SIZE]);
      await studio.settled();
      studio.prune(new Set([used?.key ?? ""]));
      await studio.close();
      return studio.stats;
    };
    expect(await build()).toMatchObject({ rendered: 2, reused: 0 });
    // Nothing changed: both found, neither drawn.
    expect(await build()).toMatchObject({ rendered: 0, reused: 2 });
    expect(readdirSync(dir)).toHaveLength(2);
  });

  it("should draw again, in the next build of the same process, a card removed from the cache", async () => {
    const dir = tempDir("cards-");
    // Drawn by an earlier process: in the cache when the next one starts.
    const earlier = await CardStudio.open(dir, { concurrency: 1 });
    const [kept] = earlier.request(card(1), [OG_SIZE]);
    await earlier.settled();
    await earlier.close();
    // npm start keeps one studio across its builds; the cache may be cleared meanwhile.
    const studio = await CardStudio.open(dir, { concurrency: 1 });
    const build = async () => {
      const files = studio.request(card(1), [OG_SIZE]);
      await studio.settled();
      studio.prune(new Set(files.map((file) => file.key)));
    };
    await build();
    expect(studio.stats).toMatchObject({ rendered: 0, reused: 1 });
    rmSync(kept?.cachePath ?? "");
    // Forgotten by a build that did not use it, as any card is.
    studio.prune(new Set());
    await build();
    expect(studio.stats).toMatchObject({ rendered: 1, reused: 1 });
    expect(readdirSync(dir)).toEqual([`${kept?.key}.png`]);
    await studio.close();
  });

  it("should name a card by everything it shows", async () => {
    const studio = await CardStudio.open(tempDir("cards-"));
    const key = (content: CardContent) => studio.files(content, [OG_SIZE])[0]?.key;
    const base = card(1);
    expect(key(card(1))).toBe(key(base));
    expect(key({ ...base, title: "Other" })).not.toBe(key(base));
    expect(key({ ...base, colors: ["#0b7285"] })).not.toBe(key(base));
    expect(key({ ...base, lang: "nl" })).not.toBe(key(base));
    // An image by its bytes' hash (its name), wherever the build keeps it.
    const image = { name: "ab12.jpg", cachePath: join("/one", "ab12.jpg") };
    const moved = { name: "ab12.jpg", cachePath: join("/other", "ab12.jpg") };
    expect(key({ ...base, image })).not.toBe(key(base));
    expect(key({ ...base, image: moved })).toBe(key({ ...base, image }));
    expect(studio.files(base, [OG_SIZE])[0]?.key).not.toBe(
      studio.files(base, [STRUCTURED_DATA_SIZES[0] as typeof OG_SIZE])[0]?.key,
    );
    await studio.close();
  });
});
