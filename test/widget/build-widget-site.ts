import { rmSync } from "node:fs";
import { readSiteConfig, type SiteConfig } from "../../src/config/site.ts";
import type { PortalSnapshot } from "../../src/model/types.ts";
import { FIXTURE_NOW, fixtureSnapshot } from "../fixtures/snapshot.ts";
import { buildPluginSite } from "../helpers/plugin-site.ts";

/**
 * Builds a minimal Eleventy project (empty input folder) with the publisher
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
  const site = readSiteConfig({ SITE_URL: siteUrl, SITE_NOW: FIXTURE_NOW, ...env });
  const { root, outputDir } = await buildPluginSite({
    snapshot,
    site,
    templates,
  });
  return { outputDir, site, remove: () => rmSync(root, { recursive: true, force: true }) };
}
