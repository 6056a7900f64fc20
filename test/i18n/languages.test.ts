import { readFileSync } from "node:fs";
import { join } from "node:path";
import { type MessageFormatElement, TYPE } from "@formatjs/icu-messageformat-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SUPPORTED_LANGUAGES, languageOf } from "../../src/i18n/languages.ts";
import { messageSource, messagesFor, parseMessage } from "../../src/i18n/messages.ts";
import { listFiles } from "../helpers/files.ts";
import { icalJsCalendar } from "../helpers/ics-readers.ts";
import { pageTexts } from "../helpers/page-texts.ts";
import { type BuiltWidgetSite, buildWidgetSite } from "../helpers/plugin-site.ts";
import { parseFeeds } from "../helpers/python-readers.ts";
import { hasPythonModule } from "../helpers/system-packages.ts";

/**
 * Each language builds: a small site (the fixture's events, with the feeds,
 * calendars, the widget and its guide the publisher writes) per language,
 * each in one of the tags SITE_LANG takes, read back the way subscribers'
 * and visitors' software reads it.
 */

const TAGS = ["en-GB", "nl", "de-AT", "fr-BE", "es", "it", "pt-BR", "pl", "ar-EG", "ja"] as const;

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
 * the same words in one of its own messages (a product's name, "Microsoft 365").
 */
function englishLeftIn(language: string): string[] {
  const own = Object.values(messageSource(languageOf(language) ?? "en")).join("\n");
  const english = Object.values(messageSource("en")).flatMap((message) =>
    literalsOf(parseMessage(message)).map((text) => text.trim()),
  );
  return [...new Set(english)].filter((text) => /\p{L}+\s+\p{L}+/u.test(text) && !own.includes(text));
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
      built = await buildWidgetSite("https://events.example.org", { env: { SITE_LANG: tag } });
      files = await listFiles(built.outputDir);
    }, 60_000);

    afterAll(() => built?.remove());

    it("should title the site in its language when no title is set", () => {
      const title = messagesFor(tag).format("defaultSiteTitle");
      expect(built.site.title).toBe(title);
      if (!tag.startsWith("en")) expect(title).not.toBe(messagesFor("en").format("defaultSiteTitle"));
    });

    it("should name the feeds' language: RSS <language> and Atom's xml:lang", () => {
      expect(read("feed.xml")).toContain(`<language>${tag}</language>`);
      expect(read("atom.xml")).toMatch(new RegExp(`<feed [^>]*xml:lang="${tag}"`));
      if (!hasFeedparser) return;
      const parsed = parseFeeds([join(built.outputDir, "feed.xml"), join(built.outputDir, "atom.xml")]);
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

    it("should leave no English interface text in the widget and its guide", () => {
      const pages = files.filter((file) => /^embed\/.*\.html$/.test(file));
      expect(pages).toContain("embed/index.html");
      const english = tag.startsWith("en") ? [] : englishLeftIn(tag);
      const found: string[] = [];
      for (const file of pages) {
        const html = read(file);
        expect(html, file).toContain(`lang="${file === "embed/index.html" ? tag : languageOf(tag)}`);
        for (const { text } of pageTexts(html)) {
          for (const phrase of english) if (text.includes(phrase)) found.push(`${file}: ${phrase}`);
        }
      }
      expect(found).toEqual([]);
    });
  });
});
