export interface Link {
  readonly target: string;
  /** Lower-cased parameter names; the first occurrence of each wins (RFC 8288 section 3). */
  readonly params: Readonly<Record<string, string>>;
}

/**
 * Parses an HTTP Link header (RFC 8288 section 3): comma-separated
 * `<URI-Reference>; param=value; param="quoted, value"`. Commas inside the
 * angle brackets or quotes do not split links.
 */
export function parseLinkHeader(header: string): Link[] {
  const links: Link[] = [];
  let i = 0;
  const n = header.length;
  while (i < n) {
    const open = header.indexOf("<", i);
    if (open < 0) break;
    const close = header.indexOf(">", open + 1);
    if (close < 0) break;
    const target = header.slice(open + 1, close).trim();
    const params: Record<string, string> = {};
    i = close + 1;
    while (i < n) {
      while (i < n && /[\s]/.test(header[i] ?? "")) i++;
      if (header[i] === ",") {
        i++;
        break;
      }
      if (header[i] !== ";") {
        // Junk between links: skip to the next separator.
        const comma = header.indexOf(",", i);
        i = comma < 0 ? n : comma + 1;
        break;
      }
      i++;
      while (i < n && /\s/.test(header[i] ?? "")) i++;
      const nameMatch = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+\*?/.exec(header.slice(i));
      if (!nameMatch) continue;
      const name = nameMatch[0].toLowerCase();
      i += nameMatch[0].length;
      while (i < n && /\s/.test(header[i] ?? "")) i++;
      let value = "";
      if (header[i] === "=") {
        i++;
        while (i < n && /\s/.test(header[i] ?? "")) i++;
        if (header[i] === '"') {
          i++;
          while (i < n && header[i] !== '"') {
            if (header[i] === "\\" && i + 1 < n) i++;
            value += header[i];
            i++;
          }
          i++;
        } else {
          const token = /^[^;,\s]*/.exec(header.slice(i))?.[0] ?? "";
          value = token;
          i += token.length;
        }
      }
      if (!Object.hasOwn(params, name)) params[name] = value;
    }
    links.push({ target, params });
  }
  return links;
}

/** The target of the first link whose relation types include `rel`, resolved against `base`. */
export function findLink(header: string | null, rel: string, base: URL): URL | null {
  if (!header) return null;
  for (const link of parseLinkHeader(header)) {
    // rel may hold several space-separated relation types (section 3.3), case-insensitive.
    const types = (link.params.rel ?? "").toLowerCase().split(/\s+/);
    if (!types.includes(rel)) continue;
    try {
      return new URL(link.target, base);
    } catch {
      return null;
    }
  }
  return null;
}
