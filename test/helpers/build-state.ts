import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { readApiConfig } from "../../src/config/api.ts";
import { readPublishConfig } from "../../src/config/publish.ts";
import { readSiteConfig } from "../../src/config/site.ts";
import type { SourcesConfig } from "../../src/config/sources.ts";
import { PublicJson } from "../../src/outputs/public-json.ts";
import { nextDateChange } from "../../src/rebuild/next-change.ts";
import { writeBuildState } from "../../src/rebuild/write-build-state.ts";
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
  const siteConfig = readSiteConfig({ SITE_NOW: now, SITE_URL: siteUrl });
  const publishConfig = readPublishConfig({ PREVIOUS_MANIFEST_URL: "none" }, siteUrl);
  mkdirSync(join(site, "api"), { recursive: true });
  writeFileSync(
    join(site, "api", "manifest.json"),
    new PublicJson(snapshot, siteConfig).manifestJson(),
  );
  await writeBuildState({
    staging: site,
    written: [],
    output: site,
    config: {
      site: siteConfig,
      publish: publishConfig,
    },
    api: config,
    lists,
    nextChange: nextDateChange(snapshot, siteConfig, publishConfig.dateDelayMs),
    log: () => undefined,
  });
  return site;
}

/** As publishState, for a site of several sources (EVENT_SOURCES_FILE) fetched as the build fetches them. */
export async function publishSourcesState(sources: SourcesConfig, dir: string): Promise<string> {
  const site = join(dir, "_site");
  mkdirSync(join(site, "api"), { recursive: true });
  const fetched = await loadSources({
    sources,
    defaultTimeZone: "Europe/Amsterdam",
    now: new Date(NOW),
    sink: null,
  });
  const siteConfig = readSiteConfig({ SITE_NOW: NOW, SITE_URL: DEMO_SITE_URL });
  const publishConfig = readPublishConfig({ PREVIOUS_MANIFEST_URL: "none" }, DEMO_SITE_URL);
  writeFileSync(
    join(site, "api", "manifest.json"),
    new PublicJson(fetched.snapshot, siteConfig).manifestJson(),
  );
  await writeBuildState({
    staging: site,
    written: [],
    output: site,
    config: { site: siteConfig, publish: publishConfig },
    api: readApiConfig({ EVENT_API_URL: "https://sources.invalid", EVENT_API_TOKEN: "-" }),
    lists: null,
    sources: fetched.sources.map((source) => source.read),
    nextChange: nextDateChange(fetched.snapshot, siteConfig, publishConfig.dateDelayMs),
    log: () => undefined,
  });
  return site;
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
