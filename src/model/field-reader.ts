import { openIsolates, tameBidiControls } from "./bidi-controls.ts";
import { cutHtml } from "./cut-html.ts";
import { cutText, textLength } from "./cut-text.ts";
import { RECORD_LIMITS } from "./record-limits.ts";
import { plainTextLine, safeLink, sanitizeDescription } from "./sanitize.ts";

/**
 * Reads one record's text fields as the domain model holds them (plain
 * text decoded once, descriptions sanitized, links checked) and within the
 * record's limits (src/model/record-limits.ts), noting what it had to change:
 * each note names the field and what was cut, for the warning that names
 * the record (src/model/normalize-snapshot.ts adds its calendar and id).
 */
export class FieldReader {
  readonly notes: string[] = [];

  /** One line of plain text (src/model/sanitize.ts, plainTextLine), at most `max` characters. */
  text(raw: unknown, field: string, max: number): string {
    if (typeof raw === "string" && !raw.isWellFormed())
      this.notes.push(`${field}: lone UTF-16 surrogates replaced by U+FFFD`);
    const text =
      typeof raw === "number" ? String(raw) : typeof raw === "string" ? plainTextLine(raw) : "";
    return this.cut(text, field, max);
  }

  /** A text cut to `max` characters, noted when it was. */
  cut(text: string, field: string, max: number): string {
    const cut = cutBalanced(text, max);
    if (cut !== text)
      this.notes.push(`${field}: ${count(textLength(text))} characters, cut to ${count(max)}`);
    return cut;
  }

  /** A URL the site may link to (safeLink), or null; one past the length limit is left out, noted. */
  link(raw: unknown, field: string): string | null {
    if (typeof raw === "string" && raw.trim().length > RECORD_LIMITS.url) {
      this.notes.push(
        `${field} left out: ${count(raw.trim().length)} characters, more than ${count(RECORD_LIMITS.url)}`,
      );
      return null;
    }
    return safeLink(raw);
  }

  /** Sanitized description HTML, at most RECORD_LIMITS.description characters of it. */
  description(raw: unknown, field = "description"): string {
    if (typeof raw !== "string") return "";
    if (!raw.isWellFormed()) this.notes.push(`${field}: lone UTF-16 surrogates replaced by U+FFFD`);
    // Only so much of the portal's HTML is read at all: sanitizing it is what costs.
    const source = cutText(raw, RECORD_LIMITS.descriptionSource);
    const sanitized = sanitizeDescription(source);
    const html = cutHtml(sanitized, RECORD_LIMITS.description);
    if (source !== raw || html !== sanitized) {
      const sent = textLength(source === raw ? sanitized : raw);
      this.notes.push(
        `${field}: ${count(sent)} characters of HTML, cut to ${count(RECORD_LIMITS.description)}`,
      );
    }
    return html;
  }

  /** The first `max` of `items`, noting how many there were. */
  first<T>(items: readonly T[], what: string, max: number): readonly T[] {
    if (items.length <= max) return items;
    this.notes.push(`${count(items.length)} ${what}, the first ${count(max)} are published`);
    return items.slice(0, max);
  }
}

/**
 * A balanced text cut to `max` characters, still balanced: a cut can leave
 * out the closers of isolates opened before it (src/model/bidi-controls.ts),
 * so it is made short enough that closing them keeps it within `max`.
 */
function cutBalanced(text: string, max: number): string {
  const cut = cutText(text, max);
  if (cut === text) return text;
  const open = openIsolates(cut);
  return open === 0 ? cut : tameBidiControls(cutText(text, Math.max(0, max - open)));
}

const numbers = new Intl.NumberFormat("en");

/** A bit of a value the portal sent, for a note: well-formed, one line, at most `max` characters. */
export function excerpt(raw: string, max: number): string {
  return cutText(plainTextLine(raw), max);
}

/** A number as the notes write it: "5,000". */
export function count(n: number): string {
  return numbers.format(n);
}
