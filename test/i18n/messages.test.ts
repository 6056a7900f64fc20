import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { type MessageFormatElement, TYPE } from "@formatjs/icu-messageformat-parser";
import { describe, expect, it } from "vitest";
import { SUPPORTED_LANGUAGES } from "../../src/i18n/languages.ts";
import { messageSource, messagesFor, parseMessage, translate } from "../../src/i18n/messages.ts";
import { keysSameAsEnglish, SAME_AS_ENGLISH } from "../helpers/same-as-english.ts";

/**
 * The translator's check (docs/translating.md): every language file has
 * every key of en.json, each message is valid ICU MessageFormat with the
 * same arguments of the same types as the English one, and each plural
 * covers the plural categories CLDR gives the language.
 */

const TEMPLATES = resolve(import.meta.dirname, "../../templates");
const LOCALES = resolve(import.meta.dirname, "../../src/i18n/locales");

/** Every message key the templates look up with the `t`, `tPattern` or `tPlurals` filters. */
function keysUsedInTemplates(): Set<string> {
  const keys = new Set<string>();
  for (const file of readdirSync(TEMPLATES, { recursive: true, encoding: "utf8" })) {
    if (!file.endsWith(".njk")) continue;
    const source = readFileSync(join(TEMPLATES, file), "utf8");
    for (const match of source.matchAll(/["'](\w+)["']\s*\|\s*t(?:Pattern|Plurals)?\b/g)) {
      keys.add(match[1] ?? "");
    }
  }
  return keys;
}

/** A message's arguments: name -> type ("argument", "number", "plural", "select"...). */
function argumentsOf(ast: readonly MessageFormatElement[], into = new Map<string, string>()) {
  for (const element of ast) {
    if (element.type === TYPE.literal || element.type === TYPE.pound) continue;
    if (element.type === TYPE.tag) continue;
    into.set(element.value, TYPE[element.type]);
    if (element.type === TYPE.plural || element.type === TYPE.select) {
      for (const option of Object.values(element.options)) argumentsOf(option.value, into);
    }
  }
  return into;
}

/** Every plural element of a message, nested ones too. */
function pluralsOf(ast: readonly MessageFormatElement[]): MessageFormatElement[] {
  return ast.flatMap((element) =>
    element.type === TYPE.plural || element.type === TYPE.select
      ? [
          ...(element.type === TYPE.plural ? [element] : []),
          ...Object.values(element.options).flatMap((option) => pluralsOf(option.value)),
        ]
      : [],
  );
}

const english = messageSource("en");

describe("messages", () => {
  it("should have a file for every supported language and no other", () => {
    const files = readdirSync(LOCALES).map((file) => file.replace(/\.json$/, ""));
    expect(files.sort()).toEqual([...SUPPORTED_LANGUAGES].sort());
  });

  it.each(SUPPORTED_LANGUAGES)("should give %s every key of en.json, and no other", (lang) => {
    expect(Object.keys(messageSource(lang)).sort()).toEqual(Object.keys(english).sort());
  });

  it.each(SUPPORTED_LANGUAGES.filter((lang) => lang !== "en"))(
    "should translate every message of %s but the names and words it writes as English does",
    (lang) => {
      const allowed = new Set(SAME_AS_ENGLISH[lang as Exclude<typeof lang, "en">]);
      expect(keysSameAsEnglish(lang).filter((key) => !allowed.has(key))).toEqual([]);
    },
  );

  it.each(SUPPORTED_LANGUAGES)(
    "should give %s valid ICU messages with English's arguments, of the same types",
    (lang) => {
      const source = messageSource(lang);
      const wrong: string[] = [];
      for (const [key, message] of Object.entries(english)) {
        const translated = source[key];
        if (translated === undefined) continue;
        let ast: MessageFormatElement[];
        try {
          ast = parseMessage(translated);
        } catch (error) {
          wrong.push(`${key}: ${(error as Error).message}`);
          continue;
        }
        const expected = Object.fromEntries(argumentsOf(parseMessage(message)));
        const actual = Object.fromEntries(argumentsOf(ast));
        if (
          JSON.stringify(actual, Object.keys(actual).sort()) !==
          JSON.stringify(expected, Object.keys(expected).sort())
        ) {
          wrong.push(
            `${key}: ${JSON.stringify(actual)} where English has ${JSON.stringify(expected)}`,
          );
        }
        if (translated.trim() === "") wrong.push(`${key}: empty`);
      }
      expect(wrong).toEqual([]);
    },
  );

  it.each(SUPPORTED_LANGUAGES)(
    "should give each plural of %s a form for every CLDR plural category of the language",
    (lang) => {
      const needed = new Intl.PluralRules(lang).resolvedOptions().pluralCategories;
      const missing: string[] = [];
      for (const [key, message] of Object.entries(messageSource(lang))) {
        for (const plural of pluralsOf(parseMessage(message))) {
          if (plural.type !== TYPE.plural) continue;
          const forms = Object.keys(plural.options);
          for (const category of needed) {
            if (!forms.includes(category)) missing.push(`${key}: ${category}`);
          }
        }
      }
      expect(missing).toEqual([]);
    },
  );

  it("should define every key the templates use", () => {
    const used = keysUsedInTemplates();
    expect(used.size).toBeGreaterThan(30);
    expect([...used].filter((key) => !(key in english))).toEqual([]);
  });

  it("should fill arguments and refuse unknown keys and missing values", () => {
    const nl = messagesFor("nl");
    expect(translate(nl, "backToCalendar", { name: "Cultuur" })).toBe("Terug naar Cultuur");
    expect(() => translate(nl, "noSuchKey")).toThrow(/noSuchKey/);
    expect(() => translate(nl, "backToCalendar")).toThrow(/backToCalendar/);
  });

  it("should choose Polish plural forms by CLDR's rules: 1 wydarzenie, 2 wydarzenia, 5 wydarzeń", () => {
    const pl = messagesFor("pl");
    const found = (count: number) => pl.format("resultsCount", { count });
    expect(found(1)).toBe("Znaleziono 1 wydarzenie");
    expect(found(2)).toBe("Znaleziono 2 wydarzenia");
    expect(found(5)).toBe("Znaleziono 5 wydarzeń");
    expect(found(22)).toBe("Znaleziono 22 wydarzenia");
    expect(found(25)).toBe("Znaleziono 25 wydarzeń");
    expect(pl.format("andMoreDates", { count: 3 })).toBe("i jeszcze 3 terminy");
  });

  it("should choose Arabic's six plural forms, with the numbers the locale writes", () => {
    const ar = messagesFor("ar-EG");
    const count = (n: number) => ar.format("eventCount", { count: n });
    expect(count(0)).toBe("لا فعاليات قادمة");
    expect(count(1)).toBe("فعالية قادمة واحدة");
    expect(count(2)).toBe("فعاليتان قادمتان");
    // few (3 to 10), many (11 to 99), other (100...): Egypt writes Arabic-Indic digits.
    expect(count(3)).toBe("٣ فعاليات قادمة");
    expect(count(11)).toBe("١١ فعالية قادمة");
    expect(count(100)).toBe("١٠٠ فعالية قادمة");
  });

  it("should format numbers inside messages for the whole tag", () => {
    expect(messagesFor("de").format("pageOf", { page: 2, count: 12000 })).toBe(
      "Seite 2 von 12.000",
    );
    expect(messagesFor("de-CH").format("pageOf", { page: 2, count: 12000 })).toBe(
      "Seite 2 von 12'000",
    );
    expect(messagesFor("en-GB").format("resultsCount", { count: 1 })).toBe("1 event found");
  });

  it("should hand the browser plural forms and {name} patterns", () => {
    expect(messagesFor("pl").plurals("resultsCount")).toEqual({
      one: "Znaleziono {count} wydarzenie",
      few: "Znaleziono {count} wydarzenia",
      many: "Znaleziono {count} wydarzeń",
      other: "Znaleziono {count} wydarzenia",
    });
    expect(messagesFor("fr").pattern("resultsPage")).toBe("Page {page} sur {count}");
  });

  it("should make the pseudo-locale from English: accented, longer, marked at both ends", () => {
    const pseudo = messagesFor("en-XA");
    const text = pseudo.format("skipToContent");
    expect(text).toMatch(/^\[Šķîþ ţö çöñţéñţ [a-z ]+\]$/);
    expect(text.length).toBeGreaterThanOrEqual(Math.ceil("Skip to content".length * 1.4));
    // Arguments and plurals work as in English; only the words change.
    expect(pseudo.format("backToCalendar", { name: "Jazz" })).toMatch(/^\[Ɓåçķ ţö Jazz .*\]$/);
    expect(pseudo.format("resultsCount", { count: 1 })).toMatch(/^\[1 éṽéñţ ƒöûñð /);
    expect(pseudo.format("resultsCount", { count: 4 })).toMatch(/^\[4 éṽéñţš ƒöûñð /);
  });
});
