import { ConfigError } from "../errors.ts";
import type { HeaderRule } from "./headers.ts";

/**
 * The embed pages' Content-Security-Policy (docs/widget.md, "WordPress's
 * sandbox"). It is the site's policy with `frame-ancestors *` (any site may
 * frame the widget), and with the site's own origin named beside `'self'`.
 *
 * Why the origin: WordPress frames an oEmbed provider it does not know in
 * `<iframe sandbox="allow-scripts">`, which gives the frame an opaque origin
 * (HTML, "sandboxed origin browsing context flag"). CSP Level 3 matches
 * `'self'` against the URL of the policy's document (section 6.7.2.3), as
 * Chromium and Firefox do; WebKit matches it against the document's origin,
 * which in that frame is opaque and matches nothing, so it refuses the
 * widget's stylesheet, scripts and images. The origin written out is
 * matched by every engine, and admits nothing 'self' did not mean.
 *
 * netlify.toml is a static file and cannot know SITE_URL, so its rule for the
 * embed pages carries their other headers and this policy is added by the
 * build to every host's form of the rules: `_headers` (Cloudflare Pages, and
 * Netlify, which merges that file's rules with netlify.toml's), the pages'
 * policy meta (GitHub Pages, S3, static hosts), `npm run headers` (nginx,
 * Apache, S3) and the local servers (`npm run preview`, `npm start`), as
 * map-policy.ts adds the tile server to the place pages' policy.
 */

/** netlify.toml's rule for the embed pages (each calendar's widget, its event cards, the widget of all calendars). */
export const EMBED_PAGES_RULE = "/embed/:calendar/*";

export const CSP_HEADER = "Content-Security-Policy";

/** The embed pages' policy, naming `origins` (http(s)://host[:port], no path) beside 'self'. */
export function embedPolicy(origins: readonly string[]): string {
  const own = ["'self'", ...new Set(origins.map((origin) => new URL(origin).origin))].join(" ");
  return [
    `default-src ${own}`,
    `img-src ${own} https: data:`,
    `style-src ${own}`,
    `script-src ${own}`,
    "frame-ancestors *",
    "base-uri 'self'",
    "form-action 'self'",
    "object-src 'none'",
  ].join("; ");
}

/** The rules with the embed pages' policy for a site served at `origins` (SITE_URL's, a local server's). */
export function withEmbedPolicy(
  rules: readonly HeaderRule[],
  origins: readonly string[],
): readonly HeaderRule[] {
  if (!rules.some((rule) => rule.for === EMBED_PAGES_RULE)) {
    throw new ConfigError(
      `netlify.toml: the embed pages need their [[headers]] rule (for = "${EMBED_PAGES_RULE}").`,
    );
  }
  const policy = embedPolicy(origins);
  return rules.map((rule) =>
    rule.for === EMBED_PAGES_RULE
      ? { ...rule, values: { ...rule.values, [CSP_HEADER]: policy } }
      : rule,
  );
}

/**
 * What Netlify needs written beside netlify.toml: the embed pages' rule with
 * the policy only. Netlify merges `_headers` with netlify.toml's rules, and
 * netlify.toml wins for a header both set on one path, which is why
 * netlify.toml's rule sets no policy of its own.
 */
export function embedPolicyRules(rules: readonly HeaderRule[]): HeaderRule[] {
  return rules
    .filter((rule) => rule.for === EMBED_PAGES_RULE && rule.values[CSP_HEADER] !== undefined)
    .map((rule) => ({ ...rule, values: { [CSP_HEADER]: rule.values[CSP_HEADER] as string } }));
}
