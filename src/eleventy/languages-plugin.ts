import nunjucks from "nunjucks";
import type { SiteConfig } from "../config/site.ts";
import { SiteUrls } from "../model/url-scheme.ts";
import { portalTextLang } from "../site/language-data.ts";
import { addFilter, type NunjucksAmender } from "./template-filters.ts";

/**
 * Filters for a site in several languages (SITE_LANGUAGES, docs/translating.md,
 * "One site in several languages"): every page's translations, for its
 * `hreflang` alternates and the language switcher, and the `lang` of the
 * portal's texts on a page of another language.
 */

/** A page in one of the site's languages. */
export interface PageTranslation {
  /** BCP 47 tag: `hreflang` and `lang`. */
  readonly lang: string;
  /** The language's name in itself. */
  readonly name: string;
  /** Link by path, in the language's folder. */
  readonly href: string;
  /** Absolute URL, for `<link rel="alternate" hreflang>`. */
  readonly url: string;
  /** Whether it is the page itself. */
  readonly current: boolean;
}

/** What a text of the portal knows of its language: which fields of it a language's site translated. */
interface PortalText {
  readonly translated?: { readonly fields: readonly string[] };
}

export interface LanguagesPluginOptions {
  readonly site: SiteConfig;
}

export default function languagesPlugin(
  eleventyConfig: NunjucksAmender,
  options: LanguagesPluginOptions,
): void {
  const { site } = options;
  const languages = site.languages.map((language) => ({
    language,
    urls: new SiteUrls(language.url),
  }));
  // The same page (by its site path) in each language, the root's first.
  addFilter(eleventyConfig, "translations", (path: string): PageTranslation[] =>
    languages.map(({ language, urls }) => ({
      lang: language.lang,
      name: language.name,
      href: urls.href(path),
      url: urls.absolute(path),
      current: language.url === site.url,
    })),
  );
  // ` lang="en"` on a text of the portal in a page of another language (HTML,
  // "The lang and xml:lang attributes": screen readers speak it in its own
  // language, browsers hyphenate and pick fonts by it); nothing for a text in
  // the page's language, as a field the page shows translated (`field`).
  const contentLang = portalTextLang(site);
  const attribute = contentLang ? new nunjucks.runtime.SafeString(` lang="${contentLang}"`) : "";
  addFilter(eleventyConfig, "textLang", (text: PortalText | null | undefined, field?: string) =>
    field && text?.translated?.fields.includes(field) ? "" : attribute,
  );
}
