import { readFile } from "node:fs/promises";
import { join, relative } from "node:path";
import matter from "gray-matter";
import type nunjucks from "nunjucks";

/**
 * A paginated Nunjucks page template (front matter, body, layout chain)
 * rendered one page at a time outside Eleventy's pagination, with the same
 * Nunjucks environment (filters, includes, options) Eleventy uses.
 *
 * Eleventy keeps every paginated page's data until its build ends, which made
 * memory and time grow with the number of events (docs/performance.md); here a
 * page's data lives only while that page renders. The template is the same
 * file a site owner edits, read with Eleventy's own front matter parser and
 * the subset of its data cascade docs/site.md lists: global data, the
 * template's and its layouts' front matter, `pagination` (size 1) with its
 * alias, `page`, `permalink` and string values in `eleventyComputed`.
 */

type Data = Record<string, unknown>;

export interface PageTemplateOptions {
  /**
   * Eleventy's Nunjucks library and environment, with the site's filters and
   * includes. Eleventy ships its own Nunjucks; compiling with another copy
   * would not recognize its safe strings.
   */
  readonly nunjucks: Pick<typeof nunjucks, "Template">;
  readonly env: nunjucks.Environment;
  /** The project root, for `page.inputPath` ("./templates/...") as Eleventy reports it. */
  readonly root: string;
  readonly inputDir: string;
  readonly layoutsDir: string;
  /** Template path relative to `inputDir`, e.g. "calendars/event.njk". */
  readonly template: string;
  /** Eleventy's front matter options (eleventyConfig.frontMatterParsingOptions). */
  readonly frontMatter?: object;
}

export interface RenderedPage {
  /** Relative to the output folder, e.g. "calendars/a/events/b/index.html". */
  readonly outputPath: string;
  readonly url: string;
  readonly content: string;
}

interface Layer {
  readonly data: Data;
  readonly template: nunjucks.Template;
  readonly path: string;
}

export class PageTemplate {
  readonly template: string;
  readonly #options: PageTemplateOptions;
  readonly #page: Layer;
  readonly #layouts: readonly Layer[];
  readonly #alias: string;
  readonly #dataPath: readonly string[];
  readonly #permalink: nunjucks.Template;
  readonly #computed: readonly (readonly [string, nunjucks.Template])[];
  readonly #inputPath: string;

  private constructor(options: PageTemplateOptions, page: Layer, layouts: Layer[]) {
    this.template = options.template;
    this.#options = options;
    this.#page = page;
    this.#layouts = layouts;
    const pagination = page.data.pagination as Data | undefined;
    if (!pagination || typeof pagination.data !== "string") {
      throw new Error(`${options.template}: a streamed page template needs pagination.data`);
    }
    if (pagination.size !== undefined && pagination.size !== 1) {
      throw new Error(`${options.template}: streamed pages paginate one item per page (size: 1)`);
    }
    this.#dataPath = pagination.data.split(".");
    this.#alias = typeof pagination.alias === "string" ? pagination.alias : "item";
    if (typeof page.data.permalink !== "string") {
      throw new Error(`${options.template}: a streamed page template needs a permalink string`);
    }
    this.#permalink = this.#compile(page.data.permalink, `${page.path} (permalink)`);
    const computed = (page.data.eleventyComputed ?? {}) as Data;
    this.#computed = Object.entries(computed).map(([key, value]) => {
      if (typeof value !== "string") {
        throw new Error(`${options.template}: eleventyComputed.${key} must be a template string`);
      }
      return [key, this.#compile(value, `${page.path} (eleventyComputed.${key})`)] as const;
    });
    this.#inputPath = `./${relative(options.root, join(options.inputDir, options.template))}`;
  }

  static async load(options: PageTemplateOptions): Promise<PageTemplate> {
    const page = await readLayer(options, join(options.inputDir, options.template));
    const layouts: Layer[] = [];
    for (let name = page.data.layout; typeof name === "string"; ) {
      if (layouts.length > 10) throw new Error(`${options.template}: layouts nest too deep`);
      const layout = await readLayer(options, join(options.layoutsDir, name));
      layouts.push(layout);
      name = layout.data.layout;
    }
    return new PageTemplate(options, page, layouts);
  }

  /** The items to paginate over, from `pagination.data` in the global data. */
  items(globals: Data): readonly unknown[] {
    let value: unknown = globals;
    for (const key of this.#dataPath) value = (value as Data | undefined)?.[key];
    if (!Array.isArray(value)) {
      throw new Error(
        `${this.template}: pagination.data "${this.#dataPath.join(".")}" is not a list`,
      );
    }
    return value;
  }

  /** Renders the page for one item: permalink, computed data, body, then each layout. */
  render(globals: Data, item: unknown, pageNumber: number): RenderedPage {
    // Layout front matter sits under the template's, as in Eleventy's cascade.
    const data: Data = { ...globals };
    for (let i = this.#layouts.length - 1; i >= 0; i--) Object.assign(data, this.#layouts[i]?.data);
    Object.assign(data, this.#page.data);
    data[this.#alias] = item;
    data.pagination = { size: 1, alias: this.#alias, pageNumber, items: [item] };

    const permalink = this.#permalink.render(data);
    const url = permalink.startsWith("/") ? permalink : `/${permalink}`;
    const outputPath = (url.endsWith("/") ? `${url}index.html` : url).slice(1);
    data.permalink = permalink;
    data.page = {
      url: url.endsWith("/index.html") ? url.slice(0, -"index.html".length) : url,
      outputPath,
      inputPath: this.#inputPath,
      fileSlug: this.#fileSlug(),
      filePathStem: this.#inputPath.slice(this.#inputPath.indexOf("/", 2)).replace(/\.njk$/, ""),
      outputFileExtension: outputPath.slice(outputPath.lastIndexOf(".") + 1),
      templateSyntax: "njk",
    };
    for (const [key, template] of this.#computed) data[key] = template.render(data);

    let content = this.#page.template.render(data);
    for (const layout of this.#layouts) {
      data.content = content;
      content = layout.template.render(data);
    }
    return { outputPath, url: (data.page as Data).url as string, content };
  }

  #fileSlug(): string {
    const name = this.template.slice(this.template.lastIndexOf("/") + 1).replace(/\.njk$/, "");
    return name === "index" ? "" : name;
  }

  #compile(source: string, path: string): nunjucks.Template {
    return new this.#options.nunjucks.Template(source, this.#options.env, path, true);
  }
}

async function readLayer(options: PageTemplateOptions, path: string): Promise<Layer> {
  const parsed = matter(await readFile(path, "utf8"), { ...options.frontMatter });
  return {
    data: parsed.data as Data,
    template: new options.nunjucks.Template(parsed.content, options.env, path, true),
    path,
  };
}
