import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Node, Renderer } from "@takumi-rs/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CardContent } from "../../src/cards/card-content.ts";
import { cardFonts } from "../../src/cards/card-fonts.ts";
import {
  type CardSize,
  cardNode,
  OG_SIZE,
  STRUCTURED_DATA_SIZES,
} from "../../src/cards/card-layout.ts";
import { CardRenderer } from "../../src/cards/card-renderer.ts";
import { CARD_CALENDAR, cardWriter } from "../helpers/cards.ts";
import { calendarEvent } from "../helpers/events.ts";
import { decodePng } from "../helpers/png.ts";

/**
 * Cards drawn for real with the renderer and the fonts the build uses, read
 * back with a PNG decoder of the tests' own (test/helpers/png.ts).
 */

const CALENDAR = CARD_CALENDAR;
const writer = cardWriter;

function eventCard(title: string, image: CardContent["image"] = null): CardContent {
  const event = calendarEvent({
    id: "e1",
    calendarId: "music",
    title,
    start: "2026-04-12T20:00:00+02:00",
    end: "2026-04-12T22:00:00+02:00",
    location: { name: "Vondelpark", address: null, geo: null },
  });
  return writer.event(event, CALENDAR, "#862e9c", image);
}

let renderer: CardRenderer;
let work: string;

