import { createHash } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";

/** Strong entity tag: a hash of the exact body bytes (RFC 9110 section 8.8.3). */
export function entityTag(body: Buffer): string {
  return `"${createHash("sha256").update(body).digest("base64url").slice(0, 32)}"`;
}

export const httpDate = (ms: number): string => new Date(ms).toUTCString();

/**
 * Whether a GET/HEAD can be answered 304 (RFC 9110 section 13.2.2):
 * If-None-Match wins over If-Modified-Since; If-None-Match uses the weak
 * comparison, so W/"x" matches "x"; dates compare at one-second resolution.
 */
export function isNotModified(
  headers: IncomingHttpHeaders,
  etag: string,
  lastModifiedMs: number,
): boolean {
  const inm = headers["if-none-match"];
  if (inm !== undefined) {
    if (inm.trim() === "*") return true;
    const opaque = etag.replace(/^W\//, "");
    return inm.split(",").some((tag) => tag.trim().replace(/^W\//, "") === opaque);
  }
  const ims = headers["if-modified-since"];
  if (ims === undefined) return false;
  const since = Date.parse(ims);
  if (Number.isNaN(since)) return false;
  return Math.floor(lastModifiedMs / 1000) * 1000 <= since;
}
