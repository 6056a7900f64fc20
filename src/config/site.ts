import { DateTime, IANAZone } from "luxon";
import { ConfigError } from "../errors.ts";
import { SUPPORTED_LANGUAGES } from "../i18n/languages.ts";
import { SiteUrls } from "../model/url-scheme.ts";
import {
  ACCESSIBILITY_SETTINGS,
  type AccessibilitySettings,
  readAccessibilitySettings,
} from "./accessibility.ts";
import { DIGEST_DAY_SETTINGS, readDigestDay } from "./digest.ts";
import { envSettings } from "./env-settings.ts";
import { FEDIVERSE_SETTINGS, type FediverseConfig, readFediverseConfig } from "./fediverse.ts";
import { INDEXNOW_SETTINGS, type IndexNowConfig, readIndexNowConfig } from "./indexnow.ts";
import { MAP_SETTINGS, type MapSettings, readMapSettings } from "./map.ts";
import { readChoice, readPositiveInt } from "./read-setting.ts";
import { readServiceUrl } from "./service-url.ts";
import { readSiteLanguages, SITE_LANGUAGES_SETTINGS, type SiteLanguage } from "./site-languages.ts";

/**
 * Site settings, read once from the environment. Every variable is documented
 * in docs/configuration.md. Invalid values stop the build with one line naming
 * the variable and what is expected.
 */
export interface SiteConfig {
  /** Absolute origin (and optional path prefix) without trailing slash. */
  readonly url: string;
  /** The URL scheme at SITE_URL: links and absolute URLs of site paths (src/model/url-scheme.ts). */
  readonly urls: SiteUrls;
  readonly title: string;
  readonly description: string;
  /**
   * BCP 47 tag for `<html lang>`, the feeds' and calendars' language, the
   * messages (src/i18n: its language's file, its plural rules) and Intl's
   * dates, numbers and first day of the week, e.g. "en-GB", "de-AT", "pt-BR".
   */
  readonly lang: string;
  /** Primary language subtag ("de"): the search index's language (Pagefind's stemming). */
  readonly uiLanguage: string;
  /**
   * SITE_LANGUAGES: every language the site is published in, the first at
   * its root and the others in folders of their own (src/config/site-languages.ts);
   * the one of SITE_LANG when unset. The same list in each language's settings.
   */
  readonly languages: readonly SiteLanguage[];
  /**
   * EVENT_CONTENT_LANG: the language the portal writes in. Where a page's
   * language differs, the portal's texts on it carry their own `lang`.
   */
  readonly contentLang: string;
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
  /** WEBSUB_HUB: the hub feeds advertise (rel="hub") and the deploy pings; null: none. */
  readonly websubHub: string | null;
  /**
   * Days a change (new date, cancellation, postponement, reinstatement) stays
   * announced: its feed item, and the "New date" badge.
   */
  readonly changeNoticeDays: number;
  /** Largest size of one .ics subscription in bytes (null: no limit); trimmed to fit. */
  readonly icsMaxBytes: number | null;
  /**
   * EVENT_ICS: how an event page offers its "Add to calendar" download. "file":
   * an event.ics beside each page; "inline": the same bytes in the page's link
   * (a data: URL), one file fewer per event for hosts that limit file counts.
   */
  readonly eventIcs: EventIcsMode;
  /**
   * COLLAPSE_SERIES: lists of upcoming events show each series once, at its
   * next date, with "and N more dates" (src/series).
   */
  readonly collapseSeries: boolean;
  /** MAP_TILES_URL, MAP_ATTRIBUTION: the tile server place pages may show a map from; null: none. */
  readonly map: MapSettings | null;
  /**
   * EVENT_EMBEDS: whether each event gets a card to embed (/embed/{calendar}/events/{event}/)
   * and its oEmbed answer, two files per event (docs/widget.md, "An event").
   */
  readonly eventEmbeds: boolean;
  /**
   * DIGEST_DAY: the ISO weekday the weekly digest comes out (src/digest);
   * null: the day before the week starts in the site's language.
   */
  readonly digestDay: number | null;
  /**
   * AP_USERNAME and the public key: the site's fediverse account, whose
   * ActivityPub files the build publishes (src/fediverse); null without a key.
   */
  readonly fediverse: FediverseConfig | null;
  /**
   * INDEXNOW_KEY and INDEXNOW_ENDPOINT: the key file the build publishes and
   * where a deploy's changed pages are sent (src/rebuild/indexnow-ping.ts); null: neither.
   */
  readonly indexNow: IndexNowConfig | null;
  /** ACCESSIBILITY_*: what the accessibility statement (/accessibility/) says (src/config/accessibility.ts). */
  readonly accessibility: AccessibilitySettings;
}

