import { readFileSync } from "node:fs";
import { ConfigError } from "../errors.ts";

export type Messages = Readonly<Record<string, string>>;

const cache = new Map<string, Messages>();

/** UI strings for a language, from src/eleventy/locales/<language>.json. */
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
