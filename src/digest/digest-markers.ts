import { escapeHtml } from "../model/sanitize.ts";

/**
 * What a digest's HTML says to its sender (src/digest/published-digest.ts)
 * besides the mail itself, written by src/digest/digest-html.ts: the week
 * it is about, where the list's unsubscribe link goes and its text in the
 * site's language, so the sender (a Netlify function among others) needs
 * neither the site's language files nor its settings to add it.
 */

/** Where the sender puts the unsubscribe link (DIGEST_UNSUBSCRIBE_URL), in the footer. */
export const UNSUBSCRIBE_MARK = "<!--digest:unsubscribe-->";

/** The meta element naming the week's first day (yyyy-mm-dd). */
export function weekMeta(first: string): string {
  return `<meta name="digest-week" content="${first}">`;
}

/** The week's first day a digest names, or null. */
export function readWeekMeta(html: string): string | null {
  return /<meta name="digest-week" content="(\d{4}-\d{2}-\d{2})">/.exec(html)?.[1] ?? null;
}

/** The meta element naming the unsubscribe link's text ("Unsubscribe", "Afmelden"). */
export function unsubscribeMeta(label: string): string {
  return `<meta name="digest-unsubscribe" content="${escapeHtml(label)}">`;
}

/** The unsubscribe link's text a digest names (still escaped as HTML), or null. */
export function readUnsubscribeMeta(html: string): string | null {
  return /<meta name="digest-unsubscribe" content="([^"<>]{1,200})">/.exec(html)?.[1] ?? null;
}
