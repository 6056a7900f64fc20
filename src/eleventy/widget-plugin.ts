import type { SiteConfig } from "../config/site.ts";
import type { Calendar } from "../model/types.ts";
import { paths } from "../model/url-scheme.ts";
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
}

export default function widgetPlugin(
  eleventyConfig: EleventyConfigLike,
  options: WidgetPluginOptions,
): void {
  const { site } = options;
  eleventyConfig.addFilter(
    "embedSnippets",
    (calendar: Calendar): EmbedSnippets => embedSnippets(calendar, site),
  );
  eleventyConfig.addFilter("oembedLink", (calendar: Calendar) => oembedLinkTag(calendar, site));
  eleventyConfig.addFilter("oembedUrl", (calendar: Calendar) =>
    site.urls.absolute(paths.oembed(calendar.id)),
  );
}
