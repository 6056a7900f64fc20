import type { WidgetLanguages } from "../widget/widget-config.ts";

/**
 * Which of a site's languages (SITE_LANGUAGES) a widget's `lang` option
 * names: its very tag ("pt-br"), else the first of its language ("pt"); an
 * unknown or unbuilt one is the root's, and none at all the page's own
 * (docs/widget.md, "Languages"). An index of `languages.sites`.
 */
export function chosenLanguage(languages: WidgetLanguages, raw: string | null | undefined): number {
  const value = (raw ?? "").trim().toLowerCase();
  if (!value) return languages.current;
  const tags = languages.sites.map((site) => site.lang.toLowerCase());
  const exact = tags.indexOf(value);
  if (exact >= 0) return exact;
  const general = tags.findIndex((tag) => tag.split("-")[0] === value);
  return general >= 0 ? general : 0;
}

/**
 * The same page in another language's site: `url` (this page's address)
 * with its language's root replaced by the other's; null when it is not
 * under its root.
 */
export function pageInLanguage(languages: WidgetLanguages, url: URL, language: number): URL | null {
  const own = languages.sites[languages.current]?.root;
  const other = languages.sites[language]?.root;
  if (own === undefined || other === undefined || !url.pathname.startsWith(own)) return null;
  return new URL(`${other}${url.pathname.slice(own.length)}${url.search}${url.hash}`, url);
}
