import { ConfigError } from "../errors.ts";
import { defaultTagOf, languageOf, PSEUDO_LOCALE, SUPPORTED_LANGUAGES } from "../i18n/languages.ts";
import { messagesFor } from "../i18n/messages.ts";
import { envSettings } from "./env-settings.ts";

/**
 * The languages one site is published in (SITE_LANGUAGES, docs/translating.md,
 * "One site in several languages"): the first at the site's root, each other
 * in a folder of its own named by its tag (`/fr/`, `/pt-br/`), each a whole
 * site. Unset, the site has the one language of SITE_LANG, as it always had.
 */
export interface SiteLanguage {
  /** BCP 47 tag as `<html lang>` and `hreflang` write it: "en", "fr", "pt-BR". */
  readonly lang: string;
  /** The supported language of the tag ("pt"): its messages, its search index's stemming. */
  readonly uiLanguage: string;
  /** Its folder under the site's root, with a trailing slash: "" for the first, "fr/", "pt-br/". */
  readonly folder: string;
  /** Where it is published: SITE_URL, or SITE_URL with its folder; no trailing slash. */
  readonly url: string;
  /** The site's title in it: SITE_TITLE, else the language's default. */
  readonly title: string;
  /** The site's description in it: SITE_DESCRIPTION, else the language's default. */
  readonly description: string;
  /** The language's name in itself, for the language switcher ("Français", "العربية"). */
  readonly name: string;
}

/** What readSiteLanguages reads (besides SITE_URL, read by its caller). */
export const SITE_LANGUAGES_SETTINGS = envSettings("Site", [
  "SITE_TITLE",
  "SITE_DESCRIPTION",
  "SITE_LANG",
  "SITE_LANGUAGES",
  "EVENT_CONTENT_LANG",
]);

export interface SiteLanguages {
  /** The first is the root's, SITE_LANG's. */
  readonly languages: readonly SiteLanguage[];
  /** EVENT_CONTENT_LANG: the language the portal's texts are written in. */
  readonly contentLang: string;
}

/**
 * SITE_LANGUAGES (a comma-separated list of tags), with SITE_LANG (which,
 * when both are set, must be its first) and EVENT_CONTENT_LANG (default: the
 * first language). `url` is SITE_URL as read (no trailing slash).
 */
export function readSiteLanguages(env: NodeJS.ProcessEnv, url: string): SiteLanguages {
  const listed = (env.SITE_LANGUAGES ?? "")
    .split(",")
    .map((tag) => tag.trim())
    .filter(Boolean);
  const siteLang = env.SITE_LANG?.trim();
  const tags = listed.length
    ? listed.map((tag) => readLanguageTag("SITE_LANGUAGES", tag).lang)
    : [readLanguageTag("SITE_LANG", siteLang || defaultTagOf("en")).lang];
  if (listed.length && siteLang) {
    const single = readLanguageTag("SITE_LANG", siteLang).lang;
    if (single !== tags[0]) {
      throw new ConfigError(
        `SITE_LANG (${single}) and SITE_LANGUAGES (${tags.join(",")}) disagree: SITE_LANG must be the first of SITE_LANGUAGES, or be left unset.`,
      );
    }
  }
  const folders = new Set<string>();
  const languages = tags.map((lang, index): SiteLanguage => {
    // The root keeps the site's own address; the others are folders named by their tags,
    // lower-cased as URLs are usually written (a tag's case carries no meaning: BCP 47, 2.1.1).
    const folder = index === 0 ? "" : `${lang.toLowerCase()}/`;
    if (folders.has(lang.toLowerCase())) {
      throw new ConfigError(`SITE_LANGUAGES: ${lang} is listed twice; list each language once.`);
    }
    folders.add(lang.toLowerCase());
    const messages = messagesFor(lang);
    return {
      lang,
      uiLanguage: readLanguageTag("SITE_LANGUAGES", lang).uiLanguage,
      folder,
      url: index === 0 ? url : `${url}/${folder.slice(0, -1)}`,
      // The defaults are texts visitors read, so they are in each language.
      title: env.SITE_TITLE?.trim() || messages.format("defaultSiteTitle"),
      description: env.SITE_DESCRIPTION?.trim() || messages.format("defaultSiteDescription"),
      name: ownName(lang),
    };
  });
  return { languages, contentLang: readContentLang(env.EVENT_CONTENT_LANG, tags[0] as string) };
}

/**
 * A tag SITE_LANG or SITE_LANGUAGES takes: a BCP 47 tag of one of the
 * supported languages, canonical ("nl-be" -> "nl-BE"), or the pseudo-locale.
 */
export function readLanguageTag(
  setting: string,
  value: string,
): { readonly lang: string; readonly uiLanguage: string } {
  const lang = canonicalTag(value);
  const language = languageOf(lang ?? undefined);
  if (!lang || !language) {
    throw new ConfigError(
      `${setting}: "${value}" is not supported (expected a language tag for ${SUPPORTED_LANGUAGES.join(", ")}, e.g. en-GB, en-US, de-AT, pt-BR, or ${PSEUDO_LOCALE} to check translations).`,
    );
  }
  // The pseudo-locale (en-XA) is English underneath: its search index stems English words.
  return { lang, uiLanguage: language };
}

/**
 * EVENT_CONTENT_LANG: any well-formed tag, not only one the site's messages
 * exist in; a portal may well write in a language the site is not published in.
 */
function readContentLang(raw: string | undefined, fallback: string): string {
  const value = raw?.trim();
  if (!value) return fallback;
  const lang = canonicalTag(value);
  if (!lang) {
    throw new ConfigError(
      `EVENT_CONTENT_LANG: "${value}" is not a language tag (expected e.g. en, de, pt-BR: the language the portal's texts are written in).`,
    );
  }
  return lang;
}

function canonicalTag(value: string): string | null {
  try {
    return Intl.getCanonicalLocales(value)[0] ?? null;
  } catch {
    return null;
  }
}

/**
 * The language's name as its speakers write it, for a list of languages:
 * CLDR's display name in the language itself, its first letter capitalized
 * as CLDR's context transforms ask of a name in a menu ("uiListOrMenu") for
 * most languages, French and Spanish among them ("français" -> "Français").
 */
function ownName(lang: string): string {
  const name = new Intl.DisplayNames([lang], { type: "language" }).of(lang) ?? lang;
  return name.charAt(0).toLocaleUpperCase(lang) + name.slice(1);
}

/**
 * Whether text written in `text` needs its own `lang` inside a page in
 * `page`: not when one tag is the other or a more specific form of it
 * ("en" text in an "en-GB" page), as BCP 47's matching (RFC 4647, 3.3.1)
 * would read it.
 */
export function differsFrom(text: string, page: string): boolean {
  const a = text.toLowerCase();
  const b = page.toLowerCase();
  return !(a === b || a.startsWith(`${b}-`) || b.startsWith(`${a}-`));
}
