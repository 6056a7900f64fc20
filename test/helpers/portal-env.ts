import { join } from "node:path";
import type { RunningPortal } from "../../src/portal/index.ts";
import { NOW } from "./clock.ts";
import { tempDir } from "./temp-dir.ts";

/** Where a running portal is and the token it issued: all a build needs to reach it. */
export const portalAccess = (portal: RunningPortal): Record<string, string> => ({
  EVENT_API_URL: portal.url,
  EVENT_API_TOKEN: portal.token,
});

/**
 * Settings pointing the snapshot loader (or check-api) at a running portal,
 * with a fresh cache folder (removed when the test file ends), the pinned
 * clock and the site's time zone.
 */
export function apiEnv(portal: RunningPortal, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    ...portalAccess(portal),
    EVENT_API_CACHE_DIR: tempDir("snapshot-cache-"),
    EVENT_API_RETRY_MAX_WAIT: "2s",
    SITE_NOW: NOW,
    SITE_TIMEZONE: "Europe/Amsterdam",
    ...extra,
  };
}

/**
 * The API settings of a build and of the rebuild checks after it, against
 * `portal`: one fetch cache under `dir` for all of them, and quick retries.
 */
export function buildApiEnv(
  portal: RunningPortal,
  dir: string,
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    ...portalAccess(portal),
    EVENT_API_CACHE_DIR: join(dir, ".cache"),
    EVENT_API_RETRIES: "1",
    EVENT_API_RETRY_MAX_WAIT: "100ms",
    ...extra,
  };
}
