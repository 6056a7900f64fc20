import { defaultHeaderRules, type HeaderRule } from "./headers.ts";
import { encodedPath, serverFolder, serverPattern } from "./server-patterns.ts";

/**
 * netlify.toml's headers as Apache configuration (`npm run headers --
 * --format apache`), for the `<VirtualHost>` that serves a copy of _site.
 * Apache merges every `<LocationMatch>` that matches, in order, the later
 * winning, as netlify.toml's rules are read (src/hosts/headers.ts). Headers
 * are `always` set so error pages (404.html) carry them too; content types
 * are the served file's own (ForceType), not a second header.
 * Needs mod_headers, mod_mime and mod_dir (`a2enmod headers`).
 *
 * SITE_URL's folder is matched as Apache matches it, decoded
 * (src/hosts/server-patterns.ts), in a quoted pattern where Apache reads
 * `\\` and `\"` as escapes; `ErrorDocument` names a URL, so there it is
 * percent-encoded whole: a space would make Apache read the path as a
 * message, and `$` or `%{` as parts of an expression.
 */
export interface ApacheOptions {
  /** SITE_URL's folder as SiteUrls.basePath holds it, percent-encoded ("/my%20events"); "" at a host's root. */
  readonly basePath: string;
}

export function renderApacheConfig(
  options: ApacheOptions,
  rules: readonly HeaderRule[] = defaultHeaderRules(),
): string {
  const base = serverFolder(options.basePath, "Apache");
  const blocks = rules.map((rule) => {
    const lines = Object.entries(rule.values).map(([name, value]) =>
      name.toLowerCase() === "content-type"
        ? `    ForceType ${quote(value)}`
        : `    Header always set ${name} ${quote(value.replace(/%/g, "%%"))}`,
    );
    return [
      `# ${rule.for}`,
      `<LocationMatch ${quote(`(?i)${serverPattern(rule.for, base)}`)}>`,
      ...lines,
      "</LocationMatch>",
    ].join("\n");
  });
  return `# Written by \`npm run headers -- --format apache\` from netlify.toml's [[headers]]:
# change those and write this again. Inside the <VirtualHost> whose
# DocumentRoot holds the copy of _site${base ? ` in its ${base.slice(1)}/ folder` : ""}.

DirectoryIndex index.html
ErrorDocument 404 ${encodedPath(base)}/404.html

${blocks.join("\n\n")}
`;
}

function quote(text: string): string {
  return `"${text.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
}
