import { readFileSync } from "node:fs";
import { join } from "node:path";
import { type MessageFormatElement, TYPE } from "@formatjs/icu-messageformat-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { languageOf, SUPPORTED_LANGUAGES } from "../../src/i18n/languages.ts";
import { messageSource, messagesFor, parseMessage } from "../../src/i18n/messages.ts";
import { widgetLanguage, widgetLocale } from "../../src/widget/labels.ts";
import { listFiles } from "../helpers/files.ts";
import { htmlElements } from "../helpers/html-elements.ts";
import { icalJsCalendar } from "../helpers/ics-readers.ts";
import { pageTexts } from "../helpers/page-texts.ts";
import { type BuiltWidgetSite, buildWidgetSite } from "../helpers/plugin-site.ts";
import { parseFeeds } from "../helpers/python-readers.ts";
import { ownMessages } from "../helpers/same-as-english.ts";
import { hasPythonModule } from "../helpers/system-packages.ts";

/**
 * Each language builds: a small site per language (the fixture's events,
 * rendered with the project's templates: every kind of page, the feeds,
 * calendars, the widget and its guide), each in one of the tags SITE_LANG
 * takes, read back the way subscribers' and visitors' software reads it.
 */

const TAGS = ["en-GB", "nl", "de-AT", "fr-BE", "es", "it", "pt-BR", "pl", "ar-EG", "ja"] as const;

/** The ISO weekday (1 Monday ... 7 Sunday) each tag's weeks start on, as CLDR gives it. */
const FIRST_DAYS: Readonly<Record<(typeof TAGS)[number], number>> = {
  "en-GB": 1,
  nl: 1,
  "de-AT": 1,
  "fr-BE": 1,
  es: 1,
  it: 1,
  "pt-BR": 7,
  pl: 1,
  "ar-EG": 6,
  ja: 7,
};

const hasFeedparser = hasPythonModule("feedparser");

/** The literal text of a message's parts: what a reader sees of it whatever its arguments. */
function literalsOf(ast: readonly MessageFormatElement[]): string[] {
  return ast.flatMap((element) =>
    element.type === TYPE.literal
      ? [element.value]
      : element.type === TYPE.plural || element.type === TYPE.select
        ? Object.values(element.options).flatMap((option) => literalsOf(option.value))
        : [],
  );
}

/**
 * English texts a page of another language must not show: the literal parts
 * (two words or more) of every English message, unless the language writes
 * the same words in one of its own messages (a product's name, "Microsoft 365"),
 * one left as English by mistake excepted (helpers/same-as-english.ts).
 */
function englishLeftIn(language: string): string[] {
  const own = ownMessages(languageOf(language) ?? "en").join("\n");
  const english = Object.values(messageSource("en")).flatMap((message) =>
    literalsOf(parseMessage(message)).map((text) => text.trim()),
  );
  return [...new Set(english)].filter(
    (text) => /\p{L}+\s+\p{L}+/u.test(text) && !own.includes(text),
  );
}

