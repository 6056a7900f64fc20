import { readFileSync } from "node:fs";
import { type MessageFormatElement, parse, TYPE } from "@formatjs/icu-messageformat-parser";
import { IntlMessageFormat } from "intl-messageformat";
import { ConfigError } from "../errors.ts";
import { fillPattern, type PluralPatterns, pluralPatterns } from "./browser-patterns.ts";
import { defaultTagOf, isPseudoLocale, languageOf, type SupportedLanguage } from "./languages.ts";
import { pseudoLocalize } from "./pseudo-locale.ts";

/**
 * Every text a visitor or subscriber reads, per language, in one flat JSON
 * file each (src/i18n/locales/<language>.json) of ICU MessageFormat messages,
 * the format Weblate and Crowdin read (docs/translating.md): pages, feed and
 * calendar text, share cards and the widget. Plurals follow CLDR's rules for
 * the site's whole tag (`{count, plural, one {# event} other {# events}}`),
 * numbers its formatting.
 *
 * Templates ask for texts hundreds of thousands of times in a large build:
 * each message is parsed and compiled once per tag, and one without
 * arguments is kept as its text, so asking again costs a map lookup.
 */

type Source = Readonly<Record<string, string>>;

const sources = new Map<SupportedLanguage, Source>();

/** The messages of one language's file, as written. */
export function messageSource(language: SupportedLanguage): Source {
  let source = sources.get(language);
  if (!source) {
    const file = new URL(`./locales/${language}.json`, import.meta.url);
    try {
      source = JSON.parse(readFileSync(file, "utf8")) as Source;
    } catch (cause) {
      throw new ConfigError(`SITE_LANG: no messages for "${language}" (${file.pathname}).`, {
        cause,
      });
    }
    sources.set(language, source);
  }
  return source;
}

/** A message's syntax tree, as intl-messageformat reads it (markup is text, not tags). */
export function parseMessage(message: string): MessageFormatElement[] {
  return parse(message, { ignoreTag: true, requiresOtherClause: true });
}

/** A compiled message: its text when it has no arguments, else its formatter. */
type Compiled = string | IntlMessageFormat;

/** The messages of one language tag ("de-AT", "en-XA"), compiled as they are asked for. */
export class Messages {
  /** The tag numbers and plural rules are chosen by. */
  readonly locale: string;
  readonly #source: Source;
  readonly #pseudo: boolean;
  readonly #trees = new Map<string, MessageFormatElement[]>();
  readonly #compiled = new Map<string, Compiled>();
  readonly #results = new Map<string, string>();

  constructor(locale: string, source: Source, pseudo: boolean) {
    this.locale = locale;
    this.#source = source;
    this.#pseudo = pseudo;
  }

  has(key: string): boolean {
    return Object.hasOwn(this.#source, key);
  }

  /**
   * A message with its arguments filled. A missing key or value is a bug in
   * a template or the code, so it fails the build instead of showing the
   * key, or a placeholder, to visitors.
   */
  format(key: string, values?: Readonly<Record<string, unknown>>): string {
    let compiled = this.#compiled.get(key);
    if (compiled === undefined) {
      compiled = this.#compile(key);
      this.#compiled.set(key, compiled);
    }
    if (typeof compiled === "string") return compiled;
    const args = values ? formatValues(values) : {};
    // The same texts come back again and again ("3 upcoming", "Back to Culture"):
    // kept by their arguments, up to a bound, since formatting a plural costs
    // microseconds where a lookup costs tens of nanoseconds.
    const memoKey = memoKeyOf(key, args);
    const known = this.#results.get(memoKey);
    if (known !== undefined) return known;
    let text: string;
    try {
      text = compiled.format(args) as string;
    } catch (cause) {
      throw new Error(`Message "${key}": ${(cause as Error).message}`, { cause });
    }
    if (this.#results.size >= MAX_REMEMBERED) this.#results.clear();
    this.#results.set(memoKey, text);
    return text;
  }

  /** A message for the browser scripts to fill: `{name}` placeholders (src/i18n/browser-patterns.ts). */
  pattern(key: string): string {
    return fillPattern(key, this.#tree(key));
  }

  /** A counted message's plural forms, for the browser to pick with Intl.PluralRules. */
  plurals(key: string): PluralPatterns {
    return pluralPatterns(key, this.#tree(key));
  }

  #tree(key: string): MessageFormatElement[] {
    let tree = this.#trees.get(key);
    if (!tree) {
      const message = this.#source[key];
      if (message === undefined || !this.has(key)) throw new Error(`Missing message "${key}"`);
      try {
        tree = parseMessage(message);
      } catch (cause) {
        throw new Error(`Message "${key}" of ${this.locale} is not valid ICU MessageFormat.`, {
          cause,
        });
      }
      if (this.#pseudo) tree = pseudoLocalize(tree);
      this.#trees.set(key, tree);
    }
    return tree;
  }

  #compile(key: string): Compiled {
    const tree = this.#tree(key);
    if (tree.every((element) => element.type === TYPE.literal)) {
      return tree.map((element) => (element.type === TYPE.literal ? element.value : "")).join("");
    }
    return new IntlMessageFormat(tree, this.locale, undefined, { ignoreTag: true });
  }
}

/**
 * Values as MessageFormat takes them: numbers stay numbers (plurals and
 * number formats need them), anything else is its text (a template's
 * values may be Nunjucks' safe strings, which it would not print).
 */
function formatValues(values: Readonly<Record<string, unknown>>): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(values)) {
    out[name] = typeof value === "number" ? value : String(value ?? "");
  }
  return out;
}

/**
 * Formatted texts kept per tag: a page shows a few thousand distinct ones at
 * most (counts, calendar and place names); texts with unique arguments (an
 * event's title in an announcement) are forgotten when the bound is reached.
 */
const MAX_REMEMBERED = 20_000;

/** A key for a message and its arguments; a number and its text differ (1 and "1"). */
function memoKeyOf(key: string, args: Readonly<Record<string, string | number>>): string {
  let memoKey = key;
  for (const name in args) {
    const value = args[name];
    memoKey += `\u0000${name}\u0001${typeof value === "number" ? "#" : ""}${value}`;
  }
  return memoKey;
}

const catalogues = new Map<string, Messages>();

/**
 * The messages for a BCP 47 tag: its language's file ("nl-BE" -> nl.json),
 * formatted for the whole tag; the pseudo-locale's from en.json; English
 * (as en-GB) for a language without a file.
 */
export function messagesFor(tag: string): Messages {
  let messages = catalogues.get(tag);
  if (!messages) {
    const language = languageOf(tag);
    if (isPseudoLocale(tag)) messages = new Messages(tag, messageSource("en"), true);
    else if (language) messages = new Messages(tag, messageSource(language), false);
    else messages = new Messages(defaultTagOf("en"), messageSource("en"), false);
    catalogues.set(tag, messages);
  }
  return messages;
}

/** The messages of a language ("nl") or any tag: messagesFor's, by its older name. */
export function loadMessages(language: string): Messages {
  return messagesFor(language);
}

/** Looks a key up and fills its arguments: `translate(messages, "backToCalendar", { name })`. */
export function translate(
  messages: Messages,
  key: string,
  values?: Readonly<Record<string, unknown>>,
): string {
  return messages.format(key, values);
}