export const EVENT_ICS_MODES = ["file", "inline"] as const;
export type EventIcsMode = (typeof EVENT_ICS_MODES)[number];

/**
 * REFRESH-INTERVAL, RSS <ttl> and oEmbed cache_age follow how often the site
 * can change, but not below 15 minutes: with change-driven builds checked
 * every minute, a change is published a minute plus one build later, and
 * calendar apps or feed readers polling that often would mostly fetch
 * unchanged files (many enforce a longer minimum of their own; docs/deploy.md,
 * "The schedule, in one place").
 */
const MIN_REFRESH_MINUTES = 15;

export { SUPPORTED_LANGUAGES };

export interface SiteConfigOptions {
  /**
   * How often the site is rebuilt, when the caller knows it from the schedule
   * (src/config/schedule.ts); REBUILD_INTERVAL_MINUTES otherwise, else an hour.
   */
  readonly rebuildIntervalMinutes?: number;
}

/** What readSiteConfig reads. */
export const SITE_SETTINGS = [
  ...envSettings("Site", ["SITE_URL"]),
  ...SITE_LANGUAGES_SETTINGS,
  ...envSettings("Site", [
    "SITE_TIMEZONE",
    "SITE_NOW",
    "SITE_PAST_DAYS",
    "FEED_PAST_DAYS",
    "FEED_MAX_ITEMS",
    "CANCELLED_GRACE_DAYS",
    "CHANGE_NOTICE_DAYS",
    "ICS_MAX_BYTES",
    "EVENT_ICS",
    "EVENT_EMBEDS",
    "COLLAPSE_SERIES",
  ]),
  ...MAP_SETTINGS,
  ...DIGEST_DAY_SETTINGS,
  ...FEDIVERSE_SETTINGS,
  ...ACCESSIBILITY_SETTINGS,
  // REBUILD_INTERVAL_MINUTES is read here only when the caller did not read the schedule.
  ...envSettings("Build and deploy", ["WEBSUB_HUB", "REBUILD_INTERVAL_MINUTES"]),
  ...INDEXNOW_SETTINGS,
];

export function readSiteConfig(
  env: NodeJS.ProcessEnv,
  options: SiteConfigOptions = {},
): SiteConfig {
  const timeZone = env.SITE_TIMEZONE?.trim() || "Europe/Amsterdam";
  if (!IANAZone.isValidZone(timeZone)) {
    throw new ConfigError(
      `SITE_TIMEZONE: "${timeZone}" is not an IANA time zone (expected e.g. Europe/Amsterdam).`,
    );
  }
  const url = readSiteUrl(env.SITE_URL);
  const { languages, contentLang } = readSiteLanguages(env, url);
  // The root's language: SITE_LANG's, and SITE_LANGUAGES' first.
  const root = languages[0] as SiteLanguage;
  return {
    url,
    urls: new SiteUrls(url),
    title: root.title,
    description: root.description,
    lang: root.lang,
    uiLanguage: root.uiLanguage,
    languages,
    contentLang,
    timeZone,
    now: readNow(env.SITE_NOW),
    pastDays: readPositiveInt(env, "SITE_PAST_DAYS", 365),
    feedPastDays: readPositiveInt(env, "FEED_PAST_DAYS", 30),
    feedMaxItems: readPositiveInt(env, "FEED_MAX_ITEMS", 200),
    cancelledGraceDays: readPositiveInt(env, "CANCELLED_GRACE_DAYS", 30),
    refreshMinutes: Math.max(
      MIN_REFRESH_MINUTES,
      options.rebuildIntervalMinutes ?? readPositiveInt(env, "REBUILD_INTERVAL_MINUTES", 60),
    ),
    websubHub: readHubUrl(env.WEBSUB_HUB),
    changeNoticeDays: readPositiveInt(env, "CHANGE_NOTICE_DAYS", 14),
    icsMaxBytes: readByteSize(env, "ICS_MAX_BYTES", DEFAULT_ICS_MAX_BYTES),
    eventIcs: readChoice("EVENT_ICS", env.EVENT_ICS, EVENT_ICS_MODES, "file"),
    collapseSeries: readBooleanSetting(env, "COLLAPSE_SERIES", false),
    map: readMapSettings(env),
    eventEmbeds: readOnOff(env, "EVENT_EMBEDS", true),
    digestDay: readDigestDay(env),
    fediverse: readFediverseConfig(env),
    indexNow: readIndexNowConfig(env),
    accessibility: readAccessibilitySettings(env),
  };
}

