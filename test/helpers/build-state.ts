import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { PortalLists } from "../../src/api/list-recorder.ts";
import { type ApiConfig, readApiConfig } from "../../src/config/api.ts";
import { readPublishConfig } from "../../src/config/publish.ts";
import { readSiteConfig, type SiteConfig } from "../../src/config/site.ts";
import type { SourcesConfig } from "../../src/config/sources.ts";
import type { PortalSnapshot } from "../../src/model/types.ts";
import { PublicJson } from "../../src/outputs/public-json.ts";
import { nextDateChange } from "../../src/rebuild/next-change.ts";
import {
  type WriteBuildStateOptions,
  writeBuildState,
} from "../../src/rebuild/write-build-state.ts";
import { loadSnapshot } from "../../src/snapshot/load-snapshot.ts";
import { loadSources } from "../../src/sources/load-sources.ts";
import { NOW } from "./clock.ts";
import { DEMO_SITE_URL } from "./demo-expectations.ts";
import { writeTree } from "./files.ts";

/**
 * What a build publishes for the rebuild check, made the way `npm run build`
 * makes it (the build's fetch records the lists; writeBuildState writes the
 * state and records the changed feeds in the manifest), without rendering the
 * rest of the site: into `<dir>/_site`.
 */
export async function publishState(
  env: Record<string, string>,
  dir: string,
  now: string = NOW,
): Promise<string> {
  const site = join(dir, "_site");
  mkdirSync(site, { recursive: true });
  const config = readApiConfig(env);
  const { snapshot, lists } = await loadSnapshot({
    config,
    defaultTimeZone: "Europe/Amsterdam",
    now: new Date(now),
    sink: null,
  });
  const siteUrl = DEMO_SITE_URL;
  await writePublishedState(site, {
    snapshot,
    site: readSiteConfig({ SITE_NOW: now, SITE_URL: siteUrl }),
    publish: readPublishConfig({ PREVIOUS_MANIFEST_URL: "none" }, siteUrl),
    api: config,
    lists,
  });
  return site;
}

/** As publishState, for a site of several sources (EVENT_SOURCES_FILE) fetched as the build fetches them. */
export async function publishSourcesState(sources: SourcesConfig, dir: string): Promise<string> {
  const site = join(dir, "_site");
  const fetched = await loadSources({
    sources,
    defaultTimeZone: "Europe/Amsterdam",
    now: new Date(NOW),
    sink: null,
  });
  await writePublishedState(site, {
    snapshot: fetched.snapshot,
    site: readSiteConfig({ SITE_NOW: NOW, SITE_URL: DEMO_SITE_URL }),
    publish: readPublishConfig({ PREVIOUS_MANIFEST_URL: "none" }, DEMO_SITE_URL),
    api: readApiConfig({ EVENT_API_URL: "https://sources.invalid", EVENT_API_TOKEN: "-" }),
    lists: null,
    sources: fetched.sources.map((source) => source.read),
  });
  return site;
}

/** What a build publishes for the check, from what it fetched: its manifest, then its build state. */
export async function writePublishedState(
  site: string,
  built: {
    readonly snapshot: PortalSnapshot;
    readonly site: SiteConfig;
    readonly publish: WriteBuildStateOptions["config"]["publish"];
    readonly api: ApiConfig;
    readonly lists: PortalLists | null;
    readonly sources?: WriteBuildStateOptions["sources"];
  },
): Promise<void> {
  // The build's manifest, in which the build state records the feeds it changed.
  mkdirSync(join(site, "api"), { recursive: true });
  writeFileSync(
    join(site, "api", "manifest.json"),
    new PublicJson(built.snapshot, built.site).manifestJson(),
  );
  await writeBuildState({
    staging: site,
    files: new Map(),
    output: site,
    config: { site: built.site, publish: built.publish },
    api: built.api,
    lists: built.lists,
    sources: built.sources,
    nextChange: nextDateChange(built.snapshot, built.site, built.publish.dateDelayMs),
    log: () => undefined,
  });
}

/**
 * A deploy's two build-info files as the steps after a deploy read them
 * (the WebSub and IndexNow pings), written by hand: a build state of no
 * portal with `feeds` (path to digest), and a manifest with `manifest`'s fields.
 */
export async function writeDeployInfo(
  dir: string,
  siteUrl: string,
  info: { feeds?: Record<string, string>; manifest?: Record<string, unknown> },
): Promise<void> {
  await writeTree(dir, {
    "api/build-state.json": JSON.stringify({
      version: 1,
      siteUrl,
      api: "sha256-0",
      portal: null,
      nextChange: null,
      feeds: info.feeds ?? {},
    }),
    "api/manifest.json": JSON.stringify({
      version: 1,
      generatedAt: NOW,
      siteUrl,
      ...info.manifest,
    }),
  });
}
