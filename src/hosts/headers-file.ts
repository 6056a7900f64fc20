import { ConfigError } from "../errors.ts";
import { defaultHeaderRules, type HeaderRule } from "./headers.ts";

/**
 * netlify.toml's `[[headers]]` rules in the `_headers` file format that
 * Netlify and Cloudflare Pages read from the root of a deploy: a path pattern
 * on its own line, then its headers indented below it. The path syntax is the
 * same (`*` a splat, `:name` one segment), and both apply every rule whose
 * path matches, as netlify.toml's rules are written for (no header set by two
 * rules for one file), so the file means what netlify.toml means.
 */

/** Cloudflare Pages reads at most 100 rules, each line at most 2,000 characters. */
export const CLOUDFLARE_HEADER_LIMITS = { rules: 100, lineLength: 2000 } as const;

export const HEADERS_FILE_NAME = "_headers";

export function renderHeadersFile(rules: readonly HeaderRule[] = defaultHeaderRules()): string {
  const blocks = rules
    .flatMap(withEmptySplats)
    .map((rule) =>
      [rule.for, ...Object.entries(rule.values).map(([name, value]) => `  ${name}: ${value}`)].join(
        "\n",
      ),
    );
  return `# Written by the build from netlify.toml's [[headers]] (DEPLOY_TARGET); edit those, not this file.\n\n${blocks.join("\n\n")}\n`;
}

/**
 * Netlify reads a `*` that is a whole segment as "any rest, or none" (and the
 * slash before it as optional): the rule for every calendar's feed.xml also
 * matches the site's own /feed.xml, and the embed pages' rule the widget's
 * /embed/widget.css. Cloudflare Pages needs that slash. Each such segment gets
 * a rule without it as well, so both hosts send the same headers for every
 * file; `/*` alone needs none.
 */
function withEmptySplats(rule: HeaderRule): HeaderRule[] {
  const segments = rule.for.split("/");
  const star = segments.indexOf("*");
  if (star === -1) return [rule];
  const rest = segments.filter((_, index) => index !== star).join("/");
  if (rest === "") return [rule];
  return [rule, ...withEmptySplats({ ...rule, for: rest })];
}

/** The file for Cloudflare Pages, refused when Cloudflare would drop part of it. */
export function renderCloudflareHeaders(
  rules: readonly HeaderRule[] = defaultHeaderRules(),
): string {
  if (rules.length > CLOUDFLARE_HEADER_LIMITS.rules) {
    const copies = rules.filter((rule) => rule.folder).length;
    const languages = copies
      ? ` (${copies} of them the copies for SITE_LANGUAGES' folders: publish fewer languages on Cloudflare Pages)`
      : "";
    throw new ConfigError(
      `netlify.toml: ${rules.length} [[headers]] rules${languages}, more than the ${CLOUDFLARE_HEADER_LIMITS.rules} Cloudflare Pages reads from ${HEADERS_FILE_NAME}.`,
    );
  }
  const text = renderHeadersFile(rules);
  const long = text.split("\n").find((line) => line.length > CLOUDFLARE_HEADER_LIMITS.lineLength);
  if (long !== undefined) {
    throw new ConfigError(
      `netlify.toml: a header line is ${long.length} characters, more than the ${CLOUDFLARE_HEADER_LIMITS.lineLength} Cloudflare Pages reads (${long.trim().slice(0, 60)}…).`,
    );
  }
  return text;
}
