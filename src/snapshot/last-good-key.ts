import { scryptSync } from "node:crypto";
import type { ApiConfig } from "../config/api.ts";

/**
 * The cache key of the last good snapshot (EVENT_API_ALLOW_STALE): per API
 * URL, token identity, calendar selection, field map and default zone. A
 * token of another organization on the same URL therefore never finds this
 * organization's snapshot, even while the portal is down and cannot tell.
 */
export function lastGoodKey(config: ApiConfig, defaultTimeZone: string): string {
  return `snapshot ${JSON.stringify([
    config.baseUrl,
    tokenIdentity(config.baseUrl, config.token),
    config.calendars,
    config.fieldMap,
    defaultTimeZone,
  ])}`;
}

/**
 * A token's identity: a salted scrypt hash (RFC 7914), never the token. The
 * salt is the API URL, and scrypt makes each guess cost milliseconds and
 * megabytes, so the cache holds nothing that gives the token back or lets a
 * short one be guessed quickly. Computed once per snapshot load.
 */
function tokenIdentity(baseUrl: string, token: string): string {
  const salt = `event-calendar-publisher last good snapshot\u0000${baseUrl}`;
  return scryptSync(token, salt, 16, { N: 2 ** 14, r: 8, p: 1 }).toString("hex");
}
