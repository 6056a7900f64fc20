import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/**
 * The cards' type: Noto Sans, regular and bold, from the `@fontsource/noto-sans`
 * package (SIL Open Font License 1.1; the files are inside the package, nothing
 * is downloaded). Fontsource splits the family into subsets by script; every
 * subset of these scripts is registered under one family name with its
 * Unicode ranges, as a browser's `@font-face` rules would:
 *
 * Latin (with accents), Latin Extended, Vietnamese, Greek, Greek Extended,
 * Cyrillic, Cyrillic Extended and Devanagari. Arabic, Hebrew, Japanese,
 * Chinese and Korean come from their own Noto families, loaded slice by
 * slice as cards need them (src/cards/script-fonts.ts); other scripts (Thai,
 * Bengali...) have no glyphs and show as empty boxes; pictographs (emoji)
 * are left out of a card's text instead (src/cards/card-content.ts).
 *
 * WOFF2, which the renderer reads as well as TTF, OTF and WOFF.
 */

/** The base family's name as registered, first in every text's font stack. */
export const FONT_FAMILY = "Noto Sans";

const PACKAGE = "@fontsource/noto-sans";
const SUBSETS = [
  "latin",
  "latin-ext",
  "vietnamese",
  "greek",
  "greek-ext",
  "cyrillic",
  "cyrillic-ext",
  "devanagari",
] as const;
const WEIGHTS = [400, 700] as const;

export interface CardFont {
  /** The WOFF2 file it was read from. */
  readonly file: string;
  readonly name: string;
  readonly data: Buffer;
  readonly weight: number;
  readonly style: "normal";
  readonly unicodeRange: [number, number][];
}

export interface CardFonts {
  readonly fonts: readonly CardFont[];
  /** A hash of every font file and its ranges: a card's cache key includes it. */
  readonly fingerprint: string;
}

let loaded: CardFonts | undefined;

/** The fonts, read once per process (about 0.6 MB). */
export function cardFonts(): CardFonts {
  if (loaded) return loaded;
  const ranges = JSON.parse(readFileSync(packageFile("unicode.json"), "utf8")) as Record<
    string,
    string
  >;
  const digest = createHash("sha256");
  const fonts: CardFont[] = [];
  for (const subset of SUBSETS) {
    const range = ranges[subset];
    if (!range) throw new Error(`${PACKAGE} has no "${subset}" subset.`);
    for (const weight of WEIGHTS) {
      const file = packageFile(`files/noto-sans-${subset}-${weight}-normal.woff2`);
      const data = readFileSync(file);
      digest.update(`${subset} ${weight} ${range}\n`).update(data);
      fonts.push({
        file,
        name: FONT_FAMILY,
        data,
        weight,
        style: "normal",
        unicodeRange: parseUnicodeRange(range),
      });
    }
  }
  loaded = { fonts, fingerprint: digest.digest("hex") };
  return loaded;
}

function packageFile(name: string): string {
  return fileURLToPath(import.meta.resolve(`${PACKAGE}/${name}`));
}

/** "U+0000-00FF,U+0131" as inclusive ranges: [[0, 255], [305, 305]]. */
export function parseUnicodeRange(text: string): [number, number][] {
  return text.split(",").map((part) => {
    const match = /^\s*U\+([0-9a-f]+)(?:-([0-9a-f]+))?\s*$/i.exec(part);
    if (!match) throw new Error(`Unexpected unicode-range "${part}".`);
    const start = Number.parseInt(match[1] as string, 16);
    return [start, match[2] ? Number.parseInt(match[2], 16) : start];
  });
}
