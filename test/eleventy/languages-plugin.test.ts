import { describe, expect, it } from "vitest";
import { readSiteConfig, type SiteConfig, siteInLanguage } from "../../src/config/site.ts";
import languagesPlugin from "../../src/eleventy/languages-plugin.ts";
import type { TemplateFilter } from "../../src/eleventy/template-filters.ts";
import { NOW } from "../helpers/clock.ts";

/* The filters a page of a site in several languages uses: its translations, the portal's `lang`. */

/** The plugin's filters for a site, as Nunjucks gets them. */
function filtersFor(site: SiteConfig): Record<string, TemplateFilter> {
  const filters: Record<string, TemplateFilter> = {};
  languagesPlugin(
    {
      amendLibrary: (_, amend) => amend({ addFilter: (name, filter) => (filters[name] = filter) }),
    },
    { site },
  );
  return filters;
}

const settings = (env: NodeJS.ProcessEnv) =>
  readSiteConfig({ SITE_URL: "https://example.org/agenda", SITE_NOW: NOW, ...env });
const text = (value: unknown) => String(value ?? "");

describe("languagesPlugin", () => {
  it("should give a page's address in each language, the page's own marked", () => {
    const site = settings({ SITE_LANGUAGES: "en,fr" });
    const french = siteInLanguage(site, site.languages[1] as never);
    expect(filtersFor(french).translations?.("/calendars/culture/")).toEqual([
      {
        lang: "en",
        name: "English",
        href: "/agenda/calendars/culture/",
        url: "https://example.org/agenda/calendars/culture/",
        current: false,
      },
      {
        lang: "fr",
        name: "Français",
        href: "/agenda/fr/calendars/culture/",
        url: "https://example.org/agenda/fr/calendars/culture/",
        current: true,
      },
    ]);
  });

  it("should mark the portal's texts with its language only on a page of another", () => {
    const site = settings({ SITE_LANGUAGES: "en,fr" });
    const french = siteInLanguage(site, site.languages[1] as never);
    const textLang = (of: SiteConfig) => filtersFor(of).textLang as TemplateFilter;
    expect(text(textLang(site)({ id: "culture" }))).toBe("");
    expect(text(textLang(french)({ id: "culture" }))).toBe(' lang="en"');
    // A text the page shows in its own language, translated, is not marked; its other texts are.
    const translated = { translated: { fields: ["title"], originalTitle: "Poetry Night" } };
    expect(text(textLang(french)(translated, "title"))).toBe("");
    expect(text(textLang(french)(translated, "description"))).toBe(' lang="en"');
    // A site in one language whose portal writes in another marks it as well.
    const german = settings({ SITE_LANG: "en-GB", EVENT_CONTENT_LANG: "de" });
    expect(text(textLang(german)(null))).toBe(' lang="de"');
    expect(text(textLang(settings({ EVENT_CONTENT_LANG: "en" }))(null))).toBe("");
  });
});
