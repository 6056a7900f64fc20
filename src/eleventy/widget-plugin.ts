import type { DeployTarget } from "../config/deploy.ts";
import type { SiteConfig } from "../config/site.ts";
import type { Calendar } from "../model/types.ts";
import { oembedDiscovery, oembedDiscoveryUrl } from "../oembed/discovery.ts";
import { type EmbedSnippets, embedSnippets, oembedLinkTag } from "../widget/snippets.ts";

/**
 * Filters for the calendar page's "Embed" section and its oEmbed discovery
 * link (docs/widget.md). The widget's files are written by the publisher
 * plugin (src/widget/widget-files.ts).
 */

/** The part of Eleventy's configuration API this plugin uses. */
export interface EleventyConfigLike {
  addFilter(name: string, filter: (this: unknown, ...args: never[]) => unknown): void;
}

export interface WidgetPluginOptions {
  readonly site: SiteConfig;
  /** DEPLOY_TARGET (default netlify): whether discovery names the oEmbed endpoint or the static answer. */
  readonly deployTarget?: DeployTarget;
}

export default function widgetPlugin(
  eleventyConfig: EleventyConfigLike,
  options: WidgetPluginOptions,
): void {
  const { site } = options;
  const discovery = oembedDiscovery(options.deployTarget ?? "netlify", site.urls);
  eleventyConfig.addFilter(
    "embedSnippets",
    (calendar: Calendar): EmbedSnippets => embedSnippets(calendar, site),
  );
  eleventyConfig.addFilter("oembedLink", (calendar: Calendar) =>
    oembedLinkTag(calendar, site, discovery),
  );
  eleventyConfig.addFilter("oembedUrl", (calendar: Calendar) =>
    oembedDiscoveryUrl(calendar.id, site.urls, discovery),
  );
}
