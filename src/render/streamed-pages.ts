import { resolve } from "node:path";
import { count, timed } from "../metrics.ts";
import { gatherReads, type ShownReads } from "../model/shown-reads.ts";
import {
  type Preprocessors,
  runPreprocessors,
  runTransforms,
  type Transforms,
} from "./eleventy-steps.ts";
import type { EventLoopTurns } from "./event-loop-turns.ts";
import { type FileWriter, inputsDigest } from "./file-writer.ts";
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
  /**
   * Everything a template's page for an item depends on besides the code,
   * as text (as FileGroup.inputs): a page whose inputs are those of its last
   * publish is kept as published, not rendered. Undefined for a template
   * whose pages name no inputs: rendered every build, kept if unchanged.
   */
  readonly inputs?: (template: string, globals: Data) => PageInputs | undefined;
  /**
   * What the last build learnt of each page's inputs (src/eleventy/page-record.ts):
   * a page it vouches for is kept by the digest it was rendered from, its
   * inputs not made; every other page's inputs are made with what they read gathered.
   */
  readonly record?: (globals: Data, filter: FilterLookup) => PagesRecord | undefined;
}

/** The record a run keeps of its streamed pages' inputs, for the next build (src/eleventy/page-record.ts). */
export interface PagesRecord {
  /** The digest of the page's inputs when the record vouches that they are those of its last build. */
  unchanged(template: string, item: unknown, path: string): string | undefined;
  /** The page was kept by that digest: its entry goes on to the next record as it was. */
  carried(template: string, item: unknown, path: string): void;
  /** The page's inputs were made: their digest, and what they read. */
  asked(template: string, item: unknown, path: string, digest: string, reads: ShownReads): void;
  /** Every page was visited: the record is kept for the next build. */
  finish(): void;
}

/**
 * A template's inputs for one item's page, given the filters its pages
 * render with; undefined when they cannot be named (the page is rendered).
 */
export type PageInputs = (item: unknown, filter: FilterLookup) => string | undefined;

/** The Nunjucks filter of that name, as the page's template would call it. */
export type FilterLookup = (name: string) => (...args: unknown[]) => unknown;

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
  const filter: FilterLookup = (filterName) => setup.engine.getFilter(filterName);
  const pagesRecord = target.record?.(globals, filter);
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
    const inputsOf = target.inputs?.(name, globals);
    const record = inputsOf && pagesRecord;
    let rendered = 0;
    let kept = 0;
    let vouched = 0;
    for (let index = 0; index < items.length; index++) {
      const item = items[index];
      if (!target.mine(name, item)) continue;
      if (target.turns.due()) await target.turns.take();
      let inputs: string | undefined;
      if (inputsOf) {
        const path = template.outputPath(globals, item, index);
        const recorded = record?.unchanged(name, item, path);
        if (
          recorded !== undefined &&
          timed("write", () => target.writer.keepDigest(path, recorded))
        ) {
          record?.carried(name, item, path);
          kept++;
          vouched++;
          continue;
        }
        const make = () => inputsOf(item, filter);
        const [made, reads] = timed("render", () => (record ? gatherReads(make) : [make(), null]));
        inputs = made;
        if (inputs !== undefined) {
          const digest = inputsDigest(inputs);
          if (reads) record?.asked(name, item, path, digest, reads);
          if (timed("write", () => target.writer.keepDigest(path, digest))) {
            kept++;
            continue;
          }
        }
      }
      rendered++;
      const page = template.render(globals, item, index);
      const html = hasTransforms
        ? await runTransforms(transforms, page, source.inputPath, resolve(output, page.outputPath))
        : page.content;
      timed("write", () => target.writer.write(page.outputPath, html, inputs));
    }
    count(`rendered.${name}`, rendered);
    if (inputsOf) count(`reused.${name}`, kept);
    if (record) count(`vouched.${name}`, vouched);
  }
  pagesRecord?.finish();
}
