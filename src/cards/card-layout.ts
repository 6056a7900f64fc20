import type { ContainerNode, ImageNode, Node, TextNode } from "@takumi-rs/core";
import { directionOfText, type TextDirection, textDirection } from "../i18n/text-direction.ts";
import type { CardBadge, CardContent } from "./card-content.ts";
import { FONT_FAMILY } from "./card-fonts.ts";
import { fontStack } from "./script-fonts.ts";

/**
 * The picture of a share card, as a tree of boxes and text for the renderer
 * (src/cards/card-renderer.ts): a band in the calendar's colour, the label,
 * the title in big type, when and where, and the organization's name; the
 * event's image beside the text on wide cards and above it on the others.
 * In a right-to-left site language (Arabic, Hebrew...) the card is its
 * mirror image: the band down the right edge, the image at the left, text
 * aligned right; each text runs in its own direction wherever it stands.
 *
 * Kept cheap on purpose: flat colours, no shadows, gradients, blur or
 * transparency, so a card costs little more than filling and compressing
 * its pixels. Change anything here and raise LAYOUT_VERSION: cards are
 * cached by their inputs, and the layout is one of them.
 */
export const LAYOUT_VERSION = 2;

export interface CardSize {
  /** For file names and figures: "og", "16x9", "4x3", "1x1". */
  readonly name: string;
  readonly width: number;
  readonly height: number;
}

/** Open Graph and X (Twitter) large image cards: 1.91:1. */
export const OG_SIZE: CardSize = { name: "og", width: 1200, height: 630 };

/**
 * What Google's Event structured data asks for: images of 16:9, 4:3 and 1:1,
 * each at least 50,000 pixels, and at least 720 pixels wide for events. At
 * that width: a card's cost follows its pixels, and these three together
 * cost about 1.6 Open Graph cards instead of 3.4 at 1200 pixels
 * (docs/share-cards.md).
 */
export const STRUCTURED_DATA_SIZES: readonly CardSize[] = [
  { name: "16x9", width: 720, height: 405 },
  { name: "4x3", width: 720, height: 540 },
  { name: "1x1", width: 720, height: 720 },
];

const INK = "#1a1d21";
const MUTED = "#495057";
const PAPER = "#ffffff";
/** The band's width on a card 1200 pixels wide. */
const BAND = 24;

/** White text on these reads at 4.5:1 or better. */
const BADGE_COLORS: Readonly<Record<CardBadge["kind"], string>> = {
  cancelled: "#c92a2a",
  postponed: "#a65f00",
  newDate: "#1864ab",
  moved: "#495057",
};

/** Type sizes and how many lines each text may take, per card shape. */
interface Metrics {
  readonly padding: number;
  readonly label: number;
  readonly title: number;
  readonly titleLines: number;
  readonly line: number;
  readonly footer: number;
}

/** For a card 1200 pixels wide; narrower ones scale down. */
function metricsFor(size: CardSize, withImage: boolean): Metrics {
  const shape = shapeOf(size);
  const base: Metrics =
    shape === "wide"
      ? { padding: 56, label: 30, title: 60, titleLines: 3, line: 32, footer: 28 }
      : {
          padding: 56,
          label: 32,
          title: 68,
          titleLines: shape === "square" ? (withImage ? 3 : 5) : withImage ? 2 : 4,
          line: 36,
          footer: 30,
        };
  const scale = size.width / 1200;
  const px = (value: number) => Math.round(value * scale);
  return {
    padding: px(base.padding),
    label: px(base.label),
    title: px(base.title),
    titleLines: base.titleLines,
    line: px(base.line),
    footer: px(base.footer),
  };
}

function shapeOf(size: CardSize): "wide" | "standard" | "square" {
  if (size.height < size.width * 0.7) return "wide";
  return size.height >= size.width ? "square" : "standard";
}

/** Where the image goes: beside the text on wide cards, above it on the others. */
export function imageBox(size: CardSize): { width: number; height: number; beside: boolean } {
  const shape = shapeOf(size);
  if (shape === "wide") {
    return { width: Math.round(size.width * 0.34), height: size.height, beside: true };
  }
  const height = Math.round(size.height * (shape === "square" ? 0.36 : 0.3));
  return { width: size.width - bandWidth(size), height, beside: false };
}

/**
 * The card as a node tree. `image` names the event's image among the
 * render's images (src/cards/card-renderer.ts), drawn to cover its box; when
 * it is null the text takes the whole card.
 */
export function cardNode(content: CardContent, size: CardSize, image: string | null): Node {
  const metrics = metricsFor(size, image !== null);
  const writing: Writing = { dir: textDirection(content.lang), lang: content.lang };
  const text = textColumn(content, metrics, writing);
  const box = imageBox(size);
  const picture: ImageNode | null =
    image === null
      ? null
      : {
          type: "image",
          src: image,
          style: { width: box.width, height: box.height, objectFit: "cover", flexShrink: 0 },
        };
  const body: ContainerNode = {
    type: "container",
    style: {
      display: "flex",
      flexDirection: box.beside ? "row" : "column",
      flexGrow: 1,
      height: size.height,
      minWidth: 0,
    },
    children: picture ? (box.beside ? [text, picture] : [picture, text]) : [text],
  };
  return {
    type: "container",
    lang: content.lang,
    // Flex rows run from the right in a right-to-left card: band, text, image.
    dir: writing.dir,
    style: {
      display: "flex",
      flexDirection: "row",
      width: size.width,
      height: size.height,
      backgroundColor: PAPER,
      fontFamily: FONT_FAMILY,
      color: INK,
    },
    children: [band(content.colors, size), body],
  };
}