beforeAll(async () => {
  renderer = await CardRenderer.open();
  work = mkdtempSync(join(tmpdir(), "ecp-cards-"));
});

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("CardRenderer", () => {
  it("should draw a 1200 x 630 PNG with the calendar's colour and dark text on white", async () => {
    const { cards, imageProblem } = await renderer.render(eventCard("Jazz in the park"), [OG_SIZE]);
    expect(imageProblem).toBeNull();
    const png = decodePng((cards[0] as { png: Buffer }).png);
    expect([png.width, png.height]).toEqual([1200, 630]);
    // The band down the left edge is the calendar's colour, top to bottom.
    for (const y of [0, 315, 629]) expect(png.hexAt(5, y)).toBe("#862e9c");
    // The paper is white, and the text on it is dark: a card, not an empty picture.
    expect(png.hexAt(1190, 620)).toBe("#ffffff");
    let dark = 0;
    const colours = new Set<string>();
    for (let y = 0; y < png.height; y += 3) {
      for (let x = 40; x < png.width; x += 3) {
        const hex = png.hexAt(x, y);
        colours.add(hex);
        if (Number.parseInt(hex.slice(1, 3), 16) < 80) dark++;
      }
    }
    expect(dark).toBeGreaterThan(1_000);
    // Anti-aliased type has many shades between ink and paper.
    expect(colours.size).toBeGreaterThan(20);
  });

  it("should draw the structured data's shapes in their sizes", async () => {
    const { cards } = await renderer.render(eventCard("Jazz"), STRUCTURED_DATA_SIZES);
    const sizes = cards.map((card) => {
      const png = decodePng(card.png);
      return [png.width, png.height];
    });
    expect(sizes).toEqual(STRUCTURED_DATA_SIZES.map((size) => [size.width, size.height]));
    for (const [width, height] of sizes as [number, number][]) {
      // Google: at least 50,000 pixels, and 16:9, 4:3, 1:1.
      expect(width * height).toBeGreaterThanOrEqual(50_000);
    }
    const ratios = sizes.map(([w, h]) => (w as number) / (h as number));
    expect(ratios[0]).toBeCloseTo(16 / 9, 2);
    expect(ratios[1]).toBeCloseTo(4 / 3, 2);
    expect(ratios[2]).toBe(1);
  });

  it("should give the same bytes for the same card, from another renderer too", async () => {
    const content = eventCard("Repair Café: bring what is broken");
    const first = await renderer.render(content, [OG_SIZE, ...STRUCTURED_DATA_SIZES]);
    const again = await renderer.render(content, [OG_SIZE, ...STRUCTURED_DATA_SIZES]);
    const other = await (await CardRenderer.open()).render(content, [
      OG_SIZE,
      ...STRUCTURED_DATA_SIZES,
    ]);
    const bytes = (result: typeof first) => result.cards.map((card) => card.png.toString("base64"));
    expect(bytes(again)).toEqual(bytes(first));
    expect(bytes(other)).toEqual(bytes(first));
    // And a different card differs.
    const changed = await renderer.render(eventCard("Repair Café: bring what is broken!"), [
      OG_SIZE,
    ]);
    expect(changed.cards[0]?.png.equals(first.cards[0]?.png as Buffer)).toBe(false);
  });

  it("should draw the event's image from the bytes the build kept, and do without one it cannot read", async () => {
    const svg = join(work, "picture.svg");
    writeFileSync(
      svg,
      '<svg xmlns="http://www.w3.org/2000/svg" width="800" height="600"><rect width="800" height="600" fill="#0b7285"/></svg>',
    );
    const withImage = await renderer.render(
      eventCard("Jazz", { name: "picture.svg", cachePath: svg }),
      [OG_SIZE],
    );
    expect(withImage.imageProblem).toBeNull();
    const png = decodePng((withImage.cards[0] as { png: Buffer }).png);
    // Beside the text on a wide card: the right-hand side is the picture.
    expect(png.hexAt(1150, 315)).toBe("#0b7285");

    const broken = join(work, "broken.jpg");
    writeFileSync(broken, "not an image at all");
    const without = await renderer.render(
      eventCard("Jazz", { name: "broken.jpg", cachePath: broken }),
      [OG_SIZE],
    );
    expect(without.imageProblem).toMatch(/broken\.jpg/);
    expect(decodePng((without.cards[0] as { png: Buffer }).png).hexAt(1150, 315)).toBe("#ffffff");
  });

  it("should draw the image covering its box, centred, whatever its shape (a wide JPEG, a tall PNG)", async () => {
    // Three bands of colour along the image's long side: covering shows the middle one only,
    // where a stretched image would show all three.
    const bands = async (width: number, height: number, format: "jpeg" | "png") =>
      new Renderer().render(
        {
          type: "container",
          style: {
            display: "flex",
            flexDirection: width > height ? "row" : "column",
            width,
            height,
          },
          children: ["#ff0000", "#00ff00", "#0000ff"].map((color) => ({
            type: "container",
            style: { flexGrow: 1, backgroundColor: color },
          })),
        },
        { width, height, format, quality: 95 },
      );
    const wide = join(work, "wide.jpg");
    writeFileSync(wide, await bands(1600, 400, "jpeg"));
    const tall = join(work, "tall.png");
    writeFileSync(tall, await bands(400, 1600, "png"));
    /** Only the middle band, green, at the corners and the centre of the image's box. */
    const coveredByMiddleBand = async (
      image: string,
      cachePath: string,
      size: CardSize,
      box: { left: number; top: number; right: number; bottom: number },
    ) => {
      const { cards, imageProblem } = await renderer.render(
        eventCard("Jazz", { name: image, cachePath }),
        [size],
      );
      expect(imageProblem).toBeNull();
      const png = decodePng((cards[0] as { png: Buffer }).png);
      const { left, top, right, bottom } = box;
      const middle = [Math.round((left + right) / 2), Math.round((top + bottom) / 2)];
      for (const [x, y] of [[left, top], [right, top], middle, [left, bottom], [right, bottom]]) {
        const [r, g, b] = [1, 3, 5].map((i) =>
          Number.parseInt(png.hexAt(x as number, y as number).slice(i, i + 2), 16),
        );
        expect((g as number) > 200 && (r as number) < 60 && (b as number) < 60, `${x},${y}`).toBe(
          true,
        );
      }
    };
    // The link preview card: the image beside the text, a box 408 x 630 at the right.
    await coveredByMiddleBand("wide.jpg", wide, OG_SIZE, {
      left: 794,
      top: 2,
      right: 1198,
      bottom: 627,
    });
    // The square card: the image above the text, a box 706 x 259 at the top.
    const square = STRUCTURED_DATA_SIZES.find((size) => size.name === "1x1") as CardSize;
    await coveredByMiddleBand("tall.png", tall, square, {
      left: 16,
      top: 1,
      right: 718,
      bottom: 257,
    });
  });

  it("should draw a hostile title as its own text", async () => {
    const title = `<script>alert("x")</script> {{ site.title }} & <b>bold</b>`;
    const content = eventCard(title);
    expect(content.title).toBe(title);
    // The renderer's own layout of the card: the title is one run of text, verbatim.
    const takumi = new Renderer();
    for (const { file: _, ...font } of cardFonts().fonts) await takumi.registerFont(font);
    const measured = await takumi.measure(cardNode(content, OG_SIZE, null), OG_SIZE);
    const texts: string[] = [];
    const walk = (node: { runs: { text: string }[]; children: unknown[] }) => {
      texts.push(node.runs.map((run) => run.text).join(""));
      for (const child of node.children) walk(child as typeof node);
    };
    walk(measured);
    expect(texts.some((text) => text.replace(/\s+/g, " ").includes(title))).toBe(true);
    const { cards } = await renderer.render(content, [OG_SIZE]);
    expect(decodePng((cards[0] as { png: Buffer }).png).width).toBe(1200);
  });
});

