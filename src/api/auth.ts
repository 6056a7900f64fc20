import type { AuthMode } from "../config/api.ts";

/** What replaces the token wherever text might show it. */
export const REDACTED = "[redacted]";

/** Adds the token to a request the way EVENT_API_AUTH says. */
export function authorize(
  url: URL,
  headers: Record<string, string>,
  auth: AuthMode,
  token: string,
): void {
  if (auth.kind === "bearer") headers.authorization = `Bearer ${token}`;
  else if (auth.kind === "scheme") headers.authorization = `${auth.name} ${token}`;
  else if (auth.kind === "header") headers[auth.name.toLowerCase()] = token;
  else url.searchParams.set(auth.name, token);
}

/**
 * The URL without the token parameter (query mode), for cache keys, messages
 * and logs. Portals often echo the request's query into next-page links, so
 * this also cleans URLs the portal gave us.
 */
export function withoutToken(url: URL, auth: AuthMode): URL {
  const clean = new URL(url);
  if (auth.kind === "query") clean.searchParams.delete(auth.name);
  return clean;
}

/** EVENT_API_AUTH's text for a mode: "bearer", "scheme:Token", "header:X-Api-Key", "query:api_key". */
export function formatAuth(auth: AuthMode): string {
  return auth.kind === "bearer" ? "bearer" : `${auth.kind}:${auth.name}`;
}

/**
 * Removes the token from any text (error messages, causes, cache contents),
 * in raw, URL-encoded and JSON-escaped forms. Tokens shorter than 4
 * characters are not searched for: they would redact ordinary words.
 */
export function createRedactor(token: string): (text: string) => string {
  const forms = [
    ...new Set([
      token,
      encodeURIComponent(token),
      new URLSearchParams({ t: token }).toString().slice(2),
      JSON.stringify(token).slice(1, -1),
    ]),
  ].filter((form) => form.length >= 4);
  return (text) => {
    let result = text;
    // Checked first: cache entries run to hundreds of megabytes, and usually hold no token.
    for (const form of forms) if (result.includes(form)) result = result.replaceAll(form, REDACTED);
    return result;
  };
}
