/**
 * Which way a language's text runs: "rtl" for Arabic, Hebrew, Persian,
 * Urdu and the other languages written in a right-to-left script, "ltr"
 * otherwise. It sets `<html dir>` (HTML, "The dir attribute"), the widget's
 * direction and the share cards' layout.
 *
 * Decided from the language tag, never from a list of our own languages:
 * Intl's text info (ECMA-402's Intl Locale Info, `getTextInfo()` or the
 * older `textInfo` getter) where the runtime has it, and the language's
 * likely script (CLDR's likely subtags, `Intl.Locale#maximize`) where it
 * has not or where it is out of date (ICU says "ltr" for Dhivehi, written
 * in Thaana).
 */
export type TextDirection = "ltr" | "rtl";

/** Scripts written right to left (ISO 15924 codes; Unicode's bidi class R or AL). */
const RTL_SCRIPTS = new Set([
  "Adlm",
  "Arab",
  "Hebr",
  "Mand",
  "Nkoo",
  "Rohg",
  "Samr",
  "Syrc",
  "Thaa",
  "Yezi",
]);

interface LocaleTextInfo {
  readonly direction?: string;
}

type LocaleWithTextInfo = Intl.Locale & {
  getTextInfo?: () => LocaleTextInfo;
  textInfo?: LocaleTextInfo;
};

const directions = new Map<string, TextDirection>();

/** "ar", "he-IL", "fa", "az-Arab" -> "rtl"; "en-GB", "ja", "az" -> "ltr". */
export function textDirection(tag: string): TextDirection {
  let direction = directions.get(tag);
  if (direction) return direction;
  direction = "ltr";
  try {
    const locale = new Intl.Locale(tag) as LocaleWithTextInfo;
    const info = locale.getTextInfo?.() ?? locale.textInfo;
    const script = locale.maximize().script;
    if (info?.direction === "rtl" || (script !== undefined && RTL_SCRIPTS.has(script))) {
      direction = "rtl";
    }
  } catch {
    // Not a language tag: SITE_LANG is checked where it is read; this only says which way.
  }
  directions.set(tag, direction);
  return direction;
}

/**
 * The direction of one piece of text by its first strong letter, as HTML's
 * `dir="auto"` decides it (Unicode Bidirectional Algorithm, UAX #9, rules P2
 * and P3): for renderers that take "ltr" or "rtl" only (the share cards).
 * Text without a letter (a date, a number) takes `fallback`.
 */
export function directionOfText(text: string, fallback: TextDirection): TextDirection {
  const first = FIRST_LETTER.exec(text);
  if (!first) return fallback;
  return RTL_LETTER.test(first[0]) ? "rtl" : "ltr";
}

const FIRST_LETTER = /\p{L}/u;
const RTL_LETTER =
  /[\p{Script=Adlam}\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Mandaic}\p{Script=Nko}\p{Script=Hanifi_Rohingya}\p{Script=Samaritan}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Yezidi}]/u;
