import { ConfigError } from "../errors.ts";
import { defaultHeaderRules, type HeaderRule } from "./headers.ts";
import { serverPattern } from "./server-patterns.ts";

/**
 * netlify.toml's headers as an nginx configuration (`npm run headers --
 * --format nginx`), for a site copied to a server of one's own. nginx picks
 * one location per request, while netlify.toml applies every rule that
 * matches; so each header is one `map` from the served path to its value
 * (the later rule first, as headersFor lets the later rule win), sent from
 * the server level with `add_header … always`, which sends nothing for an
 * empty value. Content types are not headers to add in nginx (it sends its
 * own): each rule that sets one is a regex location with that default type.
 *
 * The file goes where nginx reads `http {}` configuration (Debian:
 * /etc/nginx/conf.d/): maps must be there, and the server block beside them.
 */
export interface NginxOptions {
  /** SITE_URL's folder ("/events"), "" at a host's root. */
  readonly basePath: string;
  /** The folder whose `basePath` subfolder holds the copy of _site. */
  readonly root: string;
  readonly listen: string;
  readonly serverName: string;
}

export function renderNginxConfig(
  options: NginxOptions,
  rules: readonly HeaderRule[] = defaultHeaderRules(),
): string {
  const base = options.basePath.replace(/\/+$/, "");
  const names = headerNames(rules).filter((name) => name.toLowerCase() !== "content-type");
  const maps = names.map((name) => {
    const lines = [...rules]
      .reverse()
      .filter((rule) => rule.values[name] !== undefined)
      .map(
        (rule) =>
          `    ${quote(`~*${serverPattern(rule.for, base)}`)} ${quote(rule.values[name] ?? "")};`,
      );
    return [`map $uri ${variable(name)} {`, `    default "";`, ...lines, "}"].join("\n");
  });
  const types = [...rules]
    .reverse()
    .filter((rule) => rule.values["Content-Type"] !== undefined)
    .map((rule) =>
      [
        `    location ~* ${quote(serverPattern(rule.for, base))} {`,
        "        types { }",
        `        default_type ${quote(rule.values["Content-Type"] ?? "")};`,
        "    }",
      ].join("\n"),
    );
  return `# Written by \`npm run headers -- --format nginx\` from netlify.toml's [[headers]]:
# change those and write this again. For the http {} level (Debian:
# /etc/nginx/conf.d/), next to \`include mime.types;\`. A location of your own
# inside the server block that sets add_header of its own loses these: nginx
# inherits add_header only into locations that set none.

${maps.join("\n\n")}

server {
    listen ${options.listen};
    server_name ${options.serverName};
    # The copy of _site is ${options.root}${base}/ (rsync -a --delete --delay-updates _site/ …).
    root ${options.root};
    index index.html;
    error_page 404 ${base}/404.html;

${names.map((name) => `    add_header ${name} ${variable(name)} always;`).join("\n")}

    location ${base}/ {
        try_files $uri $uri/ =404;
    }

${types.join("\n\n")}
}
`;
}

function headerNames(rules: readonly HeaderRule[]): string[] {
  const seen = new Map<string, string>();
  for (const rule of rules) {
    for (const name of Object.keys(rule.values)) {
      if (!seen.has(name.toLowerCase())) seen.set(name.toLowerCase(), name);
    }
  }
  return [...seen.values()];
}

function variable(header: string): string {
  return `$ecp_${header.toLowerCase().replace(/[^a-z0-9]+/g, "_")}`;
}

/** An nginx string: `$` would start a variable, and nginx has no escape for it. */
function quote(text: string): string {
  if (text.includes("$") && !text.endsWith("$")) {
    throw new ConfigError(`netlify.toml: nginx cannot send a header value containing "$": ${text}`);
  }
  return `"${text.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
}
