import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { SUPPORTED_LANGUAGES } from "../../src/config/site.ts";
import { loadMessages, translate } from "../../src/i18n/messages.ts";

const TEMPLATES = resolve(import.meta.dirname, "../../templates");

/** Every UI string key the templates look up with the `t` filter. */
function keysUsedInTemplates(): Set<string> {
  const keys = new Set<string>();
  for (const file of readdirSync(TEMPLATES, { recursive: true, encoding: "utf8" })) {
    if (!file.endsWith(".njk")) continue;
    const source = readFileSync(join(TEMPLATES, file), "utf8");
    for (const match of source.matchAll(/["'](\w+)["']\s*\|\s*t\b/g)) keys.add(match[1] ?? "");
  }
  return keys;
}

describe("UI strings", () => {
  it("should have the same keys in every language", () => {
    const [first, ...others] = SUPPORTED_LANGUAGES.map((lang) =>
      Object.keys(loadMessages(lang)).sort(),
    );
    for (const keys of others) expect(keys).toEqual(first);
  });

  it("should define every key the templates use, in every language", () => {
    const used = keysUsedInTemplates();
    expect(used.size).toBeGreaterThan(30);
    for (const lang of SUPPORTED_LANGUAGES) {
      const messages = loadMessages(lang);
      const missing = [...used].filter((key) => !(key in messages));
      expect(missing, lang).toEqual([]);
    }
  });

  it("should fill placeholders and refuse unknown keys", () => {
    const messages = loadMessages("nl");
    expect(translate(messages, "backToCalendar", { name: "Cultuur" })).toBe("Terug naar Cultuur");
    expect(() => translate(messages, "noSuchKey")).toThrow(/noSuchKey/);
  });
});
