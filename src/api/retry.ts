/** Statuses worth another attempt (RFC 9110 sections 15.5.9, 15.6; RFC 6585 section 4). */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || (status >= 500 && status <= 599);
}

/** undici and Node error codes for failures that may pass on a second try. */
const TRANSIENT_CODES = new Set([
  "ECONNRESET",
  "ECONNREFUSED",
  "ECONNABORTED",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENETDOWN",
  "EAI_AGAIN",
  "UND_ERR_SOCKET",
  "UND_ERR_CLOSED",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
]);

export function isTransientNetworkError(code: string | undefined): boolean {
  return code !== undefined && TRANSIENT_CODES.has(code);
}

/**
 * Exponential backoff with full jitter: a random wait between 0 and
 * base * 2^attempt, capped, so that many clients retrying do not line up.
 */
export function backoffMs(
  attempt: number,
  capMs: number,
  random: () => number = Math.random,
): number {
  const ceiling = Math.min(capMs, 250 * 2 ** attempt);
  return Math.round(random() * ceiling);
}

/**
 * Retry-After (RFC 9110 section 10.2.3) is delay-seconds or an HTTP-date.
 * Returns milliseconds to wait, or null when absent or unreadable.
 */
export function parseRetryAfter(
  value: string | undefined,
  now: number = Date.now(),
): number | null {
  if (!value) return null;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  if (Number.isNaN(date)) return null;
  return Math.max(0, date - now);
}
