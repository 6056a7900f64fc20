import { escape as escapeIcsText, foldLines } from "ical-generator";
import { multiLine, singleLine } from "./event-text.ts";
import { normalizeHttpUrl } from "./feeds-image-type.ts";

/**
 * Content-line helpers for what ical-generator does not write the way we
 * need: RFC 7986 properties it lacks (calendar DESCRIPTION, IMAGE), URI values
 * it would TEXT-escape (a "," in a URI must stay a ","; RFC 5545 3.3.13), and
 * calendar NAME/X-WR-CALNAME/X-WR-CALDESC, which it writes unescaped.
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

export interface IcsExtras {
  /** Unfolded content lines added to the VCALENDAR, before its first component. */
  readonly calendar: readonly string[];
  /** Unfolded content lines added at the end of the VEVENT with this UID. */
  readonly events: ReadonlyMap<string, readonly string[]>;
}

/**
 * Unfolds ical-generator's output, adds the extra lines, then folds again at
 * 75 octets without splitting a UTF-8 sequence (RFC 5545 3.1) and ends every
 * line, the last one included, with CRLF.
 */
export function finishIcs(generated: string, extras: IcsExtras): string {
  const lines = generated.replace(/\r\n[ \t]/g, "").split("\r\n");
  const out: string[] = [];
  let calendarExtrasDone = extras.calendar.length === 0;
  let uid: string | null = null;
  for (const [index, line] of lines.entries()) {
    if (
      !calendarExtrasDone &&
      index > 0 &&
      (line.startsWith("BEGIN:") || line === "END:VCALENDAR")
    ) {
      out.push(...extras.calendar);
      calendarExtrasDone = true;
    }
    if (line === "BEGIN:VEVENT") uid = null;
    if (line.startsWith("UID:") && uid === null) uid = line.slice(4);
    if (line === "END:VEVENT" && uid !== null) out.push(...(extras.events.get(uid) ?? []));
    if (line !== "") out.push(line);
  }
  return `${foldLines(out.join("\r\n"))}\r\n`;
}