describe("languages", () => {
  it("should cover the ten languages with a file each, and the tags SITE_LANG takes", () => {
    expect([...SUPPORTED_LANGUAGES].sort()).toEqual(
      ["ar", "de", "en", "es", "fr", "it", "ja", "nl", "pl", "pt"].sort(),
    );
    expect(TAGS.map((tag) => languageOf(tag))).toEqual([...SUPPORTED_LANGUAGES]);
  });

  describe.each(TAGS)("a site in %s", (tag) => {
    let built: BuiltWidgetSite;
    let files: string[];
    const read = (file: string) => readFileSync(join(built.outputDir, file), "utf8");

    beforeAll(async () => {
      built = await buildWidgetSite("https://events.example.org", {
        env: { SITE_LANG: tag },
        siteTemplates: true,
      });
      files = await listFiles(built.outputDir);
    }, 60_000);

    afterAll(() => built?.remove());

    it("should title the site in its language when no title is set", () => {
      const title = messagesFor(tag).format("defaultSiteTitle");
      expect(built.site.title).toBe(title);
      if (!tag.startsWith("en"))
        expect(title).not.toBe(messagesFor("en").format("defaultSiteTitle"));
    });

    it("should name the feeds' language: RSS <language>, Atom's xml:lang, JSON Feed's language", () => {
      expect(read("feed.xml")).toContain(`<language>${tag}</language>`);
      expect(JSON.parse(read("feed.json")).language).toBe(tag);
      expect(read("atom.xml")).toMatch(new RegExp(`<feed [^>]*xml:lang="${tag}"`));
      if (!hasFeedparser) return;
      const parsed = parseFeeds([
        join(built.outputDir, "feed.xml"),
        join(built.outputDir, "atom.xml"),
      ]);
      expect(parsed.map((feed) => feed.feed.language)).toEqual([tag, tag]);
    });

    it("should name the calendars in the site's language (X-WR-CALNAME)", () => {
      const title = messagesFor(tag).format("defaultSiteTitle");
      const site = icalJsCalendar(read("calendar.ics"));
      expect(site.getFirstPropertyValue("x-wr-calname")).toBe(title);
      const calendarIcs = files.find((file) => /^calendars\/[^/]+\/calendar\.ics$/.test(file));
      expect(calendarIcs).toBeDefined();
      const name = icalJsCalendar(read(calendarIcs ?? "")).getFirstPropertyValue("x-wr-calname");
      expect(String(name).endsWith(` · ${title}`)).toBe(true);
    });

    it("should lay the month grids out from the locale's first day of the week", () => {
      const file = files.find((name) => /^calendars\/[^/]+\/\d{4}\/\d{2}\/index\.html$/.test(name));
      const [, year, month] = /(\d{4})\/(\d{2})\//.exec(file ?? "") ?? [];
      const elements = htmlElements(read(file ?? ""));
      const firstDay = FIRST_DAYS[tag];
      // 1 January 2024 was a Monday: ISO weekday d is January d.
      const dayName = new Intl.DateTimeFormat(tag, { weekday: "long", timeZone: "UTC" });
      const names = Array.from({ length: 7 }, (_, i) =>
        dayName.format(Date.UTC(2024, 0, 1 + ((firstDay - 1 + i) % 7))),
      );
      const headings = elements.filter(
        (el) => el.tagName === "th" && el.attributes.get("scope") === "col",
      );
      expect(headings.map((th) => th.attributes.get("abbr"))).toEqual(names);
      // The month's first day stands in its weekday's column.
      const cells = elements.filter((el) => el.tagName === "td");
      const lead = cells.findIndex((td) => !(td.attributes.get("class") ?? "").includes("outside"));
      const weekday = new Date(Date.UTC(Number(year), Number(month) - 1, 1)).getUTCDay() || 7;
      expect(lead).toBe((weekday - firstDay + 7) % 7);
    });

    it("should leave no English interface text on its pages, the widget and its guide", () => {
      const pages = files.filter((file) => file.endsWith(".html"));
      for (const page of ["index.html", "404.html", "search/index.html", "embed/index.html"]) {
        expect(pages).toContain(page);
      }
      expect(pages.length).toBeGreaterThan(20);
      const english = tag.startsWith("en") ? [] : englishLeftIn(tag);
      const found: string[] = [];
      for (const file of pages) {
        const html = read(file);
        // The widget's frames write their language's usual tag where the site's has no region.
        const widget = file.startsWith("embed/") && file !== "embed/index.html";
        const lang = widget ? widgetLocale(widgetLanguage(tag), tag) : tag;
        expect(html, file).toMatch(new RegExp(`<html lang="${lang}"`));
        for (const { text } of pageTexts(html)) {
          for (const phrase of english) if (text.includes(phrase)) found.push(`${file}: ${phrase}`);
        }
      }
      expect(found).toEqual([]);
    });
  });
});
