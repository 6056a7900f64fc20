import { defaultHeaderRules, type HeaderRule } from "./headers.ts";
import { serverFolder, serverPattern } from "./server-patterns.ts";

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
 *
 * SITE_URL's folder is written as nginx matches it, decoded
 * (src/hosts/server-patterns.ts), and every string is quoted for what it is
 * to nginx: a regular expression (map keys, regex locations) or a prefix
 * (location) is taken as written inside quotes, `;`, `{` and spaces
 * included; a value (add_header's, error_page, root) is a "complex value",
 * where `$` starts a variable and no escape exists, so a `$` is written as
 * the variable `$ecp_dollar`, which a `geo` block sets to "$".
 */
export interface NginxOptions {
  /** SITE_URL's folder as SiteUrls.basePath holds it, percent-encoded ("/my%20events"); "" at a host's root. */
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
  const base = serverFolder(options.basePath, "nginx");
  const dollar = { used: false };
  const value = (text: string) => nginxValue(text, dollar);
  const names = headerNames(rules).filter((name) => name.toLowerCase() !== "content-type");
  const maps = names.map((name) => {
    const lines = [...rules]
      .reverse()
      .filter((rule) => rule.values[name] !== undefined)
      .map(
        (rule) =>
          `    ${quote(`~*${serverPattern(rule.for, base)}`)} ${value(rule.values[name] ?? "")};`,
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
        `        default_type ${value(rule.values["Content-Type"] ?? "")};`,
        "    }",
      ].join("\n"),
    );
  // Before the text, which says whether $ecp_dollar is needed.
  const root = value(options.root);
  const errorPage = value(`${base}/404.html`);
  return `# Written by \`npm run headers -- --format nginx\` from netlify.toml's [[headers]]:
# change those and write this again. For the http {} level (Debian:
# /etc/nginx/conf.d/), next to \`include mime.types;\`. A location of your own
# inside the server block that sets add_header of its own loses these: nginx
# inherits add_header only into locations that set none.
${dollar.used ? `\n# "$" in a value below, which nginx would read as a variable.\ngeo $ecp_dollar { default "$"; }\n` : ""}
${maps.join("\n\n")}

server {
    listen ${options.listen};
    server_name ${options.serverName};
    # The copy of _site is ${options.root}${base}/ (rsync -a --delete --delay-updates _site/ …).
    root ${root};
    index index.html;
    error_page 404 ${errorPage};

${names.map((name) => `    add_header ${name} ${variable(name)} always;`).join("\n")}

    location ${quote(`${base}/`)} {
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

/**
 * A quoted nginx string taken as written: a regular expression or a
 * location's prefix. Inside quotes nginx reads `\\` and `\"` as escapes
 * and everything else (`;`, `{`, `$`, spaces) as it is.
 */
function quote(text: string): string {
  return `"${text.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
}

/** A quoted nginx value, in which `$` would start a variable: each is `${ecp_dollar}`. */
function nginxValue(text: string, dollar: { used: boolean }): string {
  if (!text.includes("$")) return quote(text);
  dollar.used = true;
  // biome-ignore lint/suspicious/noTemplateCurlyInString: nginx's syntax for a variable, not a template
  return quote(text).replaceAll("$", "${ecp_dollar}");
}
