import { formatAuth } from "../api/auth.ts";
import { HttpClient } from "../api/http-client.ts";
import type { ApiConfig, AuthMode } from "../config/api.ts";
import { ApiError, AuthError } from "../errors.ts";

/**
 * Token placements portals commonly use, in the order they are tried after
 * the configured one was rejected: RFC 6750 Bearer, the API-key headers, the
 * `Authorization: Token` scheme (Django REST framework and others), a raw
 * token as the whole Authorization value, then query parameters. Header names
 * are compared without case, so `X-API-Key` is `X-Api-Key`: each is asked once.
 */
export const COMMON_PLACEMENTS: readonly AuthMode[] = [
  { kind: "bearer" },
  { kind: "header", name: "X-Api-Key" },
  { kind: "scheme", name: "Token" },
  { kind: "header", name: "X-Api-Token" },
  { kind: "header", name: "Api-Key" },
  { kind: "header", name: "X-Auth-Token" },
  { kind: "header", name: "X-Access-Token" },
  { kind: "header", name: "Authorization" },
  { kind: "query", name: "api_key" },
  { kind: "query", name: "apikey" },
  { kind: "query", name: "key" },
  { kind: "query", name: "token" },
  { kind: "query", name: "access_token" },
];

/** A placement the portal rejected, with what it answered. */
export interface Rejection {
  /** EVENT_API_AUTH form. */
  readonly placement: string;
  readonly status: number;
  /** The start of the portal's answer, token removed (AuthError.body). */
  readonly body: string | null;
}

export interface AuthProbeResult {
  /** The first placement the portal accepted, or null. */
  readonly found: AuthMode | null;
  /** Every placement tried, in order (EVENT_API_AUTH form). */
  readonly tried: readonly string[];
  /** The 401/403 answers, in order: where the portal looks, it often says something else. */
  readonly rejections: readonly Rejection[];
}

/**
 * After a 401/403, asks the calendar list once per other placement with the
 * same token, the one the portal's WWW-Authenticate challenge names first.
 * Only the configured EVENT_API_URL is asked, without retries; the token
 * never appears in what is returned.
 */
export async function probeAuth(
  config: ApiConfig,
  challenge: string | null,
): Promise<AuthProbeResult> {
  const rejected = formatAuth(config.auth);
  const candidates = new Map<string, AuthMode>();
  const hinted = placementFromChallenge(challenge);
  for (const mode of [...(hinted ? [hinted] : []), ...COMMON_PLACEMENTS]) {
    const key = formatAuth(mode).toLowerCase();
    if (key !== rejected.toLowerCase() && !candidates.has(key)) candidates.set(key, mode);
  }
  const tried: string[] = [];
  const rejections: Rejection[] = [];
  const url = new URL(`${config.baseUrl}/event-calendars`);
  for (const mode of candidates.values()) {
    const placement = formatAuth(mode);
    tried.push(placement);
    const http = new HttpClient({ ...config, auth: mode, retries: 0, concurrency: 1 });
    try {
      await http.getJson(url);
      return { found: mode, tried, rejections };
    } catch (error) {
      // Any HTTP answer means "not here"; no answer at all (network) ends the probing.
      if (!(error instanceof ApiError) || error.status === undefined) throw error;
      if (error instanceof AuthError)
        rejections.push({ placement, status: error.status, body: error.body });
    } finally {
      await http.close();
    }
  }
  return { found: null, tried, rejections };
}

/**
 * The placement a WWW-Authenticate challenge (RFC 9110 section 11.6.1)
 * names: `Bearer ...`, `Token ...`, or an API-key challenge with a
 * `header="..."` or `query="..."` parameter.
 */
export function placementFromChallenge(challenge: string | null): AuthMode | null {
  if (!challenge) return null;
  const scheme = /^\s*([A-Za-z0-9!#$%&'*+.^_`|~-]+)/.exec(challenge)?.[1];
  const param = (name: string): string | undefined =>
    new RegExp(`(?:^|[\\s,])${name}\\s*=\\s*"?([A-Za-z0-9._~!#$%&'*+^\`|-]+)"?`, "i").exec(
      challenge,
    )?.[1];
  const header = param("header");
  if (header) return { kind: "header", name: titleCase(header) };
  const query = param("query");
  if (query) return { kind: "query", name: query };
  if (!scheme) return null;
  if (scheme.toLowerCase() === "bearer") return { kind: "bearer" };
  return scheme.toLowerCase() === "token" ? { kind: "scheme", name: "Token" } : null;
}

/** "x-api-key" -> "X-Api-Key": header names are case-insensitive; this reads better. */
function titleCase(name: string): string {
  return name.replace(
    /(^|-)([a-z])/g,
    (_, dash: string, letter: string) => dash + letter.toUpperCase(),
  );
}
