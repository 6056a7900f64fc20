import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { basename, dirname, isAbsolute, join, relative } from "node:path";
import matter from "gray-matter";
import nunjucks from "nunjucks";
import { TemplateError } from "../errors.ts";

/**
 * A paginated Nunjucks page template (front matter, body, layout chain)
 * rendered one page at a time outside Eleventy's pagination, with the
 * Nunjucks environment Eleventy renders its own pages with: the same
 * filters (Eleventy's built-ins `url`, `slugify`, `log`... included),
 * shortcodes, tags, globals and options, by construction, since it is the
 * same object (src/eleventy/streamed-pages-plugin.ts). Eleventy's content
 * preprocessors run on the template and its transforms on every page
 * (src/render/eleventy-steps.ts), as Eleventy runs them.
 *
 * Eleventy keeps every paginated page's data and content until its build
 * ends, which made memory and time grow with the number of events
 * (docs/performance.md); here a page's data lives only while it renders. The
 * template is the file a site owner edits, read with Eleventy's own front
 * matter parser, and gets the data docs/site.md lists: global data, the
 * template's and its layouts' front matter, `pagination` (size 1) with its
 * alias, `page`, `permalink` and string values in `eleventyComputed`. A
 * template or folder data file (`*.11tydata.*`) would be part of Eleventy's
 * cascade too; rather than render without it, reading such a template fails.
 */

type Data = Record<string, unknown>;

/** One file of a template: the page itself or one of its layouts. */
export interface TemplateLayer {
  readonly path: string;
  readonly data: Data;
  readonly content: string;
}

/** A page template as read from disk. */
export interface PageTemplateSource {
  /** Relative to the input folder, e.g. "calendars/event.njk". */
  readonly template: string;
  /** As Eleventy reports it in `page.inputPath`: "./templates/calendars/event.njk". */
  readonly inputPath: string;
  /** The page first, then each layout it (transitively) uses. */
  readonly layers: readonly TemplateLayer[];
}

export interface TemplateFolders {
  readonly inputDir: string;
  readonly layoutsDir: string;
  /** Eleventy's front matter options (eleventyConfig.frontMatterParsingOptions). */
  readonly frontMatter?: object;
}

/**
 * The Nunjucks environment to compile with. The project's `nunjucks` is the
 * copy Eleventy renders with (package.json names the same package), so
 * templates compiled here and filters Eleventy added agree on safe strings.
 */
export type NunjucksEngine = nunjucks.Environment;

export interface RenderedPage {
  /** Relative to the output folder, e.g. "calendars/a/events/b/index.html". */
  readonly outputPath: string;
  /** `page.url`: the page's site path, e.g. "/calendars/a/events/b/". */
  readonly url: string;
  readonly content: string;
  /** The `page` data the page rendered with (what Eleventy's transforms see as `this.page`). */
  readonly page: Data;
}

/** Eleventy's template data file suffixes and extensions (its defaults). */
const DATA_FILE_EXTENSIONS = [".11tydata.js", ".11tydata.cjs", ".11tydata.mjs", ".11tydata.json"];

export async function readPageTemplate(
  template: string,
  folders: TemplateFolders,
): Promise<PageTemplateSource> {
  const read = async (path: string): Promise<TemplateLayer> => {
    const parsed = matter(await readFile(path, "utf8"), { ...folders.frontMatter });
    return { path, data: parsed.data as Data, content: parsed.content };
  };
  const file = join(folders.inputDir, template);
  refuseDataFiles(file, folders.inputDir, template);
  const layers = [await read(file)];
  for (let name = layers[0]?.data.layout; typeof name === "string"; ) {
    if (layers.length > 10) throw new TemplateError(`${template}: layouts nest too deep`);
    const layout = await read(join(folders.layoutsDir, name));
    layers.push(layout);
    name = layout.data.layout;
  }
  return { template, inputPath: projectPath(file), layers };
}

/** The template's own data file and those of the folders above it, up to the input folder. */
function refuseDataFiles(file: string, inputDir: string, template: string): void {
  const candidates = [file.replace(/\.njk$/, "")];
  for (let dir = dirname(file); relative(inputDir, dir) !== ".."; dir = dirname(dir)) {
    candidates.push(join(dir, basename(dir)));
    if (relative(inputDir, dir) === "") break;
  }
  for (const stem of candidates) {
    for (const extension of DATA_FILE_EXTENSIONS) {
      if (existsSync(stem + extension)) {
        throw new TemplateError(
          `${template} is rendered page by page outside Eleventy's pagination (docs/site.md, "Templates"), which does not read data files; move the data in ${relative(process.cwd(), stem + extension)} into global data or the template's front matter.`,
        );
      }
    }
  }
}

interface CompiledLayer {
  readonly data: Data;
  readonly template: nunjucks.Template;
}

export class PageTemplate {
  readonly template: string;
  readonly #page: CompiledLayer;
  readonly #layouts: readonly CompiledLayer[];
  readonly #data: Data;
  readonly #alias: string;
  readonly #dataPath: readonly string[];
  readonly #permalink: nunjucks.Template;
  readonly #computed: readonly (readonly [string, nunjucks.Template])[];
  readonly #pageInfo: Data;

