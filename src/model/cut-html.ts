import { decodeHTML } from "entities";
import { cutText, ELLIPSIS, textLength } from "./cut-text.ts";
import { escapeHtml } from "./sanitize.ts";

/**
 * A sanitized description cut to at most `max` characters of HTML (markup
 * counts: a description of a million empty paragraphs is as large as one of
 * a million words). The text is cut as `cutText` cuts it, at a word, marked
 * with "…"; the elements still open there are closed, so the part is as
 * well-formed as the whole.
 *
 * It reads the sanitizer's output only (src/model/sanitize.ts), whose
 * grammar is small: the allowlisted tags, attributes only on links, quoted
 * and escaped, and text in which "<" is always escaped. So every "<" starts
 * a tag and every tag ends at the next ">".
 */
export function cutHtml(html: string, max: number): string {
  if (textLength(html, max) <= max) return html;
  const open: string[] = [];
  let out = "";
  let used = 0;
  for (const [token, name] of html.matchAll(TOKEN)) {
    // What must still fit after this token: the ellipsis (in a paragraph of its own at the top level) and the end tags.
    const reserve = (open.length > 0 ? 1 : PARAGRAPH_ELLIPSIS.length) + endTags(open).length;
    const length = textLength(token);
    if (name === undefined) {
      if (used + length + reserve <= max) {
        out += token;
        used += length;
        continue;
      }
      const room = max - used - endTags(open).length - (open.length > 0 ? 0 : "<p></p>".length);
      out += open.length > 0 ? cutEscaped(token, room) : `<p>${cutEscaped(token, room)}</p>`;
      return out + endTags(open);
    }
    const closing = token.startsWith("</");
    const isVoid = VOID.has(name) || token.endsWith("/>");
    const cost = length + (closing || isVoid ? 0 : `</${name}>`.length);
    if (!closing && used + cost + reserve > max) break;
    out += token;
    used += length;
    if (closing) open.pop();
    else if (!isVoid) open.push(name);
  }
  return out + (open.length > 0 ? ELLIPSIS : PARAGRAPH_ELLIPSIS) + endTags(open);
}

/** A tag (with its name) or a run of text. */
const TOKEN = /<\/?([a-z][a-z0-9]*)[^>]*>|[^<]+/g;
const VOID = new Set(["br", "hr"]);
const PARAGRAPH_ELLIPSIS = `<p>${ELLIPSIS}</p>`;

function endTags(open: readonly string[]): string {
  return open
    .map((name) => `</${name}>`)
    .reverse()
    .join("");
}

/** Escaped text cut so that, escaped again, it has at most `room` characters, "…" included. */
function cutEscaped(escaped: string, room: number): string {
  const text = decodeHTML(escaped);
  let limit = room;
  for (;;) {
    const cut = escapeHtml(cutText(text, Math.max(1, limit)));
    const over = textLength(cut) - room;
    if (over <= 0 || limit <= 1) return cut;
    limit -= over;
  }
}
