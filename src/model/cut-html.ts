import { decodeHTML } from "entities";
import { cutText, ELLIPSIS, textLength } from "./cut-text.ts";
import { escapeHtml } from "./sanitize.ts";

/**
 * A sanitized description cut to at most `max` characters of HTML (markup
 * counts: a description of a million empty paragraphs is as large as one of
 * a million words). The text is cut as `cutText` cuts it, at a word, marked
 * with "…" where text may stand (a list item of a list, a paragraph of its
 * own between blocks); the elements still open there are closed, so the
 * part is as well-formed as the whole.
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
    const length = textLength(token);
    // What must still fit after this token: the end tags, and the ellipsis in its element.
    const reserve = endTags(open).length + LONGEST_ELLIPSIS;
    if (name === undefined) {
      if (used + length + reserve <= max) {
        out += token;
        used += length;
        continue;
      }
      const [before, after] = textPlace(open);
      const room = max - used - endTags(open).length - before.length - after.length;
      return `${out}${before}${cutEscaped(token, room)}${after}${endTags(open)}`;
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
  const [before, after] = textPlace(open);
  return `${out}${before}${ELLIPSIS}${after}${endTags(open)}`;
}

/**
 * Where text may go at the end of what is kept: in the element open there,
 * in a list item of a list, in a paragraph of its own at the top level.
 */
function textPlace(open: readonly string[]): readonly [string, string] {
  const inner = open.at(-1);
  if (inner === undefined) return ["<p>", "</p>"];
  if (inner === "ul" || inner === "ol") return ["<li>", "</li>"];
  return ["", ""];
}

const LONGEST_ELLIPSIS = `<li>${ELLIPSIS}</li>`.length;

/** A tag (with its name) or a run of text. */
const TOKEN = /<\/?([a-z][a-z0-9]*)[^>]*>|[^<]+/g;
const VOID = new Set(["br", "hr"]);

function endTags(open: readonly string[]): string {
  return open
    .map((name) => `</${name}>`)
    .reverse()
    .join("");
}

/**
 * Escaped text cut so that, escaped again, it has at most `room` characters,
 * and marked with "…" even when all of it fits: what follows it is cut.
 */
function cutEscaped(escaped: string, room: number): string {
  const text = decodeHTML(escaped);
  let limit = room;
  for (;;) {
    const cut = cutText(text, Math.max(1, limit));
    const marked = escapeHtml(cut === text ? `${text.trimEnd()}${ELLIPSIS}` : cut);
    const over = textLength(marked) - room;
    if (over <= 0 || limit <= 1) return marked;
    limit -= over;
  }
}
