/**
 * Eleventy setup: folders and formats. `npm run build` and `npm start` add the
 * publisher (src/eleventy/publisher-plugin.ts) with the build's settings and
 * data, and SITE_URL's folder as the path prefix (src/eleventy/site-eleventy.ts);
 * plugins and filters of your own go here.
 */
export default function () {
  return {
    dir: { input: "templates", data: "../_data", includes: "_includes", layouts: "_layouts" },
    templateFormats: ["njk"],
    htmlTemplateEngine: "njk",
    markdownTemplateEngine: false,
  };
}
