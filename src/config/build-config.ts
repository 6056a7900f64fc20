import { ConfigError } from "../errors.ts";
import {
  API_OPTIONS_SETTINGS,
  API_SETTINGS,
  type ApiConfig,
  type ApiOptions,
  readApiConfig,
  readApiOptions,
} from "./api.ts";
import { CARDS_SETTINGS, type CardsConfig, readCardsConfig } from "./cards.ts";
import { DEPLOY_SETTINGS, type DeployConfig, readDeployConfig } from "./deploy.ts";
import { IMAGES_SETTINGS, type ImagesConfig, readImagesConfig } from "./images.ts";
import { PUBLISH_SETTINGS, type PublishConfig, readPublishConfig } from "./publish.ts";
import { resolveRebuildInterval, SCHEDULE_SETTINGS } from "./schedule.ts";
import { readSiteConfig, SITE_SETTINGS, type SiteConfig } from "./site.ts";
import { readSources, SOURCES_SETTINGS, type SourcesConfig } from "./sources.ts";

/**
 * The settings of one build, read and validated once from the environment
 * (and `.env`, src/config/env-file.ts) into one value that the build passes
 * to every stage: the snapshot, the changes, the Eleventy plugins and data
 * files, the writers. Nothing below reads the environment again, so every
 * part of a build agrees on every setting, "now" included.
 */
export interface BuildConfig {
  readonly site: SiteConfig;
  readonly portal: PortalSource;
  readonly publish: PublishConfig;
  /** DEPLOY_TARGET: the host's limits and the files it reads beside the site. */
  readonly deploy: DeployConfig;
  /** EVENT_API_CACHE_DIR: the fetch cache, and what a build keeps for the next one. */
  readonly cacheDir: string;
  /** SHARE_CARDS: the pictures links share as (src/cards). */
  readonly cards: CardsConfig;
  /** EVENT_IMAGE_ALLOW_HOSTS: where event images may come from (src/media). */
  readonly images: ImagesConfig;
}

/** Where the events come from. */
export type PortalSource =
  | { readonly kind: "portal"; readonly api: ApiConfig }
  /**
   * No EVENT_API_URL (or EVENT_API_URL=demo): the bundled reference portal
   * with its demo data, started for the build (src/cli/demo-portal.ts).
   */
  | { readonly kind: "demo"; readonly options: ApiOptions }
  /** EVENT_SOURCES_FILE: several portals and iCalendar feeds (docs/sources.md). */
  | {
      readonly kind: "sources";
      readonly sources: SourcesConfig;
      /** The site-wide API options (its one cache folder). */
      readonly options: ApiOptions;
    };

export interface BuildConfigOptions {
  /** SITE_URL when none is set (`npm start` serves at its own port). */
  readonly defaultSiteUrl?: string;
  /** The netlify.toml whose schedule sets the rebuild interval (tests name another). */
  readonly netlifyToml?: string;
}

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** What readBuildConfig reads. */
export const BUILD_SETTINGS = [
  ...API_SETTINGS,
  ...SOURCES_SETTINGS,
  ...IMAGES_SETTINGS,
  ...SITE_SETTINGS,
  ...CARDS_SETTINGS,
  ...SCHEDULE_SETTINGS,
  ...DEPLOY_SETTINGS,
  ...PUBLISH_SETTINGS,
];

export function readBuildConfig(
  env: NodeJS.ProcessEnv,
  options: BuildConfigOptions = {},
): BuildConfig {
  const siteEnv =
    options.defaultSiteUrl && !env.SITE_URL?.trim()
      ? { ...env, SITE_URL: options.defaultSiteUrl }
      : env;
  // One rebuild interval for every output (REFRESH-INTERVAL, cache lifetimes), from the schedule.
  const interval = resolveRebuildInterval(env, options.netlifyToml);
  const site = readSiteConfig(siteEnv, { rebuildIntervalMinutes: interval.minutes });
  const portal = readPortalSource(env, site);
  const api = portal.kind === "portal" ? portal.api : portal.options;
  return {
    site,
    portal,
    publish: readPublishConfig(env, site.url),
    deploy: readDeployConfig(env),
    cacheDir: api.cacheDir,
    cards: readCardsConfig(env),
    images: readImagesConfig(env),
  };
}

/** What the publish step reads (`npm run merge-shards`): no portal, the settings of the site and its host. */
export type PublishStepConfig = Pick<BuildConfig, "site" | "publish" | "deploy" | "cacheDir">;

/** What readPublishStepConfig reads: no portal's address or token, its options for the cache folder. */
export const PUBLISH_STEP_SETTINGS = [
  ...SITE_SETTINGS,
  ...API_OPTIONS_SETTINGS,
  ...SCHEDULE_SETTINGS,
  ...DEPLOY_SETTINGS,
  ...PUBLISH_SETTINGS,
];

export function readPublishStepConfig(
  env: NodeJS.ProcessEnv,
  options: BuildConfigOptions = {},
): PublishStepConfig {
  const interval = resolveRebuildInterval(env, options.netlifyToml);
  const site = readSiteConfig(env, { rebuildIntervalMinutes: interval.minutes });
  return {
    site,
    publish: readPublishConfig(env, site.url),
    deploy: readDeployConfig(env),
    cacheDir: readApiOptions(env).cacheDir,
  };
}

/**
 * A missing EVENT_API_URL while SITE_URL names a published site is far more
 * likely a lost secret than a wish to publish demo events over the real ones,
 * so that combination stops the build; EVENT_API_URL=demo asks for it.
 */
/**
 * What a command that reads the site's portals without building (the change
 * check) is given: EVENT_SOURCES_FILE's sources, else the one portal of
 * EVENT_API_URL; both set is refused, as by the build.
 */
export function readPortalOrSources(env: NodeJS.ProcessEnv): ApiConfig | SourcesConfig {
  return readSourcesAlone(env) ?? readApiConfig(env);
}

function readSourcesAlone(env: NodeJS.ProcessEnv): SourcesConfig | null {
  const sources = readSources(env);
  if (sources && env.EVENT_API_URL?.trim()) {
    throw new ConfigError(
      `EVENT_SOURCES_FILE and EVENT_API_URL are both set: name the portal in the sources file (with "primary": true to keep its addresses), or unset one of them.`,
    );
  }
  return sources;
}

function readPortalSource(env: NodeJS.ProcessEnv, site: SiteConfig): PortalSource {
  const sources = readSourcesAlone(env);
  const configured = env.EVENT_API_URL?.trim();
  if (sources) return { kind: "sources", sources, options: readApiOptions(env) };
  if (configured && configured !== "demo") return { kind: "portal", api: readApiConfig(env) };
  if (!configured && !LOOPBACK.has(new URL(site.url).hostname)) {
    throw new ConfigError(
      `EVENT_API_URL is not set, but SITE_URL (${site.url}) names a published site: refusing to publish the demo data there. Set EVENT_API_URL and EVENT_API_TOKEN, or EVENT_API_URL=demo to publish the demo on purpose.`,
    );
  }
  return { kind: "demo", options: readApiOptions(env) };
}
