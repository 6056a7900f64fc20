import { scrypt } from "node:crypto";
import type { ApiConfig } from "../config/api.ts";

/**
 * The cache key of the last good snapshot (EVENT_API_ALLOW_STALE): per API
 * URL, token identity, calendar selection, field map and default zone. A
 * token of another organization on the same URL therefore never finds this
 * organization's snapshot, even while the portal is down and cannot tell.
 * Worked out on Node's thread pool: the build asks for it before the fetch
 * and needs it after, so its tens of milliseconds of hashing are not the
 * fetch's.
 */
export async function lastGoodKey(config: ApiConfig, defaultTimeZone: string): Promise<string> {
  return `snapshot ${JSON.stringify([
    config.baseUrl,
    await tokenIdentity(config.baseUrl, config.token),
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
async function tokenIdentity(baseUrl: string, token: string): Promise<string> {
  const salt = `event-calendar-publisher last good snapshot\u0000${baseUrl}`;
  return new Promise((resolve, reject) =>
    scrypt(token, salt, 16, { N: 2 ** 14, r: 8, p: 1 }, (error, hash) =>
      error ? reject(error) : resolve(hash.toString("hex")),
    ),
  );
}