  /** `content`: the page's body after Eleventy's preprocessors (the file's own by default). */
  constructor(source: PageTemplateSource, engine: NunjucksEngine, content?: string) {
    const { template } = source;
    this.template = template;
    // Compiled once here, for every page of the template; named as Eleventy
    // names its templates in errors ("./templates/calendars/event.njk").
    const compile = (text: string, path: string) =>
      new nunjucks.Template(text, engine, projectPath(path), true);
    const [page, ...layouts] = source.layers.map(
      (layer, index): CompiledLayer => ({
        data: layer.data,
        template: compile(
          index === 0 && content !== undefined ? content : layer.content,
          layer.path,
        ),
      }),
    );
    if (!page) throw new TemplateError(`${template}: no template`);
    this.#page = page;
    this.#layouts = layouts;
    this.#data = templateData(source);

    const pagination = page.data.pagination as Data | undefined;
    if (!pagination || typeof pagination.data !== "string") {
      throw new TemplateError(`${template}: a streamed page template needs pagination.data`);
    }
    if (pagination.size !== undefined && pagination.size !== 1) {
      throw new TemplateError(`${template}: streamed pages paginate one item per page (size: 1)`);
    }
    this.#dataPath = pagination.data.split(".");
    this.#alias = typeof pagination.alias === "string" ? pagination.alias : "item";
    const pagePath = source.layers[0]?.path ?? template;
    if (typeof page.data.permalink !== "string") {
      throw new TemplateError(`${template}: a streamed page template needs a permalink string`);
    }
    this.#permalink = compile(page.data.permalink, `${pagePath} (permalink)`);
    const computed = (page.data.eleventyComputed ?? {}) as Data;
    this.#computed = Object.entries(computed).map(([key, value]) => {
      if (typeof value !== "string") {
        throw new TemplateError(`${template}: eleventyComputed.${key} must be a template string`);
      }
      return [key, compile(value, `${pagePath} (eleventyComputed.${key})`)] as const;
    });
    const name = template.slice(template.lastIndexOf("/") + 1).replace(/\.njk$/, "");
    this.#pageInfo = {
      inputPath: source.inputPath,
      fileSlug: name === "index" ? "" : name,
      filePathStem: `/${template.replace(/\.njk$/, "")}`,
      templateSyntax: "njk",
    };
  }

  /** The items to paginate over, from `pagination.data` in the global data. */
  items(globals: Data): readonly unknown[] {
    let value: unknown = globals;
    for (const key of this.#dataPath) value = (value as Data | undefined)?.[key];
    if (!Array.isArray(value)) {
      throw new TemplateError(
        `${this.template}: pagination.data "${this.#dataPath.join(".")}" is not a list`,
      );
    }
    return value;
  }

  /**
   * The data of every page's permalink, with the globals it was made from:
   * Nunjucks renders with a copy of what it is given, so one object serves
   * each page's permalink in turn, where a copy of the globals per page was
   * made before (about 1 s of an edited build at 100,000 events, which asks
   * every page's path to keep it).
   */
  #permalinkData: { readonly globals: Data; readonly data: Data } | undefined;

  /** The file one item's page is written to, from the permalink alone (nothing else is rendered). */
  outputPath(globals: Data, item: unknown, pageNumber: number): string {
    if (this.#permalinkData?.globals !== globals) {
      this.#permalinkData = { globals, data: { ...globals, ...this.#data } };
    }
    return this.#place(this.#withItem(this.#permalinkData.data, item, pageNumber)).outputPath;
  }

  /** Renders the page for one item: permalink, computed data, body, then each layout. */
  render(globals: Data, item: unknown, pageNumber: number): RenderedPage {
    const data = this.#pageData(globals, item, pageNumber);
    const { permalink, outputPath, pageUrl } = this.#place(data);
    const page = {
      ...this.#pageInfo,
      url: pageUrl,
      outputPath,
      outputFileExtension: outputPath.slice(outputPath.lastIndexOf(".") + 1),
    };
    data.permalink = permalink;
    data.page = page;
    for (const [key, template] of this.#computed) data[key] = template.render(data);

    let content = this.#page.template.render(data);
    for (const layout of this.#layouts) {
      data.content = content;
      content = layout.template.render(data);
    }
    return { outputPath, url: pageUrl, content, page };
  }

  /** The data one item's page renders with, before its permalink and computed data. */
  #pageData(globals: Data, item: unknown, pageNumber: number): Data {
    return this.#withItem({ ...globals, ...this.#data }, item, pageNumber);
  }

  /** `data` as one item's page sees it: the item under its alias, and its pagination. */
  #withItem(data: Data, item: unknown, pageNumber: number): Data {
    data[this.#alias] = item;
    data.pagination = { size: 1, alias: this.#alias, pageNumber, items: [item] };
    return data;
  }

  /** Where a page goes, as Eleventy places it: its permalink, file and URL. */
  #place(data: Data): { permalink: string; outputPath: string; pageUrl: string } {
    const permalink = this.#permalink.render(data);
    const url = permalink.startsWith("/") ? permalink : `/${permalink}`;
    const outputPath = (url.endsWith("/") ? `${url}index.html` : url).slice(1);
    const pageUrl = url.endsWith("/index.html") ? url.slice(0, -"index.html".length) : url;
    return { permalink, outputPath, pageUrl };
  }
}

/** A path as Eleventy writes it: "./" before a path inside the project, none before "../". */
function projectPath(path: string): string {
  const from = relative(process.cwd(), path);
  return from.startsWith("..") || isAbsolute(from) ? from : `./${from}`;
}

/** The template's data: layout front matter under the template's, as in Eleventy's cascade. */
export function templateData(source: PageTemplateSource): Data {
  const [page, ...layouts] = source.layers;
  return Object.assign({}, ...layouts.map((layout) => layout.data).reverse(), page?.data);
}
