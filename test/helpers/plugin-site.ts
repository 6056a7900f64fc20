import { rmSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import Eleventy from "@11ty/eleventy";
import { readSiteConfig, type SiteConfig } from "../../src/config/site.ts";
import publisherPlugin, { type WrittenFiles } from "../../src/eleventy/publisher-plugin.ts";
import type { Category, PortalSnapshot } from "../../src/model/types.ts";
import { snapshotUpdatedAt } from "../../src/site/data-updated.ts";
import type { SiteData } from "../../src/site/load.ts";
import { buildViews } from "../../src/site/views.ts";
import { buildWhenViews } from "../../src/site/when/when-views.ts";
import { fixtureSnapshot } from "../fixtures/snapshot.ts";
import { noteBuild } from "./build-log.ts";
import { NOW } from "./clock.ts";
import { listFiles } from "./files.ts";
import { TEST_SITE } from "./test-site.ts";

/** The category list the site data provides: every category of every event, once. */
export function categoriesOf(snapshot: PortalSnapshot): Category[] {
  const byId = new Map<string, Category>();
  for (const event of snapshot.events) {
    for (const category of event.categories) byId.set(category.id, category);
  }
  return [...byId.values()].sort((a, b) => (a.id < b.id ? -1 : 1));
}

/**
 * The site's data for a snapshot with no images to copy and no changes known;
 * every category of the snapshot is listed (the build lists those of the
 * events it publishes).
 */
export function siteDataOf(snapshot: PortalSnapshot, site: SiteConfig): SiteData {
  const views = buildViews(snapshot, {
    now: site.now,
    pastDays: site.pastDays,
    timeZone: site.timeZone,
  });
  return {
    ...snapshot,
    categories: categoriesOf(snapshot),
    views,
    when: buildWhenViews(views, site),
    media: [],
    removed: [],
    announcements: [],
    removedRecords: [],
    activities: [],
    updatedAt: snapshotUpdatedAt(snapshot),
  };
}

export interface PluginSiteOptions {
  readonly snapshot: PortalSnapshot;
  readonly site: SiteConfig;
  /** Extra input files (name -> content), e.g. a nunjucks page that uses the plugins' filters. */
  readonly templates?: Readonly<Record<string, string>>;
}

/**
 * Builds a tiny Eleventy project in a temporary folder with the publisher
 * plugin (every feed, calendar, public JSON and widget file, and the filters)
 * and a snapshot's data, as the real build does with the project's
 * templates. Returns the temporary root (remove it when done) and the output
 * folder inside it.
 */
export async function buildPluginSite(
  options: PluginSiteOptions,
): Promise<{ root: string; outputDir: string; warnings: readonly string[] }> {
  noteBuild("fixture");
  const root = await mkdtemp(join(tmpdir(), "ecp-plugin-site-"));
  const inputDir = join(root, "in");
  const outputDir = join(root, "out");
  await mkdir(inputDir, { recursive: true });
  for (const [name, content] of Object.entries(options.templates ?? {})) {
    await writeFile(join(inputDir, name), content);
  }
  // An explicit, empty config file: Eleventy must not load the project's .eleventy.js.
  const configPath = join(root, "eleventy.config.mjs");
  await writeFile(configPath, "export default function () {}\n");
  const data = siteDataOf(options.snapshot, options.site);
  let warnings: readonly string[] = [];
  const eleventy = new Eleventy(inputDir, outputDir, {
    quietMode: true,
    configPath,
    config(eleventyConfig) {
      eleventyConfig.addPlugin(publisherPlugin, {
        site: options.site,
        cacheDir: join(root, "cache"),
        loadData: async () => data,
        onWritten: (written: WrittenFiles) => {
          warnings = written.warnings;
        },
        streamedTemplates: [],
        output: outputDir,
      });
    },
  });
  await eleventy.write();
  return { root, outputDir, warnings };
}

/**
 * The feeds, calendars and pages of a plugin site built from a snapshot
 * (default: the fixture, with TEST_SITE): the output folder and those files
 * (relative, sorted; not the public JSON, widget, assets or search index,
 * which other tests cover). Remove it with removeFixtureSite().
 */
export async function buildFixtureSite(
  snapshot: PortalSnapshot = fixtureSnapshot,
  site: SiteConfig = TEST_SITE,
  pages: Readonly<Record<string, string>> = {},
): Promise<{ outDir: string; files: string[]; warnings: readonly string[] }> {
  const { outputDir, warnings } = await buildPluginSite({ snapshot, site, templates: pages });
  const files = (await listFiles(outputDir)).filter(
    (file) => !/^(api|embed|oembed|pagefind|assets)\/|^embed\.js$/.test(file),
  );
  return { outDir: outputDir, files, warnings };
}

/** Removes a build made by buildFixtureSite (its whole temporary folder). */
export async function removeFixtureSite(outDir: string): Promise<void> {
  if (outDir) await rm(dirname(outDir), { recursive: true, force: true });
}

export interface BuiltWidgetSite {
  readonly outputDir: string;
  readonly site: SiteConfig;
  readonly remove: () => void;
}

export interface WidgetSiteOptions {
  readonly snapshot?: PortalSnapshot;
  /** More site settings, as environment variables (SITE_LANG, SITE_TITLE, ...). */
  readonly env?: NodeJS.ProcessEnv;
  /** Extra input files (name -> content), e.g. a nunjucks page that uses the filters. */
  readonly templates?: Readonly<Record<string, string>>;
}

/**
 * A plugin site at `siteUrl` with the site settings read as the build reads
 * them (pinned clock), from the fixture snapshot unless told otherwise: the
 * widget, its guide and the public JSON are all there.
 */
export async function buildWidgetSite(
  siteUrl: string,
  { snapshot = fixtureSnapshot, env = {}, templates = {} }: WidgetSiteOptions = {},
): Promise<BuiltWidgetSite> {
  const site = readSiteConfig({ SITE_URL: siteUrl, SITE_NOW: NOW, ...env });
  const { root, outputDir } = await buildPluginSite({ snapshot, site, templates });
  return { outputDir, site, remove: () => rmSync(root, { recursive: true, force: true }) };
}
