import { describe, expect, it } from "vitest";
import { readSiteConfig, siteInLanguage } from "../../src/config/site.ts";
import { differsFrom, readSiteLanguages } from "../../src/config/site-languages.ts";
import { ConfigError } from "../../src/errors.ts";

const URL = "https://events.example.org";

/** The one line a mistaken setting gets (a ConfigError), for the settings `env`. */
function refusal(env: NodeJS.ProcessEnv): string {
  try {
    readSiteLanguages(env, URL);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message.split("\n")).toHaveLength(1);
    return message;
  }
  throw new Error("expected a ConfigError");
}

describe("readSiteLanguages", () => {
  it("should give the one language of SITE_LANG when SITE_LANGUAGES is unset, as before", () => {
    expect(readSiteLanguages({}, URL)).toEqual({
      languages: [
        {
          lang: "en-GB",
          uiLanguage: "en",
          folder: "",
          url: URL,
          title: "Events",
          description: "Upcoming events, feeds and calendar subscriptions.",
          name: "British English",
        },
      ],
      contentLang: "en-GB",
    });
    expect(readSiteLanguages({ SITE_LANG: "de-AT" }, URL).languages.map((l) => l.lang)).toEqual([
      "de-AT",
    ]);
  });

  it("should put the first language at the root and each other in the folder of its tag, lower-cased", () => {
    const { languages, contentLang } = readSiteLanguages(
      { SITE_LANGUAGES: " en, fr ,pt-br,,ar-EG " },
      `${URL}/agenda`,
    );
    expect(languages.map(({ lang, folder, url }) => ({ lang, folder, url }))).toEqual([
      { lang: "en", folder: "", url: `${URL}/agenda` },
      { lang: "fr", folder: "fr/", url: `${URL}/agenda/fr` },
      { lang: "pt-BR", folder: "pt-br/", url: `${URL}/agenda/pt-br` },
      { lang: "ar-EG", folder: "ar-eg/", url: `${URL}/agenda/ar-eg` },
    ]);
    expect(languages.map((l) => l.uiLanguage)).toEqual(["en", "fr", "pt", "ar"]);
    // The language's own name, as the switcher shows it.
    expect(languages.map((l) => l.name)).toEqual([
      "English",
      "Français",
      "Português (Brasil)",
      "العربية (مصر)",
    ]);
    // The portal writes in the first language unless told otherwise.
    expect(contentLang).toBe("en");
  });

  it("should title each language's site in its language, unless SITE_TITLE and SITE_DESCRIPTION say", () => {
    const defaults = readSiteLanguages({ SITE_LANGUAGES: "en,fr" }, URL).languages;
    expect(defaults.map((l) => l.title)).toEqual(["Events", "Événements"]);
    expect(new Set(defaults.map((l) => l.description)).size).toBe(2);
    const set = readSiteLanguages(
      { SITE_LANGUAGES: "en,fr", SITE_TITLE: "Stadsagenda", SITE_DESCRIPTION: "Wat er te doen is" },
      URL,
    ).languages;
    expect(set.map((l) => [l.title, l.description])).toEqual([
      ["Stadsagenda", "Wat er te doen is"],
      ["Stadsagenda", "Wat er te doen is"],
    ]);
  });

  it("should take SITE_LANG beside SITE_LANGUAGES only as its first", () => {
    expect(
      readSiteLanguages({ SITE_LANG: "FR", SITE_LANGUAGES: "fr,en" }, URL).languages[0]?.lang,
    ).toBe("fr");
    expect(refusal({ SITE_LANG: "de", SITE_LANGUAGES: "en,fr" })).toBe(
      "SITE_LANG (de) and SITE_LANGUAGES (en,fr) disagree: SITE_LANG must be the first of SITE_LANGUAGES, or be left unset.",
    );
  });

  it("should refuse a language the site has no messages in, as SITE_LANG does, and one listed twice", () => {
    expect(refusal({ SITE_LANGUAGES: "en,sv" })).toMatch(
      /^SITE_LANGUAGES: "sv" is not supported \(expected a language tag for en, nl, de, fr/,
    );
    expect(refusal({ SITE_LANGUAGES: "en,not a tag" })).toMatch(/^SITE_LANGUAGES: "not a tag"/);
    expect(refusal({ SITE_LANG: "sv" })).toMatch(/^SITE_LANG: "sv" is not supported/);
    expect(refusal({ SITE_LANGUAGES: "en,fr,FR" })).toBe(
      "SITE_LANGUAGES: fr is listed twice; list each language once.",
    );
    expect(refusal({ SITE_LANGUAGES: "pt-BR,en,pt-br" })).toMatch(/pt-BR is listed twice/);
  });

  it("should read EVENT_CONTENT_LANG as any language tag, the portal's", () => {
    expect(readSiteLanguages({ EVENT_CONTENT_LANG: "sv-se" }, URL).contentLang).toBe("sv-SE");
    expect(refusal({ EVENT_CONTENT_LANG: "en_GB" })).toMatch(
      /^EVENT_CONTENT_LANG: "en_GB" is not a language tag/,
    );
  });
});

describe("siteInLanguage", () => {
  it("should give a language's site its address, language and texts, and the root's once-only parts to none", () => {
    const site = readSiteConfig({
      SITE_URL: `${URL}/agenda/`,
      SITE_LANGUAGES: "en,ar",
      INDEXNOW_KEY: "0123456789abcdef",
    });
    expect(siteInLanguage(site, site.languages[0] as never)).toBe(site);
    const arabic = siteInLanguage(site, site.languages[1] as never);
    expect(arabic).toMatchObject({
      url: `${URL}/agenda/ar`,
      lang: "ar",
      uiLanguage: "ar",
      contentLang: "en",
      indexNow: null,
      fediverse: null,
      languages: site.languages,
    });
    expect(arabic.title).not.toBe(site.title);
    expect(arabic.urls.href("/calendars/")).toBe("/agenda/ar/calendars/");
    // What the site has once (its images) is linked at the root's address.
    expect(arabic.urls.localLink(`${URL}/agenda/media/a.png`)).toBe("/agenda/media/a.png");
    expect(arabic.urls.localLink(`${URL}/agenda/ar/feed.xml`)).toBe("/agenda/ar/feed.xml");
    expect(arabic.urls.localLink("https://elsewhere.example/a.png")).toBe(
      "https://elsewhere.example/a.png",
    );
  });
});

describe("differsFrom", () => {
  it("should tell a text's language apart from a page's only where neither tag includes the other", () => {
    expect(differsFrom("en", "en-GB")).toBe(false);
    expect(differsFrom("en-GB", "en")).toBe(false);
    expect(differsFrom("EN", "en")).toBe(false);
    expect(differsFrom("en", "fr")).toBe(true);
    expect(differsFrom("pt-PT", "pt-BR")).toBe(true);
  });
});
