/**
 * netlify.toml's `for` paths as regular expressions for a web server of one's
 * own (nginx `~*`, Apache `<LocationMatch>`, both PCRE), matched against the
 * path the server serves: with SITE_URL's folder in front, and a folder's
 * `index.html` as well as the folder, because both servers match the file
 * they settled on after looking up the index. The same reading of `*` and
 * `:name` as src/hosts/headers.ts, so the server sends what `headersFor` says.
 */
export function serverPattern(forPath: string, basePath = ""): string {
  const parts = forPath
    .split("/")
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => {
      // One segment, but not the folder's index.html the server looked up for the folder above.
      if (part.startsWith(":")) return "(?!index\\.html$)[^/]+";
      if (part === "*") return "?.*";
      if (part.includes("*")) return part.split("*").map(escapePcre).join(".*");
      return escapePcre(part);
    });
  const body = parts.join("/");
  const end = body === "" ? "(?:index\\.html)?$" : "(?:/|/index\\.html)?$";
  return `^${escapePcre(basePath.replace(/\/+$/, ""))}/${body}${end}`;
}

function escapePcre(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
