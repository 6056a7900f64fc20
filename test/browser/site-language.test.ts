import { describe, expect, it } from "vitest";
import { chosenLanguage, pageInLanguage } from "../../src/browser/site-language.ts";
import type { WidgetLanguages } from "../../src/widget/widget-config.ts";

/* The widget's `lang` option on a site in several languages (docs/widget.md, "Languages"). */

const languages: WidgetLanguages = {
  sites: [
    { lang: "en", root: "/agenda/" },
    { lang: "fr", root: "/agenda/fr/" },
    { lang: "pt-BR", root: "/agenda/pt-br/" },
  ],
  current: 1,
};

describe("chosenLanguage", () => {
  it("should name a language by its tag in any case, or by its language alone", () => {
    expect(chosenLanguage(languages, "FR")).toBe(1);
    expect(chosenLanguage(languages, "pt-br")).toBe(2);
    expect(chosenLanguage(languages, "pt")).toBe(2);
  });

  it("should keep the page's own language without the option, and take the root's for any other", () => {
    expect(chosenLanguage(languages, null)).toBe(1);
    expect(chosenLanguage(languages, "")).toBe(1);
    expect(chosenLanguage(languages, "nl")).toBe(0);
    expect(chosenLanguage(languages, "pt-PT")).toBe(0);
    expect(chosenLanguage(languages, "<script>")).toBe(0);
  });
});

describe("pageInLanguage", () => {
  it("should give the same page of another language, its options kept", () => {
    const here = new URL("https://example.org/agenda/fr/embed/culture/?lang=pt&count=3#top");
    expect(pageInLanguage(languages, here, 2)?.href).toBe(
      "https://example.org/agenda/pt-br/embed/culture/?lang=pt&count=3#top",
    );
    expect(pageInLanguage(languages, here, 0)?.href).toBe(
      "https://example.org/agenda/embed/culture/?lang=pt&count=3#top",
    );
  });

  it("should give none for a page outside its language's site", () => {
    expect(pageInLanguage(languages, new URL("https://example.org/elsewhere/"), 0)).toBeNull();
  });
});
