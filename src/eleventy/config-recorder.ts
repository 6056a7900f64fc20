import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type nunjucks from "nunjucks";
import type { NunjucksEngine } from "../render/page-template.ts";

/**
 * Rebuilds, in a worker thread, the Nunjucks environment Eleventy builds in
 * the main one: the site's Eleventy configuration (.eleventy.js and the
 * plugins it adds) runs against this stand-in for Eleventy's configuration
 * API, which keeps what shapes Nunjucks rendering (filters, globals,
 * environment options, "eleventy.engine.njk" listeners) and ignores what only
 * concerns Eleventy's own build (templates, passthrough copies, watching).
 *
 * What it cannot reproduce (shortcodes, custom tags, transforms) is reported,
 * and the pages are then rendered in the main thread only, with Eleventy's
 * own environment: slower, never different.
 */

// biome-ignore lint/suspicious/noExplicitAny: plugins receive Eleventy's untyped config API
type Fn = (...args: any[]) => any;

/** Calls that only concern Eleventy's own build; streamed rendering does not need them. */
const BUILD_ONLY = [
  "addTemplate",
  "addTemplateFormats",
  "setTemplateFormats",
  "addPassthroughCopy",
  "addWatchTarget",
  "setWatchJavaScriptDependencies",
  "setServerOptions",
  "setQuietMode",
  "addGlobalData",
  "addCollection",
  "addLayoutAlias",
  "setUseGitIgnore",
  "addExtension",
  "addDataExtension",
  "setLayoutsDirectory",
  "setIncludesDirectory",
  "setDataDirectory",
  "setInputDirectory",
  "setOutputDirectory",
];

/** Calls that change how Nunjucks renders in ways this stand-in does not rebuild. */
const UNSUPPORTED = [
  "addShortcode",
  "addAsyncShortcode",
  "addPairedShortcode",
  "addPairedAsyncShortcode",
  "addNunjucksShortcode",
  "addNunjucksAsyncShortcode",
  "addPairedNunjucksShortcode",
  "addPairedNunjucksAsyncShortcode",
  "addNunjucksTag",
  "addTransform",
  "addPreprocessor",
  "setLibrary",
  "amendLibrary",
  "setNunjucksPrecompiledTemplates",
];

export interface RecordedConfig {
  readonly filters: Map<string, { fn: Fn; async: boolean }>;
  readonly globals: Map<string, unknown>;
  environmentOptions: nunjucks.ConfigureOptions;
  readonly engineListeners: Fn[];
  /** What the configuration used that the stand-in cannot reproduce. */
  readonly unsupported: Set<string>;
  readonly ignores: Set<string>;
  readonly frontMatterParsingOptions: object;
}

/** The stand-in: plugins receive it as their `eleventyConfig`. */
export function createConfigRecorder(): { config: object; recorded: RecordedConfig } {
  const recorded: RecordedConfig = {
    filters: new Map(),
    globals: new Map(),
    environmentOptions: { dev: true },
    engineListeners: [],
    unsupported: new Set(),
    ignores: new Set(),
    frontMatterParsingOptions: {},
  };
  const config: Record<string, unknown> = {
    ignores: recorded.ignores,
    frontMatterParsingOptions: recorded.frontMatterParsingOptions,
    addPlugin(plugin: Fn | { configFunction: Fn }, options: unknown = {}) {
      const run = typeof plugin === "function" ? plugin : plugin.configFunction;
      return run(config, options);
    },
    addFilter: (name: string, fn: Fn) => recorded.filters.set(name, { fn, async: false }),
    addNunjucksFilter: (name: string, fn: Fn, isAsync = false) =>
      recorded.filters.set(name, { fn, async: isAsync }),
    addAsyncFilter: (name: string, fn: Fn) => recorded.filters.set(name, { fn, async: true }),
    addNunjucksAsyncFilter: (name: string, fn: Fn) =>
      recorded.filters.set(name, { fn, async: true }),
    addNunjucksGlobal: (name: string, value: unknown) => recorded.globals.set(name, value),
    setNunjucksEnvironmentOptions: (options: nunjucks.ConfigureOptions) => {
      recorded.environmentOptions = options;
    },
    on: (event: string, listener: Fn) => {
      if (event === "eleventy.engine.njk") recorded.engineListeners.push(listener);
    },
  };
  for (const name of BUILD_ONLY) config[name] = () => {};
  for (const name of UNSUPPORTED) config[name] = () => recorded.unsupported.add(name);
  return { config, recorded };
}

export interface EleventySetup {
  readonly engine: NunjucksEngine;
  /** The stand-in the configuration ran against (plugins keep state keyed by it). */
  readonly config: object;
  readonly unsupported: readonly string[];
}

/**
 * Runs the Eleventy configuration file and builds the Nunjucks environment as
 * Eleventy's Nunjucks engine does (src/Engines/Nunjucks.js in Eleventy 3.1):
 * a FileSystemLoader over the includes folder and the working directory, the
 * configured options, and filters that see `page` and `eleventy` on `this`.
 */
export async function loadEleventySetup(configPath: string, root: string): Promise<EleventySetup> {
  const { config, recorded } = createConfigRecorder();
  const module = (await import(pathToFileURL(resolve(root, configPath)).href)) as {
    default: Fn;
  };
  const returned = (await module.default(config)) as { dir?: Record<string, string> } | undefined;
  const input = returned?.dir?.input ?? ".";
  const includes = returned?.dir?.includes ?? "_includes";

  // Eleventy's own copy of Nunjucks (it ships a fork), as its engine uses.
  const require = createRequire(import.meta.resolve("@11ty/eleventy"));
  const lib = require("nunjucks") as typeof nunjucks;
  const loader = new lib.FileSystemLoader([join(resolve(root, input), includes), root]);
  const environment = new lib.Environment(loader, recorded.environmentOptions);
  for (const [name, { fn, async }] of recorded.filters) {
    environment.addFilter(name, withPageAndEleventy(fn), async);
  }
  for (const [name, value] of recorded.globals) environment.addGlobal(name, value);
  for (const listener of recorded.engineListeners) listener({ nunjucks: lib, environment });
  return {
    engine: { nunjucks: lib, environment },
    config,
    unsupported: [...recorded.unsupported],
  };
}

/** Eleventy's filter wrapper: `this.page` and `this.eleventy` from the template's data. */
function withPageAndEleventy(fn: Fn): Fn {
  return function (
    this: { ctx?: Record<string, unknown>; page?: unknown; eleventy?: unknown },
    ...args
  ) {
    if (this.ctx?.page) this.page = this.ctx.page;
    if (this.ctx?.eleventy) this.eleventy = this.ctx.eleventy;
    return fn.call(this, ...args);
  };
}