const TRUE_WORDS = new Set(["true", "1", "yes"]);
const FALSE_WORDS = new Set(["false", "0", "no"]);

function readBooleanSetting(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (!raw) return fallback;
  if (TRUE_WORDS.has(raw)) return true;
  if (FALSE_WORDS.has(raw)) return false;
  throw new ConfigError(`${name}: expected true or false, got "${env[name]?.trim()}".`);
}

function readOnOff(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const value = raw.toLowerCase();
  if (value === "on") return true;
  if (value === "off") return false;
  throw new ConfigError(`${name}: expected on or off, got "${raw}".`);
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

function readHubUrl(raw: string | undefined): string | null {
  const value = raw?.trim();
  // Feed readers subscribe at the hub over the public internet (WebSub section 5.1).
  return value ? readServiceUrl("WEBSUB_HUB", value, "https://pubsubhubbub.appspot.com/") : null;
}

function readNow(raw: string | undefined): DateTime {
  if (!raw?.trim()) return DateTime.utc();
  const now = DateTime.fromISO(raw.trim(), { zone: "utc" });
  if (!now.isValid) {
    throw new ConfigError(`SITE_NOW: "${raw}" is not an ISO 8601 date or date-time.`);
  }
  return now;
}

/**
 * Google Calendar drops events from subscriptions larger than about 1 MB
 * (docs/feeds.md, "Size budget"); decimal, to stay under either reading of it.
 */
export const DEFAULT_ICS_MAX_BYTES = 1_000_000;

const BYTE_UNITS: Readonly<Record<string, number>> = { "": 1, b: 1, kb: 1000, mb: 1_000_000 };

/** Bytes as a whole number, or with KB/MB (decimal units); "none" switches the limit off. */
function readByteSize(env: NodeJS.ProcessEnv, name: string, fallback: number): number | null {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  if (raw.toLowerCase() === "none") return null;
  const match = /^(\d+(?:\.\d+)?)\s*([a-z]*)$/i.exec(raw);
  const unit = BYTE_UNITS[match?.[2]?.toLowerCase() ?? "?"];
  const value = match && unit ? Math.floor(Number(match[1]) * unit) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < 1000) {
    throw new ConfigError(
      `${name}: expected a size of at least 1000 bytes such as 1000000, 800KB or 1MB, or none; got "${raw}".`,
    );
  }
  return value;
}

/**
 * The settings of one of the site's languages (SITE_LANGUAGES,
 * src/config/site-languages.ts): the root's, at the language's address, in
 * its language, with its title and description. What the site has once stays
 * the root's: its fediverse account and IndexNow's key file (docs/translating.md,
 * "One site in several languages").
 */
export function siteInLanguage(site: SiteConfig, language: SiteLanguage): SiteConfig {
  if (language.url === site.url && language.lang === site.lang) return site;
  const root = language.folder === "";
  return {
    ...site,
    url: language.url,
    urls: new SiteUrls(language.url, site.url),
    lang: language.lang,
    uiLanguage: language.uiLanguage,
    title: language.title,
    description: language.description,
    fediverse: root ? site.fediverse : null,
    indexNow: root ? site.indexNow : null,
  };
}
