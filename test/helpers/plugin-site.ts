import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Eleventy from "@11ty/eleventy";
import type { SiteConfig } from "../../src/config/site.ts";
import type { Category, PortalSnapshot } from "../../src/model/types.ts";

/** The category list the site data provides: every category of every event, once. */
export function categoriesOf(snapshot: PortalSnapshot): Category[] {
  const byId = new Map<string, Category>();
  for (const event of snapshot.events) {
    for (const category of event.categories) byId.set(category.id, category);
  }
  return [...byId.values()].sort((a, b) => (a.id < b.id ? -1 : 1));
}

export interface PluginSiteOptions {
  // biome-ignore lint/suspicious/noExplicitAny: Eleventy plugins take its untyped config API
  readonly plugin: (eleventyConfig: any) => void;
  readonly snapshot: PortalSnapshot;
  readonly site: SiteConfig;
  /** Extra input files (name -> content), e.g. a nunjucks page that uses the plugin's filters. */
  readonly templates?: Readonly<Record<string, string>>;
}

/**
 * Builds a tiny Eleventy project in a temporary folder with one output plugin
 * and the global data the site provides (`portal`, `site`), as the real build
 * does with the project's templates. Returns the temporary root (remove it
 * when done) and the output folder inside it.
 */
export async function buildPluginSite(
  options: PluginSiteOptions,
): Promise<{ root: string; outputDir: string }> {
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
  const eleventy = new Eleventy(inputDir, outputDir, {
    quietMode: true,
    configPath,
    config(eleventyConfig) {
      eleventyConfig.addGlobalData("portal", {
        ...options.snapshot,
        categories: categoriesOf(options.snapshot),
      });
      eleventyConfig.addGlobalData("site", options.site);
      eleventyConfig.addPlugin(options.plugin);
    },
  });
  await eleventy.write();
  return { root, outputDir };
}
