import { type MessageFormatElement, TYPE } from "@formatjs/icu-messageformat-parser";

/**
 * Messages as the browser scripts use them: the pages' scripts and the
 * widget fill labels themselves (src/browser/fill.ts) rather than carry a
 * MessageFormat library, so the build hands them patterns with `{name}`
 * placeholders, and for a count the pattern of each plural form, which the
 * browser picks with Intl.PluralRules of the page's locale.
 */

/** The forms of a counted label: "=0", "one", "few", "other"...: `{name}` patterns. */
export type PluralPatterns = Readonly<Record<string, string>>;

/**
 * A message without plural or select as a `{name}` pattern ("Page {page} of
 * {count}"). ICU's quoting is undone: the pattern is the text a reader sees.
 */
export function fillPattern(key: string, ast: readonly MessageFormatElement[]): string {
  return ast.map((element) => patternOf(key, element, null)).join("");
}

/**
 * A message with one plural argument as its forms, `#` written as that
 * argument's placeholder: "{count, plural, one {# event} other {# events}}"
 * gives { one: "{count} event", other: "{count} events" }.
 */
export function pluralPatterns(key: string, ast: readonly MessageFormatElement[]): PluralPatterns {
  const index = ast.findIndex((element) => element.type === TYPE.plural);
  const plural = ast[index];
  if (!plural || plural.type !== TYPE.plural || plural.offset !== 0) {
    throw new Error(
      `Message "${key}" has no plural argument (without offset) to hand the browser.`,
    );
  }
  const before = fillPattern(key, ast.slice(0, index));
  const after = fillPattern(key, ast.slice(index + 1));
  return Object.fromEntries(
    Object.entries(plural.options).map(([form, option]) => [
      form,
      `${before}${option.value.map((element) => patternOf(key, element, plural.value)).join("")}${after}`,
    ]),
  );
}

function patternOf(key: string, element: MessageFormatElement, count: string | null): string {
  switch (element.type) {
    case TYPE.literal:
      return element.value;
    case TYPE.argument:
    case TYPE.number:
    case TYPE.date:
    case TYPE.time:
      return `{${element.value}}`;
    case TYPE.pound:
      if (count !== null) return `{${count}}`;
      break;
    default:
      break;
  }
  throw new Error(
    `Message "${key}" is too rich for the browser's labels (only one plural, with {name} arguments).`,
  );
}
