/**
 * A `_headers` file read as Cloudflare Pages documents it, independently of
 * the code that writes it: a URL pattern on its own line, its headers
 * indented below as "Name: value"; `*` matches any characters (slashes too),
 * `:name` one path segment; every rule whose pattern matches applies, and a
 * header set by two of them is joined with ", ". Lines starting with # are
 * comments.
 */
export interface HeadersFileRule {
  readonly path: string;
  readonly headers: readonly (readonly [string, string])[];
  readonly pattern: RegExp;
}

export function readHeadersFile(text: string): HeadersFileRule[] {
  const rules: { path: string; headers: [string, string][] }[] = [];
  for (const line of text.split(/\r?\n/)) {
    if (!line.trim() || line.trimStart().startsWith("#")) continue;
    if (/^\s/.test(line)) {
      const rule = rules.at(-1);
      const colon = line.indexOf(":");
      if (!rule || colon === -1) throw new Error(`_headers: a header outside a rule: ${line}`);
      rule.headers.push([line.slice(0, colon).trim(), line.slice(colon + 1).trim()]);
    } else {
      rules.push({ path: line.trim(), headers: [] });
    }
  }
  return rules.map((rule) => ({ ...rule, pattern: cloudflarePattern(rule.path) }));
}

/** The headers a request path gets from the file's rules. */
export function headersFromFile(
  rules: readonly HeadersFileRule[],
  path: string,
): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const rule of rules.filter((candidate) => candidate.pattern.test(path))) {
    for (const [name, value] of rule.headers) {
      headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
    }
  }
  return headers;
}

function cloudflarePattern(path: string): RegExp {
  const source = path
    .split("*")
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/:[A-Za-z]\w*/g, "[^/]+"))
    .join(".*");
  return new RegExp(`^${source}$`);
}
