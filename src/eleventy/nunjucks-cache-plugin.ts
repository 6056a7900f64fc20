/**
 * Compiles each Nunjucks template source once per build instead of once per page.
 *
 * Eleventy 3.1 left Nunjucks out of its own compile cache ("moved to use
 * Nunjucks' internal cache") but renders page bodies, permalinks and computed
 * data through `new Template(source, env, path)`, which Nunjucks never caches:
 * only templates it loads by name (layouts, includes) are. So a template
 * paginated over 2,000 events was lexed, parsed and compiled 2,000 times, a
 * fifth of the build's CPU time (docs/performance.md).
 *
 * This keeps what compiling produces (the root render function and the block
 * functions) per environment, path and source, and hands it to later Template
 * objects: the same reuse Nunjucks does for precompiled templates. Compiled
 * code depends on the environment's options, filters and tags, hence one
 * cache per environment; includes are looked up at render time, not baked in.
 */

interface CompiledTemplate {
  readonly blocks: unknown;
  readonly rootRenderFunc: unknown;
}

/** The fields of a nunjucks Template that compiling reads and sets (nunjucks/src/environment.js). */
interface TemplateInternals {
  env: object;
  path?: string;
  tmplStr?: string;
  tmplProps?: unknown;
  blocks: unknown;
  rootRenderFunc: unknown;
  compiled: boolean;
}

interface NunjucksLike {
  readonly Template: { readonly prototype: { _compile(this: TemplateInternals): void } };
}

// biome-ignore lint/suspicious/noExplicitAny: Eleventy ships no types
type EleventyConfig = any;

const caches = new WeakMap<object, Map<string, CompiledTemplate>>();
const patched = new WeakSet<object>();

export default function nunjucksCachePlugin(eleventyConfig: EleventyConfig): void {
  eleventyConfig.on(
    "eleventy.engine.njk",
    ({ nunjucks, environment }: { nunjucks: NunjucksLike; environment: object }) => {
      if (!caches.has(environment)) caches.set(environment, new Map());
      patchTemplate(nunjucks);
    },
  );
}

function patchTemplate(nunjucks: NunjucksLike): void {
  const prototype = nunjucks.Template.prototype;
  if (patched.has(prototype)) return;
  patched.add(prototype);
  const compile = prototype._compile;
  prototype._compile = function (this: TemplateInternals) {
    const cache = caches.get(this.env);
    // Environments this plugin was not given, and precompiled code, compile as before.
    if (!cache || this.tmplProps || typeof this.tmplStr !== "string") {
      compile.call(this);
      return;
    }
    const key = `${this.path ?? ""}\u0000${this.tmplStr}`;
    const hit = cache.get(key);
    if (hit) {
      this.blocks = hit.blocks;
      this.rootRenderFunc = hit.rootRenderFunc;
      this.compiled = true;
      return;
    }
    compile.call(this);
    cache.set(key, { blocks: this.blocks, rootRenderFunc: this.rootRenderFunc });
  };
}
