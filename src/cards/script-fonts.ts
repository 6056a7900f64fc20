import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { type CardFont, FONT_FAMILY, parseUnicodeRange } from "./card-fonts.ts";

/**
 * The cards' type for the scripts Noto Sans does not have: Arabic, Hebrew,
 * Japanese, Chinese (Simplified) and Korean, from Fontsource's variable
 * packages (`@fontsource-variable/noto-sans-*`, SIL Open Font License 1.1;
 * one file per slice with the weight axis, so one file serves regular and
 * bold). docs/share-cards.md, "Fonts and scripts", has the measurements
 * behind these choices.
 *
 * Fontsource cuts each CJK family into about a hundred slices by Unicode
 * range, as Google Fonts serves them to browsers. A card loads only the
 * slices that hold its characters, the first time a renderer needs them:
 * a site in Japanese registers the few dozen slices its titles use, never
 * the 5 MB of the whole family, and a site in English with one Korean title
 * loads the slices of that title.
 *
 * Han characters are shared by Chinese, Japanese and Korean, with glyphs of
 * each country's own forms (Unicode's Han unification), so the family a
 * text is drawn with is chosen as a browser with `lang` would choose it:
 * kana make a text Japanese, hangul Korean; otherwise the site's language
 * decides, and Chinese where it is none of the three.
 */

interface ScriptFamily {
  /** The family name registered, and named in the cards' font stacks. */
  readonly family: string;
  readonly package: string;
  /** The start of its file names: files/<prefix>-<slice>-wght-normal.woff2. */
  readonly prefix: string;
  /** Which of the package's slices are registered: the others repeat Noto Sans. */
  readonly slices: (name: string) => boolean;
}

const NUMBERED = (name: string) => /^\[\d+\]$/.test(name);

const ARABIC: ScriptFamily = {
  family: "Noto Sans Arabic",
  package: "@fontsource-variable/noto-sans-arabic",
  prefix: "noto-sans-arabic",
  slices: (name) => name === "arabic",
};
const HEBREW: ScriptFamily = {
  family: "Noto Sans Hebrew",
  package: "@fontsource-variable/noto-sans-hebrew",
  prefix: "noto-sans-hebrew",
  slices: (name) => name === "hebrew",
};
const JAPANESE: ScriptFamily = {
  family: "Noto Sans JP",
  package: "@fontsource-variable/noto-sans-jp",
  prefix: "noto-sans-jp",
  slices: NUMBERED,
};
const CHINESE: ScriptFamily = {
  family: "Noto Sans SC",
  package: "@fontsource-variable/noto-sans-sc",
  prefix: "noto-sans-sc",
  slices: NUMBERED,
};
const KOREAN: ScriptFamily = {
  family: "Noto Sans KR",
  package: "@fontsource-variable/noto-sans-kr",
  prefix: "noto-sans-kr",
  slices: NUMBERED,
};

const SCRIPT_FAMILIES: readonly ScriptFamily[] = [ARABIC, HEBREW, JAPANESE, CHINESE, KOREAN];

const KANA = /[\p{Script=Hiragana}\p{Script=Katakana}]/u;
const HANGUL = /\p{Script=Hangul}/u;

/**
 * The families a text is drawn with, in order: Noto Sans first (Latin, Greek,
 * Cyrillic, Devanagari, digits and punctuation look the same on every card),
 * then the scripts', CJK in the order its language asks for.
 */
export function fontStack(text: string, lang: string): readonly string[] {
  return [FONT_FAMILY, ...stackFamilies(text, lang).map((f) => f.family)];
}

function stackFamilies(text: string, lang: string): readonly ScriptFamily[] {
  const language = lang.split("-")[0]?.toLowerCase();
  let cjk: ScriptFamily[];
  if (KANA.test(text) || (!HANGUL.test(text) && language === "ja")) {
    cjk = [JAPANESE, CHINESE, KOREAN];
  } else if (HANGUL.test(text) || language === "ko") {
    cjk = [KOREAN, JAPANESE, CHINESE];
  } else {
    cjk = [CHINESE, JAPANESE, KOREAN];
  }
  return [ARABIC, HEBREW, ...cjk];
}

interface Slice {
  readonly key: string;
  readonly family: ScriptFamily;
  readonly file: string;
  readonly ranges: readonly [number, number][];
}

/** Every slice of every family, with its ranges; the files are read only when needed. */
export class ScriptFonts {
  readonly #slices: ReadonlyMap<ScriptFamily, readonly Slice[]>;
  /** What the cards' pixels depend on: each package's version and its slices' ranges. */
  readonly fingerprint: string;

  constructor() {
    const digest = createHash("sha256");
    const slices = new Map<ScriptFamily, Slice[]>();
    for (const family of SCRIPT_FAMILIES) {
      const manifest = readFileSync(packageFile(family.package, "package.json"), "utf8");
      const unicode = readFileSync(packageFile(family.package, "unicode.json"), "utf8");
      // The slices' folder found from the first: resolving each of a package's hundreds of
      // files by its exports took about 70 ms of every build's start.
      let folder: string | undefined;
      digest.update(`${family.package} ${JSON.parse(manifest).version}\n${unicode}\n`);
      const ranges = JSON.parse(unicode) as Record<string, string>;
      const list: Slice[] = [];
      for (const [name, range] of Object.entries(ranges)) {
        if (!family.slices(name)) continue;
        const slice = name.replace(/^\[(\d+)\]$/, "$1");
        const file = `${family.prefix}-${slice}-wght-normal.woff2`;
        folder ??= dirname(packageFile(family.package, `files/${file}`));
        list.push({
          key: `${family.family} ${name}`,
          family,
          file: join(folder, file),
          ranges: parseUnicodeRange(range),
        });
      }
      slices.set(family, list);
    }
    this.#slices = slices;
    this.fingerprint = digest.digest("hex");
  }

  /**
   * The slices a text may be drawn with: for each character beyond ASCII,
   * the slice of every family of its stack whose ranges hold it. Not only
   * the first: a range says which characters a slice may have, not that it
   * has each, and the renderer falls back along the stack where a glyph is
   * missing; with every candidate registered, what a card looks like never
   * depends on the cards a renderer drew before it. Characters no family
   * has are drawn as Noto Sans draws them (an empty box).
   */
  slicesFor(text: string, lang: string): Slice[] {
    const needed = new Map<string, Slice>();
    const families = stackFamilies(text, lang);
    for (const char of new Set(text)) {
      const code = char.codePointAt(0) as number;
      if (code < 0x80) continue;
      for (const family of families) {
        const slice = this.#slices.get(family)?.find((s) => inRanges(code, s.ranges));
        if (slice) needed.set(slice.key, slice);
      }
    }
    return [...needed.values()];
  }

  /** A slice as the renderer registers it: a variable font, so no weight is named. */
  static font(slice: Slice): Omit<CardFont, "weight"> {
    return {
      file: slice.file,
      name: slice.family.family,
      data: readFileSync(slice.file),
      style: "normal",
      unicodeRange: slice.ranges as [number, number][],
    };
  }
}

export type { Slice as ScriptSlice };

function inRanges(code: number, ranges: readonly (readonly [number, number])[]): boolean {
  return ranges.some(([start, end]) => code >= start && code <= end);
}

function packageFile(name: string, file: string): string {
  return fileURLToPath(import.meta.resolve(`${name}/${file}`));
}
