import { resolve } from "node:path";
import { count, timed } from "../metrics.ts";
import {
  type Preprocessors,
  runPreprocessors,
  runTransforms,
  type Transforms,
} from "./eleventy-steps.ts";
import type { EventLoopTurns } from "./event-loop-turns.ts";
import type { FileWriter } from "./file-writer.ts";
import {
  type NunjucksEngine,
  PageTemplate,
  readPageTemplate,
  templateData,
} from "./page-template.ts";

/**
 * The streamed pages: templates with one page per item (an event, a
 * calendar's month, a place...), rendered one page at a time instead of
 * through Eleventy's pagination, whose per-page bookkeeping and retained
 * page data made a 10,000-event build take a minute and 1.75 GB
 * (docs/performance.md). They render with the Nunjucks environment
 * Eleventy renders its own pages with, the global data Eleventy gives its
 * templates, and Eleventy's preprocessors and transforms
 * (src/render/page-template.ts, eleventy-steps.ts), so a template behaves
 * the same here as in Eleventy, at 10 events or 100,000. The publisher
 * runs them as one stage of Eleventy's run (src/eleventy/streamed-pages-plugin.ts).
 */

type Data = Record<string, unknown>;

/** What of Eleventy's configuration the pages render with. */
export interface StreamedPagesSetup {
  /** Eleventy's folders: templates are read from `input`, layouts from `layouts` (else `includes`). */
  readonly directories: {
    readonly input: string;
    readonly includes: string;
    readonly layouts?: string;
  };
  readonly engine: NunjucksEngine;
  /** Eleventy's front matter options. */
  readonly frontMatter?: object;
  readonly preprocessors: Preprocessors;
  readonly transforms: Transforms;
}

/** Where one run's pages go. */
export interface StreamTarget {
  /** The output folder (what the transforms are told). */
  readonly output: string;
  readonly writer: FileWriter;
  /** The event loop turns now and then, so that work beside this thread goes on meanwhile. */
  readonly turns: EventLoopTurns;
  /** Whether this build renders a template's item (a split build's share, src/shards). */
  readonly mine: (template: string, item: unknown) => boolean;
}

/**
 * Renders and writes every page of `templates` (paths relative to the
 * input folder, e.g. "calendars/event.njk") with `globals`, the data
 * Eleventy gives every template.
 */
export async function renderStreamedPages(
  templates: readonly string[],
  globals: Data,
  setup: StreamedPagesSetup,
  target: StreamTarget,
): Promise<void> {
  const { directories, preprocessors, transforms } = setup;
  const hasTransforms = Object.keys(transforms).length > 0;
  const output = resolve(target.output);
  for (const name of templates) {
    const source = await readPageTemplate(name, {
      inputDir: resolve(directories.input),
      layoutsDir: resolve(directories.layouts ?? directories.includes),
      frontMatter: setup.frontMatter,
    });
    const content = await runPreprocessors(
      preprocessors,
      source.inputPath,
      source.layers[0]?.content ?? "",
      { ...globals, ...templateData(source) },
    );
    if (content === false) continue;
    const template = new PageTemplate(source, setup.engine, content);
    const items = template.items(globals);
    let rendered = 0;
    for (let index = 0; index < items.length; index++) {
      if (!target.mine(name, items[index])) continue;
      if (target.turns.due()) await target.turns.take();
      rendered++;
      const page = template.render(globals, items[index], index);
      const html = hasTransforms
        ? await runTransforms(transforms, page, source.inputPath, resolve(output, page.outputPath))
        : page.content;
      timed("write", () => target.writer.write(page.outputPath, html));
    }
    count(`rendered.${name}`, rendered);
  }
}
