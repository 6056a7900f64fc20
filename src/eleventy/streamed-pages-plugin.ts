import { relative, resolve } from "node:path";
import nunjucks from "nunjucks";
import { renderStreamedPages, type StreamTarget } from "../render/streamed-pages.ts";

/**
 * The streamed pages as a stage of Eleventy's run (src/render/streamed-pages.ts
 * says why they are not paginated by Eleventy), through Eleventy's public API:
 *
 * - one Nunjucks environment, made here and given to Eleventy with
 *   `setLibrary`: Eleventy adds its filters, shortcodes and the site's to
 *   it and renders its own pages with it, and the streamed pages render with
 *   the same object;
 * - the stage is a virtual template (`addTemplate`) that writes no page of
 *   its own: Eleventy renders it with its global data, as any template, and
 *   its render streams every page of the templates listed;
 * - those templates are ignored by Eleventy's own pagination, but edits to
 *   them still rebuild in `npm start`.
 */

// biome-ignore lint/suspicious/noExplicitAny: Eleventy ships no types
type EleventyConfig = any;

export interface StreamedPagesPluginOptions {
  /** Paths relative to the input folder, e.g. "calendars/event.njk". */
  readonly templates: readonly string[];
  /** Where this run's pages go: asked for when Eleventy renders the stage. */
  readonly target: () => StreamTarget;
}

/** The stage's own (virtual) template, in the input folder. */
export const STREAMED_PAGES_TEMPLATE = "streamed-pages.11ty.js";

/** Data Eleventy gives a template that is not the site's global data. */
const PER_TEMPLATE = ["page", "permalink", "eleventyExcludeFromCollections", "collections"];

export default function streamedPagesPlugin(
  eleventyConfig: EleventyConfig,
  options: StreamedPagesPluginOptions,
): void {
  if (options.templates.length === 0) return;
  // Searched as Eleventy searches for includes: the includes folder, then the project.
  const environment = new nunjucks.Environment(
    new nunjucks.FileSystemLoader([eleventyConfig.directories.includes, "."]),
    { autoescape: true },
  );
  eleventyConfig.setLibrary("njk", environment);
  // Eleventy sets the environment up (its filters, shortcodes, the site's)
  // when it prepares a Nunjucks template of its own, before it renders any.
  let setUp = false;
  eleventyConfig.amendLibrary("njk", () => {
    setUp = true;
  });

  for (const template of options.templates) {
    // Eleventy takes ignores relative to the working folder.
    const path = relative(process.cwd(), resolve(eleventyConfig.directories.input, template));
    eleventyConfig.ignores.add(path);
    eleventyConfig.addWatchTarget(path);
  }
  // The site may restrict its template formats; the stage is a JavaScript template.
  eleventyConfig.addTemplateFormats("11ty.js");
  eleventyConfig.addTemplate(STREAMED_PAGES_TEMPLATE, {
    data: { permalink: false, eleventyExcludeFromCollections: true },
    render: async (data: Record<string, unknown>) => {
      if (!setUp) {
        throw new Error(
          "The streamed pages render with the Nunjucks environment Eleventy sets up for its own Nunjucks pages: leave it at least one (templates/index.njk is one).",
        );
      }
      const globals = Object.fromEntries(
        Object.entries(data).filter(([key]) => !PER_TEMPLATE.includes(key)),
      );
      await renderStreamedPages(
        options.templates,
        globals,
        {
          directories: eleventyConfig.directories,
          engine: environment,
          frontMatter: eleventyConfig.frontMatterParsingOptions,
          preprocessors: eleventyConfig.preprocessors ?? {},
          transforms: eleventyConfig.transforms ?? {},
        },
        options.target(),
      );
      return "";
    },
  });
}
