import type { RenderedPage } from "./page-template.ts";

/**
 * Eleventy's content preprocessors and transforms, run on the pages rendered
 * outside its pagination exactly as Eleventy runs them on its own
 * (Template.runPreprocessors and TransformsUtil.runAll in Eleventy 3.1): a
 * plugin such as a minifier or a base-path rewriter then treats every page
 * alike.
 */

// biome-ignore lint/suspicious/noExplicitAny: Eleventy's callbacks are untyped JavaScript
type Callback = (this: any, ...args: any[]) => unknown;

/** `eleventyConfig.transforms`: name -> callback. */
export type Transforms = Readonly<Record<string, Callback>>;

/** `eleventyConfig.preprocessors`: name -> file extensions and callback. */
export type Preprocessors = Readonly<
  Record<string, { readonly filter: string | readonly string[]; readonly callback: Callback }>
>;

/** The template's body after the preprocessors for its extension, or false to skip the template. */
export async function runPreprocessors(
  preprocessors: Preprocessors,
  inputPath: string,
  content: string,
  data: Record<string, unknown>,
): Promise<string | false> {
  let result = content;
  let skipped = false;
  for (const { filter, callback } of Object.values(preprocessors)) {
    const extensions = (typeof filter === "string" ? filter.split(",") : filter).map((extension) =>
      extension.startsWith(".") || extension === "*" ? extension : `.${extension}`,
    );
    if (!extensions.some((extension) => extension === "*" || inputPath.endsWith(extension))) {
      continue;
    }
    const returned = await callback.call({ inputPath }, data, result);
    // As in Eleventy: false skips the template, another falsy value changes nothing.
    if (returned === false) skipped = true;
    else if (typeof returned === "string" && returned) result = returned;
  }
  return skipped ? false : result;
}

/** The page's content after every transform, in the order they were added. */
export async function runTransforms(
  transforms: Transforms,
  page: RenderedPage,
  inputPath: string,
  outputPath: string,
): Promise<string> {
  let content = page.content;
  for (const callback of Object.values(transforms)) {
    content = String(
      await callback.call(
        { inputPath, outputPath, url: page.url, page: page.page, baseHref: undefined },
        content,
        outputPath,
      ),
    );
  }
  return content;
}
