import { DateTime, IANAZone } from "luxon";
import { ConfigError } from "../errors.ts";

/**
 * Site settings, read once from the environment. Every variable is documented
 * in docs/configuration.md. Invalid values stop the build with one line naming
 * the variable and what is expected.
 */
export interface SiteConfig {
  /** Absolute origin (and optional path prefix) without trailing slash. */
  readonly url: string;
  readonly title: string;
  readonly description: string;
  /** BCP 47 tag for `<html lang>` and Intl formatting, e.g. "en-GB", "nl". */
  readonly lang: string;
  /** Primary language subtag: picks the UI strings file in src/i18n/locales. */
  readonly uiLanguage: string;
  /** Zone for pages that span calendars (home, categories); events keep their own. */
  readonly timeZone: string;
  /** "Now" for this build: SITE_NOW pins it for reproducible builds and tests. */
  readonly now: DateTime;
  /** How far back the archive pages and the public JSON reach, in days. */
  readonly pastDays: number;
  /** How far back feeds and calendar subscriptions reach, in days. */
  readonly feedPastDays: number;
  /** Most items in one RSS/Atom/JSON feed. */
  readonly feedMaxItems: number;
  /** Cancelled events stay in subscriptions this many days after they end. */
  readonly cancelledGraceDays: number;
  /** Rebuild interval in minutes; drives REFRESH-INTERVAL and cache lifetimes. */
  readonly refreshMinutes: number;
}

export const SUPPORTED_LANGUAGES = ["en", "nl"] as const;

export function readSiteConfig(env: NodeJS.ProcessEnv = process.env): SiteConfig {
  const timeZone = env.SITE_TIMEZONE?.trim() || "Europe/Amsterdam";
  if (!IANAZone.isValidZone(timeZone)) {
    throw new ConfigError(
      `SITE_TIMEZONE: "${timeZone}" is not an IANA time zone (expected e.g. Europe/Amsterdam).`,
    );
  }
  const { lang, uiLanguage } = readLanguage(env.SITE_LANG);
  return {
    url: readSiteUrl(env.SITE_URL),
    title: env.SITE_TITLE?.trim() || "Events",
    description:
      env.SITE_DESCRIPTION?.trim() || "Upcoming events, feeds and calendar subscriptions.",
    lang,
    uiLanguage,
    timeZone,
    now: readNow(env.SITE_NOW),
    pastDays: readPositiveInt(env, "SITE_PAST_DAYS", 365),
    feedPastDays: readPositiveInt(env, "FEED_PAST_DAYS", 30),
    feedMaxItems: readPositiveInt(env, "FEED_MAX_ITEMS", 200),
    cancelledGraceDays: readPositiveInt(env, "CANCELLED_GRACE_DAYS", 30),
    refreshMinutes: readPositiveInt(env, "REBUILD_INTERVAL_MINUTES", 60),
  };
}

function readLanguage(raw: string | undefined): { lang: string; uiLanguage: string } {
  const value = raw?.trim() || "en-GB";
  let lang: string | undefined;
  try {
    [lang] = Intl.getCanonicalLocales(value);
  } catch {
    lang = undefined;
  }
  const uiLanguage = lang?.split("-")[0]?.toLowerCase() ?? "";
  if (!lang || !(SUPPORTED_LANGUAGES as readonly string[]).includes(uiLanguage)) {
    throw new ConfigError(
      `SITE_LANG: "${value}" is not supported (expected a language tag for ${SUPPORTED_LANGUAGES.join(" or ")}, e.g. en-GB, en-US, nl).`,
    );
  }
  return { lang, uiLanguage };
}

function readSiteUrl(raw: string | undefined): string {
  const value = raw?.trim() || "http://localhost:8080";
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(
      `SITE_URL: "${value}" is not a URL (expected e.g. https://events.example.org).`,
    );
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new ConfigError(`SITE_URL: expected an http(s) URL, got "${value}".`);
  }
  if (url.search || url.hash || url.username || url.password) {
    throw new ConfigError("SITE_URL: must not contain credentials, a query string or a fragment.");
  }
  return `${url.origin}${url.pathname}`.replace(/\/+$/, "");
}

function readNow(raw: string | undefined): DateTime {
  if (!raw?.trim()) return DateTime.utc();
  const now = DateTime.fromISO(raw.trim(), { zone: "utc" });
  if (!now.isValid) {
    throw new ConfigError(`SITE_NOW: "${raw}" is not an ISO 8601 date or date-time.`);
  }
  return now;
}

function readPositiveInt(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) {
    throw new ConfigError(`${name}: expected a positive whole number, got "${raw}".`);
  }
  return value;
}

let current: SiteConfig | undefined;

/**
 * The settings of this build, read once: every part of one build must agree on
 * "now" (an unpinned clock would otherwise move between data files).
 */
export function getSiteConfig(): SiteConfig {
  current ??= readSiteConfig();
  return current;
}

/** Forget the settings, for a new build in the same process (watch mode, tests). */
export function resetSiteConfig(): void {
  current = undefined;
}
