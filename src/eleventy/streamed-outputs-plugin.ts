import { join, relative, resolve } from "node:path";
import type nunjucks from "nunjucks";
import { count, timed } from "../metrics.ts";
import { FileWriter } from "../render/file-writer.ts";
import { PageTemplate } from "../render/page-template.ts";

/**
 * Outputs with one file per event (event pages, event.ics) are rendered here,
 * after Eleventy has written the rest of the site, one file at a time with a
 * bounded number of writes in flight, instead of through Eleventy's
 * pagination, whose per-page bookkeeping and retained page data made a
 * 10,000-event build take a minute and 1.75 GB (docs/performance.md).
 *
 * Two kinds: page templates in `templates/` (rendered by PageTemplate with
 * Eleventy's own Nunjucks environment, so filters, includes and layouts are
 * the site's) and plain writers `(item, data) => string` for formats that are
 * not templates. Both get the same global data as Eleventy's templates.
 */

type Data = Record<string, unknown>;

export interface StreamedOutput<T = unknown> {
  /** For counters and error messages, e.g. "event.ics". */
  readonly name: string;
  items(data: Data): readonly T[];
  /** Output path relative to the output folder. */
  path(item: T, data: Data): string;
  render(item: T, data: Data): string;
}

// biome-ignore lint/suspicious/noExplicitAny: Eleventy ships no types
type EleventyConfig = any;

interface Registry {
  readonly templates: string[];
  readonly outputs: StreamedOutput[];
  engine?: { nunjucks: typeof nunjucks; environment: nunjucks.Environment };
  data?: Data;
}

const registries = new WeakMap<object, Registry>();

/** Renders `template` (relative to the input folder) per item of its pagination, outside Eleventy. */
export function addStreamedTemplate(eleventyConfig: EleventyConfig, template: string): void {
  const registry = registryFor(eleventyConfig);
  registry.templates.push(template);
  // Eleventy must not render it too, but edits to it still trigger a rebuild in watch mode.
  const path = join("templates", template);
  eleventyConfig.ignores.add(path);
  eleventyConfig.addWatchTarget(path);
}

export function addStreamedOutput<T>(eleventyConfig: EleventyConfig, output: StreamedOutput<T>) {
  registryFor(eleventyConfig).outputs.push(output as StreamedOutput);
}

function registryFor(eleventyConfig: EleventyConfig): Registry {
  const registry = registries.get(eleventyConfig);
  if (registry) return registry;
  const created: Registry = { templates: [], outputs: [] };
  registries.set(eleventyConfig, created);

  eleventyConfig.on(
    "eleventy.engine.njk",
    (engine: { nunjucks: typeof nunjucks; environment: nunjucks.Environment }) => {
      created.engine = engine;
    },
  );
  // Eleventy hands every template its full global data; this one only keeps it.
  eleventyConfig.addTemplate("streamed-outputs.11ty.js", {
    data: { permalink: false, eleventyExcludeFromCollections: true },
    render: (data: Data) => {
      created.data = data;
      return "";
    },
  });
  eleventyConfig.on(
    "eleventy.after",
    async (event: {
      directories: { input: string; output: string; layouts?: string; includes: string };
      results: readonly { outputPath: string | false }[];
    }) => {
      count("rendered.eleventy", event.results.length);
      await renderAll(created, eleventyConfig, event);
    },
  );
  return created;
}

async function renderAll(
  registry: Registry,
  eleventyConfig: EleventyConfig,
  event: {
    directories: { input: string; output: string; layouts?: string; includes: string };
    results: readonly { outputPath: string | false }[];
  },
): Promise<void> {
  const { engine, data: captured } = registry;
  if (!captured) throw new Error("Streamed outputs: Eleventy gave no global data");
  const {
    page: _page,
    permalink: _permalink,
    eleventyExcludeFromCollections: _x,
    ...data
  } = captured;
  const output = resolve(event.directories.output);
  const taken = event.results.flatMap((result) =>
    result.outputPath ? [relative(output, resolve(result.outputPath))] : [],
  );
  const writer = new FileWriter(output, { taken });
  const write = (path: string, content: string) =>
    timed("write", () => writer.write(path, content));

  for (const template of registry.templates) {
    if (!engine) throw new Error(`Streamed outputs: no Nunjucks environment for ${template}`);
    const page = await PageTemplate.load({
      nunjucks: engine.nunjucks,
      env: engine.environment,
      root: process.cwd(),
      inputDir: resolve(event.directories.input),
      layoutsDir: resolve(event.directories.layouts ?? event.directories.includes),
      template,
      frontMatter: eleventyConfig.frontMatterParsingOptions,
    });
    const items = page.items(data);
    for (let i = 0; i < items.length; i++) {
      const rendered = page.render(data, items[i], i);
      write(rendered.outputPath, rendered.content);
    }
    count(`rendered.${template}`, items.length);
  }
  for (const stream of registry.outputs) {
    const items = stream.items(data);
    for (const item of items) write(stream.path(item, data), stream.render(item, data));
    count(`rendered.${stream.name}`, items.length);
  }
}
