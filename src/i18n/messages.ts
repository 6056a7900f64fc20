import { type MessageFormatElement, parse, TYPE } from "@formatjs/icu-messageformat-parser";
import { IntlMessageFormat } from "intl-messageformat";
import { escapeHtml } from "../model/sanitize.ts";
import { fillPattern, type PluralPatterns, pluralPatterns } from "./browser-patterns.ts";
import { defaultTagOf, isPseudoLocale, languageOf, type SupportedLanguage } from "./languages.ts";
import ar from "./locales/ar.json" with { type: "json" };
import de from "./locales/de.json" with { type: "json" };
import en from "./locales/en.json" with { type: "json" };
import es from "./locales/es.json" with { type: "json" };
import fr from "./locales/fr.json" with { type: "json" };
import it from "./locales/it.json" with { type: "json" };
import ja from "./locales/ja.json" with { type: "json" };
import nl from "./locales/nl.json" with { type: "json" };
import pl from "./locales/pl.json" with { type: "json" };
import pt from "./locales/pt.json" with { type: "json" };
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

/**
 * Imported rather than read from disk, so that a bundle carries them too
 * (the Netlify functions read the settings, and the site's default title is
 * a message).
 */
const SOURCES: Readonly<Record<SupportedLanguage, Source>> = {
  ar,
  de,
  en,
  es,
  fr,
  it,
  ja,
  nl,
  pl,
  pt,
};

/** The messages of one language's file, as written. */
export function messageSource(language: SupportedLanguage): Source {
  return SOURCES[language];
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

  /**
   * A message as HTML, for the pages the build writes by hand (the embed
   * guide): its text escaped, each argument given as HTML already (a link, a
   * `<code>` element) put in its place, so translators never handle markup.
   */
  formatHtml(key: string, html: Readonly<Record<string, string>> = {}): string {
    const names = Object.keys(html);
    // Private-use characters stand in for the arguments while the text is escaped.
    const stand = Object.fromEntries(names.map((name, i) => [name, `\uE000${i}\uE001`]));
    return escapeHtml(this.format(key, stand)).replace(
      /\uE000(\d+)\uE001/g,
      (_, i: string) => html[names[Number(i)] ?? ""] ?? "",
    );
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

/** Looks a key up and fills its arguments: `translate(messages, "backToCalendar", { name })`. */
export function translate(
  messages: Messages,
  key: string,
  values?: Readonly<Record<string, unknown>>,
): string {
  return messages.format(key, values);
}
