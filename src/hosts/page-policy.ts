import { defaultHeaderRules, type HeaderRule, headersFor } from "./headers.ts";

/**
 * The Content-Security-Policy of netlify.toml, carried by the page itself, for
 * hosts that send no custom headers (GitHub Pages). A `<meta http-equiv>`
 * policy governs what the page loads after it, so it goes first in the head.
 *
 * A meta cannot carry everything a header can (CSP Level 3, section 3.3):
 * `frame-ancestors`, `report-uri` and `sandbox` are ignored there (browsers
 * log an error for each), and X-Frame-Options, nosniff, the referrer policy
 * and CORS are headers only. Those are left out, and docs/deploy.md says what
 * follows: on such a host the pages can be framed by other sites.
 */

const HEADER_ONLY_DIRECTIVES = new Set(["frame-ancestors", "report-uri", "sandbox"]);

/** The policy of a page's site path as a meta can carry it; null when its rules set none. */
export function metaPolicy(
  sitePath: string,
  rules: readonly HeaderRule[] = defaultHeaderRules(),
): string | null {
  const csp = headersFor(sitePath, rules)["Content-Security-Policy"];
  if (!csp) return null;
  const kept = csp
    .split(";")
    .map((directive) => directive.trim())
    .filter(
      (directive) => directive && !HEADER_ONLY_DIRECTIVES.has(directive.split(/\s+/)[0] ?? ""),
    );
  return kept.length ? kept.join("; ") : null;
}

/** The page with its policy meta right after `<meta charset>` (or `<head>`); unchanged without one. */
export function withPolicyMeta(
  html: string,
  sitePath: string,
  rules: readonly HeaderRule[] = defaultHeaderRules(),
): string {
  const policy = metaPolicy(sitePath, rules);
  if (policy === null) return html;
  const meta = `\n<meta http-equiv="Content-Security-Policy" content="${escapeAttribute(policy)}">`;
  const anchor = /<meta charset="?[\w-]+"?\s*\/?>/i.exec(html) ?? /<head\b[^>]*>/i.exec(html);
  if (!anchor) return html;
  const at = anchor.index + anchor[0].length;
  return html.slice(0, at) + meta + html.slice(at);
}

/** The URL path of a written file: "calendars/x/index.html" -> "/calendars/x/". */
export function pagePathOf(file: string): string {
  const path = `/${file.replace(/^\/+/, "")}`;
  return path.endsWith("/index.html") ? path.slice(0, -"index.html".length) : path;
}

function escapeAttribute(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
}
