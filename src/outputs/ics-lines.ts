import { escape as escapeIcsText } from "ical-generator";
import { multiLine, singleLine } from "./event-text.ts";
import { normalizeHttpUrl } from "./feeds-image-type.ts";

/**
 * Content-line helpers for what ical-generator does not write the way we
 * need: RFC 7986 properties it lacks (calendar DESCRIPTION, IMAGE), URI values
 * it would TEXT-escape (a "," in a URI must stay a ","; RFC 5545 3.3.13),
 * calendar NAME/X-WR-CALNAME/X-WR-CALDESC, which it writes unescaped, and
 * line folding (its folder allocates a TextEncoder per character, which costs
 * seconds on a site-wide calendar).
 */

/** A TEXT value (RFC 5545 3.3.11) of a single-line field, escaped. */
export function icsSingleLineText(text: string): string {
  return escapeIcsText(singleLine(text), false);
}

/** A TEXT value that may span lines ("\n" becomes the two characters "\n"). */
export function icsMultiLineText(text: string): string {
  return escapeIcsText(multiLine(text), false);
}

/** A URI value: serialized by the WHATWG URL parser (no spaces, controls or quotes). */
export function icsUri(url: string): string | null {
  return normalizeHttpUrl(url);
}

/**
 * A parameter value for a quoted parameter such as CN (RFC 5545 3.2): DQUOTE
 * and control characters are not allowed inside, and backslash escapes do not
 * exist there, so they are replaced rather than escaped.
 */
export function icsParamText(text: string): string {
  return singleLine(text).replace(/"/g, "'").replace(/\\/g, "/");
}

/** Content lines of generated iCalendar text, unfolded, without empty lines. */
export function unfoldIcs(text: string): string[] {
  return text
    .replace(/\r\n[ \t]/g, "")
    .split("\r\n")
    .filter((line) => line !== "");
}

const MAX_OCTETS = 75;

function utf8Octets(codePoint: number): number {
  if (codePoint < 0x80) return 1;
  if (codePoint < 0x800) return 2;
  if (codePoint < 0x10000) return 3;
  return 4;
}

/**
 * Folds one content line (RFC 5545 3.1): at most 75 octets per physical line,
 * the leading space of a continuation included, breaking only between code
 * points so no UTF-8 sequence (or surrogate pair) is split.
 */
export function foldIcsLine(line: string): string {
  if (line.length <= MAX_OCTETS / 4 || Buffer.byteLength(line, "utf8") <= MAX_OCTETS) return line;
  const parts: string[] = [];
  let current = "";
  let used = 0;
  let limit = MAX_OCTETS;
  for (const char of line) {
    const octets = utf8Octets(char.codePointAt(0) ?? 0);
    if (used + octets > limit) {
      parts.push(current);
      current = "";
      used = 0;
      limit = MAX_OCTETS - 1;
    }
    current += char;
    used += octets;
  }
  parts.push(current);
  return parts.join("\r\n ");
}

/** Folded lines, each ended by CRLF, the last one included. */
export function joinIcsLines(lines: readonly string[]): string {
  return `${lines.map(foldIcsLine).join("\r\n")}\r\n`;
}
