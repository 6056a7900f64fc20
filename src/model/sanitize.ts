import { DecodingMode, decodeHTML, decodeHTMLAttribute } from "entities";
import sanitizeHtml from "sanitize-html";
import { tameBidiControls } from "./bidi-controls.ts";
import { RECORD_LIMITS } from "./record-limits.ts";
import { wellFormedText } from "./well-formed-text.ts";

/**
 * Portal descriptions are HTML from a rich-text editor, entered by many people
 * and published on our pages, feeds and widget. We keep an allowlist of
 * structural tags; links keep http(s) and mailto only and get
 * rel="noopener noreferrer". Scripts, styles, images, frames, forms and event
 * handler attributes are removed; the text of unknown tags is kept.
 *
 * Its text keeps no control characters (HTML calls them parse errors, XML
 * 1.0 forbids most: the feeds carry this HTML) and no bidirectional
 * embeddings or overrides; isolates are balanced within each run of text
 * (src/model/bidi-controls.ts), so none reaches past the description.
 */
const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [
    "p",
    "br",
    "strong",
    "b",
    "em",
    "i",
    "u",
    "s",
    "ul",
    "ol",
    "li",
    "a",
    "h2",
    "h3",
    "h4",
    "blockquote",
    "code",
    "pre",
    "hr",
  ],
  allowedAttributes: { a: ["href", "rel"] },
  allowedSchemes: ["http", "https", "mailto"],
  allowedSchemesAppliedToAttributes: ["href"],
  allowProtocolRelative: false,
  disallowedTagsMode: "discard",
  textFilter: (text) => tameBidiControls(text.replace(CONTROLS, "")),
  nonTextTags: [
    "script",
    "style",
    "textarea",
    "option",
    "noscript",
    "iframe",
    "object",
    "template",
    "svg",
    "math",
    "title",
    "head",
  ],
  transformTags: {
    // The page title is the h1; portal headings fit below it.
    h1: "h2",
    h5: "h4",
    h6: "h4",
    a: (tagName, attribs): sanitizeHtml.Tag => {
      const href = safeLink(attribs.href);
      // Without a usable target the text stays and the link goes (an <a> without href).
      if (!href) return { tagName, attribs: {} };
      return { tagName, attribs: { href, rel: "noopener noreferrer" } };
    },
  },
};

// biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
const CONTROLS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g;

/** Sanitized HTML for a description; plain text (no tags) is turned into paragraphs. */
export function sanitizeDescription(raw: string): string {
  const text = wellFormedText(raw);
  const source = looksLikeHtml(text) ? text : textToHtml(text);
  return sanitizeHtml(source, OPTIONS).trim();
}

/**
 * Plain text from sanitized HTML: paragraphs separated by a blank line, links
 * as "text (url)". Turning HTML into text is the one place a description's
 * character references are decoded, once, at the end: the link's URL is
 * written back escaped so that it, too, is decoded only then (a link to
 * "?a=1&copy=2" stays that, and the text `&amp;lt;` becomes `&lt;`, never `<`).
 */
export function htmlToText(html: string): string {
  const text = html
    .replace(/<a href="([^"]*)"[^>]*>([\s\S]*?)<\/a>/g, (_, href: string, inner: string) => {
      const label = stripTags(inner).trim();
      const url = decodeHTMLAttribute(href);
      const shown = url.startsWith("mailto:") ? url.slice("mailto:".length) : url;
      return label === "" || decodeHTML(label) === shown
        ? escapeHtml(shown)
        : `${label} (${escapeHtml(url)})`;
    })
    .replace(/<br\s*\/?>/g, "\n")
    .replace(/<li>/g, "\n- ")
    .replace(/<\/(p|h2|h3|h4|blockquote|pre|ul|ol)>|<hr\s*\/?>/g, "\n\n");
  return decodeHTML(stripTags(text))
    .replace(/[ \t\u00a0]+/g, " ")
    .replace(/ *\n */g, "\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/**
 * One line from a plain-text field (titles, names, summaries), kept as the
 * portal wrote it: "Poetry & Beats <Open Mic>" is text, escaped wherever it is
 * output, never stripped as if it were markup. Control characters and line
 * breaks become spaces.
 *
 * Character references are decoded, every one HTML knows (portals often
 * HTML-encode titles: "Caf&eacute; &amp; Jazz" is "Café & Jazz"). This is the
 * only place plain text is decoded, and it decodes once: "&amp;lt;" is the
 * text "&lt;", never "<". Strict mode decodes only references that end in
 * ";", as an encoder writes them; a bare "&" followed by letters ("Q&A",
 * "Sales&regal") is text, not the start of a reference without its ";".
 *
 * Lone surrogates and the noncharacters XML forbids become U+FFFD
 * (src/model/well-formed-text.ts); bidirectional embeddings and overrides
 * are removed and isolates balanced (src/model/bidi-controls.ts), so that the
 * line cannot turn the words around it.
 */
export function plainTextLine(raw: string): string {
  return tameBidiControls(
    decodeHTML(wellFormedText(raw), DecodingMode.Strict)
      // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
      .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, " ")
      .replace(/\s+/g, " ")
      .trim(),
  );
}

/**
 * An http(s) or mailto URL the site may link to, or null: no other scheme,
 * no credentials, no lone surrogates (which no URL can encode) and at most
 * RECORD_LIMITS.url characters.
 */
export function safeLink(raw: unknown): string | null {
  if (typeof raw !== "string") return null;
  const value = raw.trim();
  if (value.length > RECORD_LIMITS.url || !value.isWellFormed()) return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.protocol === "http:" || url.protocol === "https:") {
    if (url.username || url.password) return null;
    return keptOrEscaped(value, url);
  }
  if (url.protocol === "mailto:") return keptOrEscaped(value, url);
  return null;
}

/**
 * The portal's spelling unless it holds characters that need escaping (a
 * space, a line break, a bidirectional control in an address would reach the
 * plain text of feeds and calendars as they are).
 */
function keptOrEscaped(value: string, url: URL): string | null {
  if (/^[\x21-\x7e]+$/.test(value) && !/["<>\\^`{|}]/.test(value)) return value;
  // Escaping makes it longer: the limit is on what is published.
  return url.href.length <= RECORD_LIMITS.url ? url.href : null;
}

function looksLikeHtml(raw: string): boolean {
  // Reference names may hold digits (&frac12;, &sup2;).
  return /<\/?[a-z][^>]*>|&(#\d+|#x[\da-f]+|[a-z][a-z\d]*);/i.test(raw);
}

function textToHtml(raw: string): string {
  return raw
    .trim()
    .split(/\n\s*\n/)
    .map((block) => `<p>${escapeHtml(block.trim()).replace(/\n/g, "<br>")}</p>`)
    .join("");
}

const ENTITIES: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/** Text as HTML (or XML) character data or attribute value: the one escaper every output uses. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c);
}

function stripTags(html: string): string {
  return html.replace(/<[^>]*>/g, "");
}
