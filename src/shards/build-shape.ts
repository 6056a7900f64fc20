import { createHash } from "node:crypto";
import { codeFingerprint } from "../code-fingerprint.ts";
import type { BuildConfig } from "../config/build-config.ts";
import type { SiteConfig } from "../config/site.ts";

/**
 * What shapes a build's output besides its data: every setting of the one
 * build value (src/config/build-config.ts) that changes a byte of what is
 * published, the code that renders it (src/code-fingerprint.ts), and the
 * published site it compares with (`--target`). Shards that differ in any
 * of these would merge into a site of two builds: another SITE_LANG, half
 * the pages in another language; another DEPLOY_TARGET, half the pages
 * without their policy meta and no `.nojekyll`. `npm run merge-shards`
 * refuses them, naming the setting with both values, so each setting is kept
 * by the name a site owner sets it with, its value as text.
 *
 * Left out: the portal's address, token and fetching options (what they
 * fetch is the data, which shards compare on its own: src/shards/shard-data.ts),
 * where the cache is, and the shrink guard's limits (the merge applies its
 * own). Nothing secret is among what is kept.
 */

/** A setting by its variable's name, and its value as text. */
export type Setting = readonly [name: string, value: string];

export interface BuildShape {
  /** A digest of the settings, the code and the target: shards built alike have the same. */
  readonly digest: string;
  /** The code's fingerprint (src/code-fingerprint.ts). */
  readonly code: string;
  /** Every setting that shapes the output, `--target` last. */
  readonly settings: readonly Setting[];
}

type Settings<T> = { readonly [K in keyof T]-?: (value: T[K]) => readonly Setting[] };

const text = (value: string | number | boolean | null) => (value === null ? "none" : String(value));
const one =
  (name: string) =>
  (value: string | number | boolean | null): readonly Setting[] => [[name, text(value)]];
const derived = (): readonly Setting[] => [];
const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/**
 * Every field of SiteConfig, each either a setting or derived from one: a
 * field added to SiteConfig fails to compile until it is placed here, so no
 * setting that shapes the pages can be missed by the merge's check.
 */
const SITE: Settings<SiteConfig> = {
  url: one("SITE_URL"),
  urls: derived, // from SITE_URL
  // Before the title and description, whose defaults are the language's.
  lang: one("SITE_LANG"),
  title: one("SITE_TITLE"),
  description: one("SITE_DESCRIPTION"),
  uiLanguage: derived, // from SITE_LANG
  // Each language's titles and addresses follow from its tag, SITE_TITLE and SITE_URL.
  languages: (languages) => [["SITE_LANGUAGES", languages.map((l) => l.lang).join(",")]],
  contentLang: one("EVENT_CONTENT_LANG"),
  timeZone: one("SITE_TIMEZONE"),
  now: (now) => [["SITE_NOW", now.toUTC().toISO() ?? ""]],
  pastDays: one("SITE_PAST_DAYS"),
  feedPastDays: one("FEED_PAST_DAYS"),
  feedMaxItems: one("FEED_MAX_ITEMS"),
  cancelledGraceDays: one("CANCELLED_GRACE_DAYS"),
  // REBUILD_INTERVAL_MINUTES, or netlify.toml's schedule.
  refreshMinutes: one("REBUILD_INTERVAL_MINUTES"),
  websubHub: one("WEBSUB_HUB"),
  changeNoticeDays: one("CHANGE_NOTICE_DAYS"),
  icsMaxBytes: one("ICS_MAX_BYTES"),
  eventIcs: one("EVENT_ICS"),
  collapseSeries: one("COLLAPSE_SERIES"),
  map: (map) => [
    ["MAP_TILES_URL", map?.tilesUrl ?? "none"],
    ["MAP_ATTRIBUTION", map?.attribution ?? ""],
  ],
  eventEmbeds: (on) => [["EVENT_EMBEDS", on ? "on" : "off"]],
  // The weeks the digest feeds publish (src/digest/digest-week.ts).
  digestDay: one("DIGEST_DAY"),
  // The account's name and key, which the actor publishes; the key by its digest, shorter to read.
  fediverse: (fediverse) => [
    ["AP_USERNAME", fediverse?.username ?? "none"],
    ["AP_PUBLIC_KEY", fediverse ? `sha256 ${sha256(fediverse.publicKeyPem).slice(0, 16)}` : "none"],
  ],
  // The key names the file the build publishes; where pages are sent is the deploy's concern.
  indexNow: (indexNow) => [["INDEXNOW_KEY", indexNow?.key ?? "none"]],
  accessibility: (a) => [
    ["ACCESSIBILITY_CONFORMANCE", a.conformance],
    ["ACCESSIBILITY_STATEMENT_DATE", text(a.statementDate)],
    ["ACCESSIBILITY_CONTACT", a.contact?.text ?? "none"],
    ["ACCESSIBILITY_ENFORCEMENT_URL", text(a.enforcementUrl)],
  ],
};

const BUILD: Settings<BuildConfig> = {
  site: (site) =>
    (Object.keys(SITE) as (keyof SiteConfig)[]).flatMap((key) =>
      (SITE[key] as (value: unknown) => readonly Setting[])(site[key]),
    ),
  // Where the events come from and how they are fetched: the data, compared on its own.
  portal: derived,
  // The next date-relative change in the build state; the shrink guard is the merge's own.
  publish: (publish) => [["REBUILD_DATE_DELAY", `${publish.dateDelayMs} ms`]],
  deploy: (deploy) => [["DEPLOY_TARGET", deploy.target]],
  cacheDir: derived,
  cards: (cards) => [
    ["SHARE_CARDS", cards.mode],
    ["SHARE_CARDS_DAYS", String(cards.days)],
  ],
  // Where images may come from: what they are is the data's, compared on its own.
  images: derived,
};

/** The shape of a build with `config`, comparing with the published site in `target`. */
export function buildShape(config: BuildConfig, target: string): BuildShape {
  const settings: Setting[] = [
    ...(Object.keys(BUILD) as (keyof BuildConfig)[]).flatMap((key) =>
      (BUILD[key] as (value: unknown) => readonly Setting[])(config[key]),
    ),
    ["--target", target],
  ];
  const code = codeFingerprint();
  const digest = createHash("sha256")
    .update(JSON.stringify([code, settings]))
    .digest("base64url")
    .slice(0, 22);
  return { digest, code, settings };
}