/** The calendar's colour down the starting edge; several calendars share it in stripes. */
function band(colors: readonly string[], size: CardSize): ContainerNode {
  const stripes = colors.length > 0 ? colors : [INK];
  return {
    type: "container",
    style: {
      display: "flex",
      flexDirection: "column",
      width: bandWidth(size),
      height: size.height,
      flexShrink: 0,
    },
    children: stripes.map(
      (color): ContainerNode => ({
        type: "container",
        style: { flexGrow: 1, backgroundColor: color },
      }),
    ),
  };
}

function bandWidth(size: CardSize): number {
  return Math.round((BAND * size.width) / 1200);
}

/** The card's direction and language, which every text of it is set in. */
interface Writing {
  readonly dir: TextDirection;
  readonly lang: string;
}

function textColumn(content: CardContent, m: Metrics, w: Writing): ContainerNode {
  // One calendar's card says its name in its colour; a card of several stays neutral.
  const accent = content.colors.length === 1 ? readableOnPaper(content.colors[0] as string) : INK;
  const top: Node[] = [
    clamped(content.label, { fontSize: m.label, fontWeight: 700, color: accent }, 1, w),
  ];
  if (content.badge) top.push(badge(content.badge, m, w));
  top.push(
    clamped(
      content.title,
      {
        fontSize: m.title,
        fontWeight: 700,
        lineHeight: titleLineHeight(content.title),
        marginTop: Math.round(m.label * 0.6),
      },
      m.titleLines,
      w,
    ),
  );
  content.lines.forEach((line) => {
    top.push(
      clamped(line, { fontSize: m.line, color: MUTED, marginTop: Math.round(m.line * 0.5) }, 2, w),
    );
  });
  return {
    type: "container",
    style: {
      display: "flex",
      flexDirection: "column",
      justifyContent: "space-between",
      flexGrow: 1,
      flexShrink: 1,
      minWidth: 0,
      minHeight: 0,
      padding: m.padding,
      overflow: "hidden",
    },
    children: [
      // What does not fit is cut here, never the organization's name below it.
      {
        type: "container",
        style: {
          display: "flex",
          flexDirection: "column",
          flexShrink: 1,
          minHeight: 0,
          overflow: "hidden",
        },
        children: top,
      },
      clamped(
        content.footer,
        { fontSize: m.footer, fontWeight: 700, color: MUTED, marginTop: m.footer },
        1,
        w,
      ),
    ],
  };
}

function badge({ kind, text }: CardBadge, m: Metrics, w: Writing): ContainerNode {
  return {
    type: "container",
    style: {
      display: "flex",
      marginTop: Math.round(m.label * 0.6),
      paddingTop: Math.round(m.label * 0.2),
      paddingBottom: Math.round(m.label * 0.2),
      paddingLeft: Math.round(m.label * 0.5),
      paddingRight: Math.round(m.label * 0.5),
      alignSelf: "flex-start",
      backgroundColor: BADGE_COLORS[kind],
      color: PAPER,
      fontSize: m.label,
      fontWeight: 700,
    },
    children: [{ type: "text", text, ...textSetting(text, w) }],
  };
}

/**
 * Tight lines for the title's big type, but not for Arabic, whose letters
 * reach well above and below Latin ones (Noto Sans Arabic's ascent and
 * descent): at 1.12 the last line's descenders were cut off.
 */
function titleLineHeight(title: string): number {
  return /\p{Script=Arabic}/u.test(title) ? 1.3 : 1.12;
}

/** Text cut to `lines` lines with an ellipsis; long words break rather than overflow. */
function clamped(text: string, style: TextNode["style"], lines: number, w: Writing): TextNode {
  const setting = textSetting(text, w);
  return {
    type: "text",
    text,
    dir: setting.dir,
    style: {
      ...style,
      ...setting.style,
      // Whole lines, never squeezed: what does not fit is cut at the foot of its box.
      flexShrink: 0,
      lineClamp: lines,
      textOverflow: "ellipsis",
      overflow: "hidden",
      overflowWrap: "anywhere",
    },
  };
}

/**
 * A text's direction by its first letter, as HTML's dir="auto" decides it
 * (a Latin title on an Arabic card runs left to right, and the reverse),
 * aligned to the card's starting edge whichever it is; its fonts by its
 * script (src/cards/script-fonts.ts).
 */
function textSetting(text: string, w: Writing) {
  return {
    dir: directionOfText(text, w.dir),
    style: {
      textAlign: w.dir === "rtl" ? ("right" as const) : ("left" as const),
      fontFamily: fontStack(text, w.lang)
        .map((family) => `"${family}"`)
        .join(", "),
    },
  };
}

/**
 * The calendar's colour for the label when it reads well on white (WCAG AA
 * for text, 4.5:1); a portal may give any colour, pale yellow included.
 */
export function readableOnPaper(color: string): string {
  return contrastWithWhite(color) >= 4.5 ? color : INK;
}

function contrastWithWhite(color: string): number {
  const match = /^#([0-9a-f]{6})$/i.exec(color);
  if (!match) return 0;
  const value = Number.parseInt(match[1] as string, 16);
  const channel = (shift: number) => {
    const c = ((value >> shift) & 0xff) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const luminance = 0.2126 * channel(16) + 0.7152 * channel(8) + 0.0722 * channel(0);
  return 1.05 / (luminance + 0.05);
}