/**
 * Cards whose texts are in other scripts, with the texts a site in that
 * language shows (written here: the cards' layout is under test, not the
 * translations).
 */
function scriptCard(lang: string, texts: Partial<CardContent>): CardContent {
  return {
    lang,
    label: "",
    title: "",
    badge: null,
    lines: [],
    footer: "",
    colors: ["#862e9c"],
    image: null,
    ...texts,
  };
}

const ARABIC_CARD = scriptCard("ar", {
  label: "موسيقى",
  title: "حفلة موسيقية في الحديقة",
  badge: { kind: "cancelled", text: "ألغيت" },
  lines: ["الأحد ٢٩ مارس ٢٠٢٦", "حديقة فوندل"],
  footer: "الفعاليات",
});

const JAPANESE_CARD = scriptCard("ja", {
  label: "音楽",
  title: "東京ジャズ祭り：春の音楽会",
  lines: ["2026年3月29日(日) 10:00～13:00", "代々木公園"],
  footer: "イベント",
});

/** Whether a column of the card has ink (a pixel darker than the paper) between two rows. */
function inkInColumns(png: ReturnType<typeof decodePng>, from: number, to: number): number {
  let ink = 0;
  for (let x = from; x < to; x += 2) {
    for (let y = 40; y < png.height - 40; y += 2) {
      if (png.hexAt(x, y) !== "#ffffff") ink++;
    }
  }
  return ink;
}

/**
 * Golden cards (test/cards/golden/): the renderer is deterministic on one
 * machine (above), but another CPU may round an anti-aliased edge otherwise,
 * so a card matches when at most 0.5% of its pixels differ, by at most 48
 * in a channel. UPDATE_GOLDEN_CARDS=1 writes them anew: look at them first.
 */
function expectLikeGolden(png: Buffer, name: string): void {
  const file = join(import.meta.dirname, "golden", name);
  if (process.env.UPDATE_GOLDEN_CARDS === "1" || !existsSync(file)) {
    expect(process.env.UPDATE_GOLDEN_CARDS, `${file} is missing`).toBe("1");
    writeFileSync(file, png);
    return;
  }
  const actual = decodePng(png);
  const golden = decodePng(readFileSync(file));
  expect([actual.width, actual.height]).toEqual([golden.width, golden.height]);
  let differing = 0;
  for (let i = 0; i < actual.pixels.length; i += 3) {
    const delta = Math.max(
      Math.abs((actual.pixels[i] as number) - (golden.pixels[i] as number)),
      Math.abs((actual.pixels[i + 1] as number) - (golden.pixels[i + 1] as number)),
      Math.abs((actual.pixels[i + 2] as number) - (golden.pixels[i + 2] as number)),
    );
    if (delta > 48) differing++;
  }
  expect(differing).toBeLessThanOrEqual(actual.width * actual.height * 0.005);
}

