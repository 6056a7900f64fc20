import { ConfigError } from "../errors.ts";

/**
 * netlify.toml's `for` paths as regular expressions for a web server of one's
 * own (nginx `~*`, Apache `<LocationMatch>`, both PCRE), matched against the
 * path the server serves: with SITE_URL's folder in front, and a folder's
 * `index.html` as well as the folder, because both servers match the file
 * they settled on after looking up the index. The same reading of `*` and
 * `:name` as src/hosts/headers.ts, so the server sends what `headersFor` says.
 *
 * `folder` is the folder as the server sees it (serverFolder): decoded, as
 * both servers decode a request's path before they match it.
 */
export function serverPattern(forPath: string, folder = ""): string {
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
  return `^${escapePcre(folder.replace(/\/+$/, ""))}/${body}${end}`;
}

export type WebServerName = "nginx" | "Apache";

/**
 * SITE_URL's folder as a web server matches it: the site's own links carry
 * it percent-encoded ("/my%20events"), and nginx (`$uri`) and Apache
 * (`<Location>`, `<LocationMatch>`) match the decoded path ("/my events"),
 * so patterns made from the encoded form match no request at all. What no
 * server can carry as a folder name is refused, naming SITE_URL:
 *
 * - an encoded slash (`%2F`): Apache answers 404 to any path with one
 *   (AllowEncodedSlashes is off by default), nginx reads it as a folder
 *   boundary;
 * - an empty segment (`//`): both servers merge slashes before matching
 *   (nginx `merge_slashes`, Apache `MergeSlashes`), so the folder would
 *   never match as written;
 * - control characters, and percent-escapes that are not UTF-8: neither a
 *   file name one copies with rsync nor a line of configuration;
 * - for nginx, `?`: `error_page` reads what follows it as a query string,
 *   so missing pages would be sent to another path.
 */
export function serverFolder(basePath: string, server: WebServerName): string {
  const refuse = (why: string) =>
    new ConfigError(
      `SITE_URL: the folder "${basePath}" cannot be served by ${server}: ${why}; choose another folder name.`,
    );
  if (/%2f/i.test(basePath)) throw refuse("it holds an encoded slash (%2F)");
  if (/\/\//.test(basePath)) throw refuse("it holds an empty segment (//)");
  let folder: string;
  try {
    folder = decodeURIComponent(basePath);
  } catch {
    throw refuse("a percent-escape in it is not UTF-8 text");
  }
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  if (/[\u0000-\u001f\u007f]/.test(folder)) throw refuse("it holds a control character");
  if (server === "nginx" && folder.includes("?")) {
    throw refuse('its error_page reads "?" as the start of a query string');
  }
  return folder.replace(/\/+$/, "");
}

/** A path for a server to send as a URL (Apache's ErrorDocument): every byte but letters, digits, "-._~/" escaped. */
export function encodedPath(folder: string): string {
  return folder
    .split("/")
    .map((segment) =>
      encodeURIComponent(segment).replace(
        /[!'()*]/g,
        (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
      ),
    )
    .join("/");
}

function escapePcre(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
