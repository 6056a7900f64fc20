import { readFileSync } from "node:fs";
import { SUPPORTED_LANGUAGES } from "../config/site.ts";
import { ConfigError } from "../errors.ts";

/**
 * Every text a visitor reads, per language, in one file each
 * (src/i18n/locales/<language>.json): pages, feed and calendar text, and the
 * widget. Adding a language is adding a file with the same keys and listing
 * it in SUPPORTED_LANGUAGES (src/config/site.ts).
 */

export type Messages = Readonly<Record<string, string>>;

const cache = new Map<string, Messages>();

/** UI strings for a primary language subtag ("en", "nl"). */
export function loadMessages(uiLanguage: string): Messages {
  let messages = cache.get(uiLanguage);
  if (!messages) {
    const file = new URL(`./locales/${uiLanguage}.json`, import.meta.url);
    try {
      messages = JSON.parse(readFileSync(file, "utf8")) as Messages;
    } catch (cause) {
      throw new ConfigError(`SITE_LANG: no UI strings for "${uiLanguage}" (${file.pathname}).`, {
        cause,
      });
    }
    cache.set(uiLanguage, messages);
  }
  return messages;
}

/** UI strings for a BCP 47 tag ("nl-BE" -> nl); English when the language has none. */
export function messagesFor(tag: string): Messages {
  const primary = tag.split("-")[0]?.toLowerCase() ?? "";
  return loadMessages(
    (SUPPORTED_LANGUAGES as readonly string[]).includes(primary) ? primary : "en",
  );
}

/**
 * Looks a key up and fills `{name}` placeholders. A missing key is a bug in a
 * template, so it fails the build instead of printing the key to visitors.
 */
export function translate(
  messages: Messages,
  key: string,
  values: Record<string, unknown> = {},
): string {
  const message = messages[key];
  if (message === undefined) throw new Error(`Missing UI string "${key}"`);
  return message.replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in values ? String(values[name]) : whole,
  );
}
