import { type MessageFormatElement, TYPE } from "@formatjs/icu-messageformat-parser";

/**
 * The pseudo-locale's messages (SITE_LANG=en-XA, src/i18n/languages.ts),
 * made from the English ones as they are loaded: every letter accented,
 * about 40% longer, with a marker at each end, as CLDR's en-XA does
 * ("[Šéé åļļ éṽéñţš one two]"). A text on a pseudo-localized page without
 * accents came from elsewhere than the messages (hard-coded in a template
 * or in code); one without its closing marker was cut by the layout.
 * Arguments, plural and select syntax stay as they are, so the messages
 * format exactly as the English ones do.
 */

export const PSEUDO_START = "[";
export const PSEUDO_END = "]";

const PLAIN = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
const MARKED = [..."åƀçðéƒĝĥîĵķļɱñöþǫŕšţûṽŵẋýžÅƁÇĐÉƑĜĤÎĴĶĻṀÑÖÞǪŔŠŢÛṼŴẊÝŽ"];
const ACCENTED: ReadonlyMap<string, string> = new Map(
  [...PLAIN].map((char, i) => [char, MARKED[i] ?? char]),
);

/**
 * Words that lengthen a message by about 40%: translations of English grow
 * by 30% (long texts) to 100% and more (short ones), by the IBM figures the
 * W3C's "Text size in translation" cites. Plain words, as CLDR's en-XA
 * writes them; they only ever stand inside the markers.
 */
const PADDING = "one two three four five six seven eight nine ten".split(" ");

/** Whole padding words, at least `length` characters with their spaces (none for 0). */
function paddingOf(length: number): string {
  let words = "";
  for (let i = 0; words.length < length; i++) words += ` ${PADDING[i % PADDING.length]}`;
  return words;
}

export function accented(text: string): string {
  let out = "";
  for (const char of text) out += ACCENTED.get(char) ?? char;
  return out;
}

/** A message's AST, pseudo-localized (the input is left unchanged). */
export function pseudoLocalize(ast: readonly MessageFormatElement[]): MessageFormatElement[] {
  const words = paddingOf(Math.ceil(literalLength(ast) * 0.4));
  return [literal(PSEUDO_START), ...ast.map(accentElement), literal(`${words}${PSEUDO_END}`)];
}

function literal(value: string): MessageFormatElement {
  return { type: TYPE.literal, value };
}

function accentElement(element: MessageFormatElement): MessageFormatElement {
  if (element.type === TYPE.literal) return { ...element, value: accented(element.value) };
  if (element.type === TYPE.plural || element.type === TYPE.select) {
    const options = Object.fromEntries(
      Object.entries(element.options).map(([key, option]) => [
        key,
        { ...option, value: option.value.map(accentElement) },
      ]),
    );
    return { ...element, options } as MessageFormatElement;
  }
  return element;
}

/** Characters of text a reader sees: the literals, and each plural's or select's longest option. */
function literalLength(ast: readonly MessageFormatElement[]): number {
  let length = 0;
  for (const element of ast) {
    if (element.type === TYPE.literal) length += [...element.value].length;
    else if (element.type === TYPE.plural || element.type === TYPE.select) {
      length += Math.max(0, ...Object.values(element.options).map((o) => literalLength(o.value)));
    }
  }
  return length;
}
