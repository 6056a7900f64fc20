import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Eleventy from "@11ty/eleventy";
import type { SiteConfig } from "../../src/config/site.ts";
import publisherPlugin, { type WrittenFiles } from "../../src/eleventy/publisher-plugin.ts";
import type { Category, PortalSnapshot } from "../../src/model/types.ts";
import type { SiteData } from "../../src/site/load.ts";
import { buildViews } from "../../src/site/views.ts";

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
    media: [],
    removed: [],
    announcements: [],
    removedRecords: [],
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
      });
    },
  });
  await eleventy.write();
  return { root, outputDir, warnings };
}
