import { relative, resolve } from "node:path";
import { count, timed } from "../metrics.ts";
import {
  type Preprocessors,
  runPreprocessors,
  runTransforms,
  type Transforms,
} from "../render/eleventy-steps.ts";
import type { EventLoopTurns } from "../render/event-loop-turns.ts";
import type { FileWriter } from "../render/file-writer.ts";
import {
  type NunjucksEngine,
  PageTemplate,
  readPageTemplate,
  templateData,
} from "../render/page-template.ts";

/**
 * Templates with one page per event, rendered one page at a time outside
 * Eleventy's pagination, whose per-page bookkeeping and retained page data
 * made a 10,000-event build take a minute and 1.75 GB (docs/performance.md).
 * They render with Eleventy's own Nunjucks environment, its global data, its
 * preprocessors and transforms (src/render/page-template.ts), so a template
 * behaves the same here as in Eleventy, at 10 events or 100,000.
 */

type Data = Record<string, unknown>;
// biome-ignore lint/suspicious/noExplicitAny: Eleventy ships no types
type EleventyConfig = any;

interface Directories {
  readonly input: string;
  readonly output: string;
  readonly includes: string;
  readonly layouts?: string;
}

export class StreamedPages {
  readonly #config: EleventyConfig;
  readonly #templates: readonly string[];
  #engine: NunjucksEngine | undefined;
  #directories: Directories | undefined;
  #globals: Promise<Data> | undefined;
  #captureGlobals: ((data: Data) => void) | undefined;

  /** `templates`: paths relative to the input folder, e.g. "calendars/event.njk". */
  constructor(eleventyConfig: EleventyConfig, templates: readonly string[]) {
    this.#config = eleventyConfig;
    this.#templates = templates;
    // Eleventy must not render them too, but edits to them still trigger a
    // rebuild in watch mode (Eleventy takes ignores relative to the working folder).
    for (const template of templates) {
      const path = relative(
        process.cwd(),
        resolve(eleventyConfig.directories?.input ?? "templates", template),
      );
      eleventyConfig.ignores.add(path);
      eleventyConfig.addWatchTarget(path);
    }
    // The site may restrict its template formats; the virtual template below needs this one.
    eleventyConfig.addTemplateFormats("11ty.js");
    // Eleventy creates its Nunjucks environment only for Nunjucks templates it
    // renders itself; this empty one makes sure there is one to render with.
    eleventyConfig.addTemplate("streamed-pages-engine.njk", "", {
      permalink: false,
      eleventyExcludeFromCollections: true,
    });
    eleventyConfig.on("eleventy.engine.njk", (engine: NunjucksEngine) => {
      this.#engine = engine;
    });
    eleventyConfig.on("eleventy.before", (event: { directories: Directories }) => {
      this.#directories = event.directories;
      this.#globals = new Promise((done) => {
        this.#captureGlobals = done;
      });
    });
    // Eleventy hands every template its global data; this one keeps a copy
    // for the streamed pages, so they see exactly what Eleventy's pages see.
    eleventyConfig.addTemplate("streamed-pages-data.11ty.js", {
      data: { permalink: false, eleventyExcludeFromCollections: true },
      render: (data: Data) => {
        this.#captureGlobals?.(data);
        return "";
      },
    });
  }

  /**
   * Renders and writes every page of the streamed templates (call once
   * Eleventy has written its pages); with `mine`, only the items it accepts
   * (a split build's share, src/shards). The event loop turns now and then
   * (`turns`), so that work beside this thread goes on meanwhile.
   */
  async render(
    writer: FileWriter,
    turns: EventLoopTurns,
    mine: (template: string, item: unknown) => boolean = () => true,
  ): Promise<void> {
    const directories = this.#directories;
    const engine = this.#engine;
    if (!directories || !this.#globals) throw new Error("Streamed pages: Eleventy did not start");
    if (!engine) throw new Error("Streamed pages: Eleventy created no Nunjucks environment");
    // Per-template data, and collections (which hold Eleventy's template objects), are not shared.
    const {
      page: _page,
      permalink: _permalink,
      eleventyExcludeFromCollections: _excluded,
      collections: _collections,
      ...globals
    } = await this.#globals;
    // This run's data is not kept past it: Eleventy keeps its configuration
    // (and with it this object) in a module cache after the run.
    this.#globals = undefined;
    this.#captureGlobals = undefined;
    const transforms = (this.#config.transforms ?? {}) as Transforms;
    const preprocessors = (this.#config.preprocessors ?? {}) as Preprocessors;
    const hasTransforms = Object.keys(transforms).length > 0;
    const output = resolve(directories.output);

    for (const name of this.#templates) {
      const source = await readPageTemplate(name, {
        root: process.cwd(),
        inputDir: resolve(directories.input),
        layoutsDir: resolve(directories.layouts ?? directories.includes),
        frontMatter: this.#config.frontMatterParsingOptions,
      });
      const content = await runPreprocessors(
        preprocessors,
        source.inputPath,
        source.layers[0]?.content ?? "",
        { ...globals, ...templateData(source) },
      );
      if (content === false) continue;
      const template = new PageTemplate(source, engine, content);
      const items = template.items(globals);
      let rendered = 0;
      for (let index = 0; index < items.length; index++) {
        if (!mine(name, items[index])) continue;
        if (turns.due()) await turns.take();
        rendered++;
        const page = template.render(globals, items[index], index);
        const html = hasTransforms
          ? await runTransforms(
              transforms,
              page,
              source.inputPath,
              resolve(output, page.outputPath),
            )
          : page.content;
        timed("write", () => writer.write(page.outputPath, html));
      }
      count(`rendered.${name}`, rendered);
    }
  }
}
