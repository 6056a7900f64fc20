import { ConfigError } from "../errors.ts";
import { parseDuration } from "./api.ts";
import { envSettings } from "./env-settings.ts";

/**
 * How a build is published: the shrink guard's limits (src/publish/shrink-guard.ts),
 * where the published site's public JSON is read from, and how long
 * date-relative rebuilds may wait (src/rebuild). Every variable is in
 * docs/configuration.md.
 */

export interface ShrinkGuardConfig {
  /** Largest share of events that may disappear in one build (0 < share <= 1). */
  readonly maxDropShare: number;
  /** Drops smaller than this many events never block (natural churn of small sites). */
  readonly minDropEvents: number;
  /** Set for one build to publish a shrink on purpose. */
  readonly allow: boolean;
}

export interface PublishConfig {
  readonly shrinkGuard: ShrinkGuardConfig;
  /**
   * Where the published site is read from (its manifest, public JSON and build
   * state under /api/): SITE_URL, or the site of PREVIOUS_MANIFEST_URL
   * (".../api/manifest.json"). Null: compare with the local output and the
   * cache only (PREVIOUS_MANIFEST_URL=none, or a SITE_URL on this machine,
   * which is the unconfigured default or a dev server, never the published site).
   */
  readonly publishedSite: string | null;
  /** REBUILD_DATE_DELAY: how long date-relative changes other than a new day may wait. */
  readonly dateDelayMs: number;
  /**
   * PAGE_RECORD: whether a build keeps a record of what each page's inputs
   * read, so that the next asks only the pages an edit can have changed
   * (src/eleventy/page-record.ts): on (the default: docs/performance.md,
   * "The page record", has what it saves and costs), off, or verify (every
   * page asked, and the build fails where the record was wrong).
   */
  readonly pageRecord: PageRecordMode;
}

export type PageRecordMode = "on" | "off" | "verify";

export const DEFAULT_MAX_DROP_SHARE = 0.5;
export const DEFAULT_MIN_DROP_EVENTS = 10;
export const DEFAULT_DATE_DELAY_MS = 3_600_000;

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** What readShrinkGuardConfig reads. */
export const SHRINK_GUARD_SETTINGS = envSettings("Build and deploy", [
  "ALLOW_SHRINK",
  "INCOMING_HOOK_BODY",
  "SHRINK_GUARD_MAX_DROP",
  "SHRINK_GUARD_MIN_EVENTS",
]);

/** What readPublishConfig reads. */
export const PUBLISH_SETTINGS = [
  ...SHRINK_GUARD_SETTINGS,
  ...envSettings("Build and deploy", [
    "PAGE_RECORD",
    "PREVIOUS_MANIFEST_URL",
    "REBUILD_DATE_DELAY",
  ]),
];

export function readPublishConfig(env: NodeJS.ProcessEnv, siteUrl: string): PublishConfig {
  return {
    shrinkGuard: readShrinkGuardConfig(env),
    publishedSite: readPublishedSite(env.PREVIOUS_MANIFEST_URL, siteUrl),
    dateDelayMs: readDateDelay(env),
    pageRecord: readPageRecord(env.PAGE_RECORD),
  };
}

function readPageRecord(raw: string | undefined): PageRecordMode {
  const value = raw?.trim().toLowerCase() || "on";
  if (value === "on" || value === "off" || value === "verify") return value;
  throw new ConfigError(`PAGE_RECORD: expected on, off or verify, got "${raw}".`);
}

/**
 * ALLOW_SHRINK=1 (or true/yes) allows one build to shrink the site. On
 * Netlify a build started through a build hook with the body "ALLOW_SHRINK=1"
 * is allowed too (Netlify passes the body as INCOMING_HOOK_BODY), so a one-off
 * allowance needs no change to the site's settings.
 */
export function readShrinkGuardConfig(env: NodeJS.ProcessEnv): ShrinkGuardConfig {
  const allowRaw = env.ALLOW_SHRINK?.trim().toLowerCase() ?? "";
  if (allowRaw && !["1", "true", "yes", "0", "false", "no"].includes(allowRaw)) {
    throw new ConfigError(`ALLOW_SHRINK: expected 1 or 0, got "${env.ALLOW_SHRINK}".`);
  }
  const hookBody = env.INCOMING_HOOK_BODY?.trim() ?? "";
  const allow =
    ["1", "true", "yes"].includes(allowRaw) || /^ALLOW_SHRINK=(1|true|yes)$/i.test(hookBody);

  const shareRaw = env.SHRINK_GUARD_MAX_DROP?.trim();
  const maxDropShare = shareRaw ? Number(shareRaw) : DEFAULT_MAX_DROP_SHARE;
  if (!Number.isFinite(maxDropShare) || maxDropShare <= 0 || maxDropShare > 1) {
    throw new ConfigError(
      `SHRINK_GUARD_MAX_DROP: expected a share between 0 and 1 (e.g. 0.8), got "${shareRaw}".`,
    );
  }
  const minRaw = env.SHRINK_GUARD_MIN_EVENTS?.trim();
  const minDropEvents = minRaw ? Number(minRaw) : DEFAULT_MIN_DROP_EVENTS;
  if (!Number.isInteger(minDropEvents) || minDropEvents < 1) {
    throw new ConfigError(
      `SHRINK_GUARD_MIN_EVENTS: expected a positive whole number, got "${minRaw}".`,
    );
  }
  return { maxDropShare, minDropEvents, allow };
}

const MANIFEST = "/api/manifest.json";

function readPublishedSite(raw: string | undefined, siteUrl: string): string | null {
  const value = raw?.trim();
  if (value?.toLowerCase() === "none") return null;
  if (value) {
    let url: URL | null = null;
    try {
      url = new URL(value);
    } catch {}
    if (
      !url ||
      (url.protocol !== "https:" && url.protocol !== "http:") ||
      url.search ||
      !url.pathname.endsWith(MANIFEST)
    ) {
      throw new ConfigError(
        `PREVIOUS_MANIFEST_URL: "${value}" is not the http(s) URL of a published manifest (expected e.g. https://events.example.org/api/manifest.json, or none).`,
      );
    }
    return `${url.origin}${url.pathname.slice(0, -MANIFEST.length)}`;
  }
  return LOOPBACK.has(new URL(siteUrl).hostname) ? null : siteUrl;
}

/** REBUILD_DATE_DELAY: how long date-relative changes other than a new day may wait (default 1h). */
function readDateDelay(env: NodeJS.ProcessEnv): number {
  const raw = env.REBUILD_DATE_DELAY?.trim();
  if (!raw) return DEFAULT_DATE_DELAY_MS;
  const value = raw === "0" ? 0 : parseDuration(raw);
  if (value === null || value < 0) {
    throw new ConfigError(
      `REBUILD_DATE_DELAY: "${raw}" is not a duration (expected e.g. 0, 15m or 1h).`,
    );
  }
  return value;
}
