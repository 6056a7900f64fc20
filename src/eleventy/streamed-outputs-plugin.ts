import { relative, resolve } from "node:path";
import { count, mergeCounters, timedAsync } from "../metrics.ts";
import { FileWriter } from "../render/file-writer.ts";
import {
  type NunjucksEngine,
  PageTemplate,
  type PageTemplateSource,
  readPageTemplate,
} from "../render/page-template.ts";
import { claimAndRender, StreamedJob, type StreamedOutput } from "../render/streamed-job.ts";
import { RenderPool, renderWorkerCount } from "./render-pool.ts";

export type { StreamedOutput } from "../render/streamed-job.ts";

/**
 * Outputs with one file per event (event pages, event.ics) are rendered here,
 * outside Eleventy's pagination, whose per-page bookkeeping and retained page
 * data made a 10,000-event build take a minute and 1.75 GB
 * (docs/performance.md). Two kinds: page templates in `templates/`, rendered
 * by PageTemplate with Eleventy's Nunjucks environment (the site's filters,
 * includes and layouts), and writers `(item, data) => string` for formats that
 * are not templates. Both get the global data Eleventy's templates get, except
 * `collections`.
 *
 * Large sites render them in worker threads too (render-pool.ts): the workers
 * start as soon as Eleventy has the data, the main thread joins once
 * Eleventy has written the rest of the site.
 */

type Data = Record<string, unknown>;
// biome-ignore lint/suspicious/noExplicitAny: Eleventy ships no types
type EleventyConfig = any;

export interface StreamedRegistry {
  readonly templates: string[];
  readonly outputs: StreamedOutput[];
  /** Globals a worker builds itself: values that do not survive structured cloning. */
  readonly workerGlobals: Map<string, () => unknown>;
  createJob(templates: readonly PageTemplate[], data: Data): StreamedJob;
}

interface BuildState {
  job: StreamedJob;
  pool: RenderPool | null;
  claims: Int32Array;
}

const registries = new WeakMap<object, StreamedRegistry>();

/** Renders `template` (relative to the input folder) per item of its pagination, outside Eleventy. */
export function addStreamedTemplate(eleventyConfig: EleventyConfig, template: string): void {
  const registry = streamedRegistry(eleventyConfig);
  if (registry.templates.length === 0) {
    // Eleventy creates its Nunjucks environment only for Nunjucks templates it
    // renders itself; this empty one makes sure there is one to render with.
    eleventyConfig.addTemplate("streamed-outputs-engine.njk", "", {
      permalink: false,
      eleventyExcludeFromCollections: true,
    });
  }
  registry.templates.push(template);
  // Eleventy must not render it too, but edits to it still trigger a rebuild in watch mode.
  // (Eleventy takes ignores relative to the working directory.)
  const path = relative(
    process.cwd(),
    resolve(eleventyConfig.directories?.input ?? "templates", template),
  );
  eleventyConfig.ignores.add(path);
  eleventyConfig.addWatchTarget(path);
}

export function addStreamedOutput<T>(eleventyConfig: EleventyConfig, output: StreamedOutput<T>) {
  streamedRegistry(eleventyConfig).outputs.push(output as StreamedOutput);
}

/** Global data that render workers build themselves instead of receiving a copy. */
export function addWorkerGlobal(eleventyConfig: EleventyConfig, name: string, load: () => unknown) {
  streamedRegistry(eleventyConfig).workerGlobals.set(name, load);
}

/** The streamed outputs registered on a configuration (Eleventy's, or a worker's stand-in). */
export function streamedRegistry(eleventyConfig: EleventyConfig): StreamedRegistry {
  const known = registries.get(eleventyConfig);
  if (known) return known;
  const registry: StreamedRegistry = {
    templates: [],
    outputs: [],
    workerGlobals: new Map(),
    createJob: (templates, data) => new StreamedJob(templates, registry.outputs, data),
  };
  registries.set(eleventyConfig, registry);
  install(eleventyConfig, registry);
  return registry;
}

function install(eleventyConfig: EleventyConfig, registry: StreamedRegistry): void {
  let engine: NunjucksEngine | undefined;
  let directories: { input: string; output: string; layouts?: string; includes: string };
  let build: Promise<BuildState> | undefined;

  eleventyConfig.on("eleventy.engine.njk", (found: NunjucksEngine) => {
    engine = found;
  });
  eleventyConfig.on("eleventy.before", (event: { directories: typeof directories }) => {
    directories = event.directories;
    build = undefined;
  });
  // Eleventy hands every template its global data; this one starts the streamed
  // rendering with it, early in Eleventy's render phase.
  eleventyConfig.addTemplate("streamed-outputs.11ty.js", {
    data: { permalink: false, eleventyExcludeFromCollections: true },
    render: async (data: Data) => {
      build ??= start(registry, eleventyConfig, engine, directories, data);
      await build;
      return "";
    },
  });
  eleventyConfig.on(
    "eleventy.after",
    async (event: { results: readonly { outputPath: string | false }[] }) => {
      count("rendered.eleventy", event.results.length);
      if (!build) throw new Error("Streamed outputs: Eleventy gave no global data");
      const state = await build;
      const output = resolve(directories.output);
      const taken = event.results.flatMap((result) =>
        result.outputPath ? [relative(output, resolve(result.outputPath))] : [],
      );
      const writer = new FileWriter(output, { taken });
      claimAndRender(state.job, writer, state.claims);
      if (state.pool) {
        const pool = state.pool;
        const results = await timedAsync("render-wait", () => pool.finish());
        for (const result of results) {
          if (!result) continue;
          writer.adopt(result.paths, result.bytes);
          mergeCounters(result.metrics.counters);
        }
      }
    },
  );
}

async function start(
  registry: StreamedRegistry,
  eleventyConfig: EleventyConfig,
  engine: NunjucksEngine | undefined,
  directories: { input: string; output: string; layouts?: string; includes: string },
  captured: Data,
): Promise<BuildState> {
  // Per-template data, and collections (which hold Eleventy's template objects), are not shared.
  const {
    page: _page,
    permalink: _permalink,
    eleventyExcludeFromCollections: _excluded,
    collections: _collections,
    ...data
  } = captured;
  const sources: PageTemplateSource[] = [];
  for (const template of registry.templates) {
    sources.push(
      await readPageTemplate(template, {
        root: process.cwd(),
        inputDir: resolve(directories.input),
        layoutsDir: resolve(directories.layouts ?? directories.includes),
        frontMatter: eleventyConfig.frontMatterParsingOptions,
      }),
    );
  }
  const templates = sources.map((source) => {
    if (!engine)
      throw new Error(`Streamed outputs: no Nunjucks environment for ${source.template}`);
    return new PageTemplate(source, engine);
  });
  const job = registry.createJob(templates, data);
  const workers = renderWorkerCount(process.env, job.total);
  if (workers === 0) return { job, pool: null, claims: new Int32Array(1) };

  const shared = Object.fromEntries(
    Object.entries(data).filter(([name]) => !registry.workerGlobals.has(name)),
  );
  // Workers read the project's configuration file, as the npm scripts' Eleventy does.
  const pool = new RenderPool(
    workers,
    { configPath: ".eleventy.js", root: process.cwd() },
    { sources, data: shared, outputDir: resolve(directories.output), shape: job.shape },
  );
  return { job, pool, claims: pool.claims };
}