describe("CardRenderer in every script", () => {
  /** A card with one text, drawn small: the structured data's 16:9 shape. */
  const SMALL = STRUCTURED_DATA_SIZES[0] as CardSize;
  const titleOnly = async (lang: string, title: string) =>
    (await renderer.render(scriptCard(lang, { title }), [SMALL])).cards[0]?.png as Buffer;

  it("should draw every letter of Arabic, Hebrew, Japanese, Chinese and Korean titles, none as an empty box", async () => {
    // Thai has no font on the cards: its letters are the renderer's empty box (.notdef).
    const box = await titleOnly("en", "ก");
    expect((await titleOnly("en", "ข")).equals(box)).toBe(true);
    const samples: Record<string, string> = {
      ar: "حفلةموسيق",
      he: "שלוםמוזיקה",
      ja: "東京ジャズ祭り",
      zh: "上海爵士音乐节",
      ko: "서울재즈축제",
    };
    for (const [lang, letters] of Object.entries(samples)) {
      const drawn = new Set<string>();
      for (const letter of new Set(letters)) {
        const png = await titleOnly(lang, letter);
        expect(png.equals(box), `${lang} ${letter}`).toBe(false);
        drawn.add(png.toString("base64"));
      }
      // Every letter has a shape of its own, not one box for all.
      expect(drawn.size, lang).toBe(new Set(letters).size);
    }
  });

  it("should shape Arabic: letters joined, not drawn apart", async () => {
    // A zero-width non-joiner between the letters keeps them apart (their isolated forms);
    // a renderer that does not shape would draw both strings alike.
    const joined = await titleOnly("ar", "سلام");
    const apart = await titleOnly("ar", "س\u200Cل\u200Cا\u200Cم");
    expect(joined.equals(apart)).toBe(false);
  });

  it("should mirror the card for a right-to-left language: the band at the right, the text aligned right", async () => {
    const { cards } = await renderer.render(ARABIC_CARD, [OG_SIZE]);
    const png = decodePng((cards[0] as { png: Buffer }).png);
    for (const y of [0, 315, 629]) {
      expect(png.hexAt(1195, y)).toBe("#862e9c");
      expect(png.hexAt(5, y)).toBe("#ffffff");
    }
    // The text starts at the right: ink in the right half, none in the left third.
    expect(inkInColumns(png, 600, 1170)).toBeGreaterThan(500);
    expect(inkInColumns(png, 0, 400)).toBe(0);
    expectLikeGolden((cards[0] as { png: Buffer }).png, "arabic-og.png");
  });

  it("should align a Latin title to the right of a right-to-left card, and an Arabic one to the left of a left-to-right card", async () => {
    const latinOnArabic = decodePng(
      (await renderer.render({ ...ARABIC_CARD, title: "Jazz", lines: [], badge: null }, [OG_SIZE]))
        .cards[0]?.png as Buffer,
    );
    expect(inkInColumns(latinOnArabic, 0, 600)).toBe(0);
    const arabicOnEnglish = decodePng(
      (await renderer.render(scriptCard("en", { title: "حفلة" }), [OG_SIZE])).cards[0]
        ?.png as Buffer,
    );
    expect(inkInColumns(arabicOnEnglish, 600, 1200)).toBe(0);
    expect(inkInColumns(arabicOnEnglish, 0, 600)).toBeGreaterThan(100);
  });

  it("should draw a Japanese card as its golden image", async () => {
    const { cards } = await renderer.render(JAPANESE_CARD, [OG_SIZE]);
    const png = decodePng((cards[0] as { png: Buffer }).png);
    expect(png.hexAt(5, 315)).toBe("#862e9c");
    expectLikeGolden((cards[0] as { png: Buffer }).png, "japanese-og.png");
  });

  it("should draw a card alike whatever fonts the renderer loaded for the cards before it", async () => {
    const fresh = await CardRenderer.open();
    const first = await fresh.render(JAPANESE_CARD, [OG_SIZE]);
    const used = await CardRenderer.open();
    await used.render(scriptCard("en", { title: "上海爵士音乐节 서울재즈 שלום" }), [OG_SIZE]);
    await used.render(ARABIC_CARD, [OG_SIZE]);
    const later = await used.render(JAPANESE_CARD, [OG_SIZE]);
    expect(later.cards[0]?.png.equals(first.cards[0]?.png as Buffer)).toBe(true);
  });
});

// The layout is plain data: no markup is ever parsed from the portal's text.
describe("cardNode", () => {
  it("should put the texts in text nodes, never in markup", () => {
    const content = eventCard("<img src=x onerror=alert(1)>");
    const texts: string[] = [];
    const walk = (node: Node) => {
      if (node.type === "text") texts.push(node.text);
      if (node.type === "container") for (const child of node.children ?? []) walk(child);
    };
    walk(cardNode(content, OG_SIZE, null));
    expect(texts).toContain("<img src=x onerror=alert(1)>");
  });
});
