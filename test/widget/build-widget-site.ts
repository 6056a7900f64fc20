import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readSiteConfig, type SiteConfig } from "../../src/config/site.ts";
import { widgetPlugin } from "../../src/eleventy/widget-plugin.ts";
import type { PortalSnapshot } from "../../src/model/types.ts";
import { FIXTURE_NOW, fixtureSnapshot } from "../fixtures/snapshot.ts";

/**
 * Builds a minimal Eleventy project (empty input folder) with only the widget
 * plugin and the fixture snapshot into a temporary folder, as the site's
 * build does with its own templates.
 */
export interface BuiltWidgetSite {
  readonly outputDir: string;
  readonly site: SiteConfig;
  readonly remove: () => void;
}

export interface BuildOptions {
  readonly snapshot?: PortalSnapshot;
  /** More site settings, as environment variables (SITE_LANG, SITE_TITLE, ...). */
  readonly env?: NodeJS.ProcessEnv;
  /** Extra input files (name -> content), e.g. a nunjucks page that uses the filters. */
  readonly templates?: Readonly<Record<string, string>>;
}

export async function buildWidgetSite(
  siteUrl: string,
  { snapshot = fixtureSnapshot, env = {}, templates = {} }: BuildOptions = {},
): Promise<BuiltWidgetSite> {
  const root = mkdtempSync(join(tmpdir(), "ecp-widget-"));
  const inputDir = join(root, "in");
  const outputDir = join(root, "out");
  mkdirSync(inputDir);
  for (const [name, content] of Object.entries(templates)) {
    writeFileSync(join(inputDir, name), content);
  }
  // An empty config file of our own, so the project's .eleventy.js is not picked up.
  const configPath = join(root, "eleventy.config.mjs");
  writeFileSync(configPath, "export default function () {}\n");
  const site = readSiteConfig({ SITE_URL: siteUrl, SITE_NOW: FIXTURE_NOW, ...env });
  const categories = [
    ...new Map(snapshot.events.flatMap((e) => e.categories).map((c) => [c.id, c])).values(),
  ];
  // @11ty/eleventy ships no type declarations; a computed specifier keeps it `any`.
  const eleventyModule = "@11ty/eleventy";
  const { default: Eleventy } = await import(eleventyModule);
  const elev = new Eleventy(inputDir, outputDir, {
    quietMode: true,
    configPath,
    config(
      cfg: Parameters<typeof widgetPlugin>[0] & {
        addGlobalData(name: string, value: unknown): void;
        addPlugin(plugin: unknown): void;
      },
    ) {
      cfg.addGlobalData("portal", { ...snapshot, categories });
      cfg.addGlobalData("site", site);
      cfg.addPlugin(widgetPlugin);
    },
  });
  await elev.write();
  return { outputDir, site, remove: () => rmSync(root, { recursive: true, force: true }) };
}
