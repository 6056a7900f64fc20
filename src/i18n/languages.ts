/**
 * The languages the site speaks: one file of messages each in
 * src/i18n/locales/<language>.json (docs/translating.md says how one is
 * added). SITE_LANG takes any BCP 47 tag of one of them ("de-AT", "pt-BR"):
 * the file is the language's, dates, numbers, plural rules and the first day
 * of the week follow the whole tag.
 */
export const SUPPORTED_LANGUAGES = [
  "en",
  "nl",
  "de",
  "fr",
  "es",
  "it",
  "pt",
  "pl",
  "ar",
  "ja",
] as const;

export type SupportedLanguage = (typeof SUPPORTED_LANGUAGES)[number];

/**
 * CLDR's pseudo-locale for accented, longer English (the "XA" private-use
 * region, as Android and Chrome name it): generated from en.json when it is
 * loaded (src/i18n/pseudo-locale.ts), to find text the messages do not hold
 * and layouts that break on longer words. Never a file to maintain.
 */
export const PSEUDO_LOCALE = "en-XA";

/**
 * The tag a language's dates are written with where no region is given
 * (the widget's `lang` option, SITE_LANG's default): Intl's own default for
 * each (CLDR's likely region), except English, whose site default is
 * British (24-hour clock, the day before the month), and Dutch, as the
 * Netherlands write it.
 */
const LANGUAGE_DEFAULT_TAGS: Readonly<Partial<Record<SupportedLanguage, string>>> = {
  en: "en-GB",
  nl: "nl-NL",
};

/** "en" -> "en-GB", "de" -> "de". */
export function defaultTagOf(language: SupportedLanguage): string {
  return LANGUAGE_DEFAULT_TAGS[language] ?? language;
}

/** The supported language of a tag ("nl-BE" -> "nl"), or null. */
export function languageOf(tag: string | undefined): SupportedLanguage | null {
  const primary = (tag ?? "").split("-")[0]?.toLowerCase() ?? "";
  return (SUPPORTED_LANGUAGES as readonly string[]).includes(primary)
    ? (primary as SupportedLanguage)
    : null;
}

/** Whether a canonical tag is the pseudo-locale. */
export function isPseudoLocale(tag: string): boolean {
  return tag.toLowerCase() === PSEUDO_LOCALE.toLowerCase();
}
