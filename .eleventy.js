/**
 * Eleventy setup: folders and formats. `npm run build` and `npm start` add the
 * publisher (src/eleventy/publisher-plugin.ts) with the build's settings and
 * data, and SITE_URL's folder as the path prefix (src/eleventy/site-eleventy.ts).
 * Eleventy renders the site's single pages; the templates with one page per
 * item (an event, a month, a place...) are rendered one page at a time by the
 * streamed pages stage the publisher registers (src/eleventy/streamed-pages-plugin.ts,
 * docs/site.md). Plugins and filters of your own go here: both kinds of page
 * render with them.
 */
export default function () {
  return {
    dir: { input: "templates", data: "../_data", includes: "_includes", layouts: "_layouts" },
    templateFormats: ["njk"],
    htmlTemplateEngine: "njk",
    markdownTemplateEngine: false,
  };
}
