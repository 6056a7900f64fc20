import { getSiteConfig } from "./src/config/site.ts";
import feedsPlugin from "./src/eleventy/feeds-plugin.ts";
import searchPlugin from "./src/eleventy/search-plugin.ts";
import sitePlugin from "./src/eleventy/site-plugin.ts";
import widgetPlugin from "./src/eleventy/widget-plugin.ts";

/** Eleventy setup: folders and plugins. Everything else lives in src/eleventy/. */
export default function (eleventyConfig) {
  // Data files import TypeScript modules, which Eleventy's watcher cannot parse.
  eleventyConfig.setWatchJavaScriptDependencies(false);
  eleventyConfig.addPlugin(sitePlugin);
  eleventyConfig.addPlugin(feedsPlugin);
  eleventyConfig.addPlugin(widgetPlugin);
  eleventyConfig.addPlugin(searchPlugin);

  return {
    dir: { input: "templates", data: "../_data", includes: "_includes", layouts: "_layouts" },
    templateFormats: ["njk"],
    htmlTemplateEngine: "njk",
    markdownTemplateEngine: false,
    pathPrefix: new URL(getSiteConfig().url).pathname,
  };
}
