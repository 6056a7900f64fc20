import { ApiError } from "../errors.ts";

/**
 * The portal could not be reached or kept failing (network error, timeout,
 * 408/429/5xx or broken JSON after every retry). Only this kind of failure
 * lets EVENT_API_ALLOW_STALE fall back to cached data: a rejected token or a
 * missing calendar must not be papered over.
 */
export class ApiUnavailableError extends ApiError {
  override name = "ApiUnavailableError";
}

/** A 404 from the portal; callers turn it into a message about what was missing. */
export class ApiNotFoundError extends ApiError {
  override name = "ApiNotFoundError";
}

/** Human text for a duration in milliseconds: "250 ms", "30 s", "2 min". */
export function formatMs(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 120_000) return `${Math.round(ms / 100) / 10} s`;
  return `${Math.round(ms / 6000) / 10} min`;
}
