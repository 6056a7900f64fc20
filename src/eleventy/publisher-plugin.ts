import { readFileSync } from "node:fs";
import { relative, resolve } from "node:path";
import { hostOutputs } from "../build/host-files.ts";
import { pagePathOf } from "../build/page-policy.ts";
import type { DeployTarget } from "../config/deploy.ts";
import type { SiteConfig } from "../config/site.ts";
import { count, timed, timedAsync } from "../metrics.ts";
import { paths } from "../model/url-scheme.ts";
import { feedFileGroups } from "../outputs/feed-files.ts";
import { FeedScopes } from "../outputs/feed-scopes.ts";
import { PublicJson } from "../outputs/public-json.ts";
import { publicJsonFileGroups } from "../outputs/public-json-files.ts";
import { type FileGroup, fileGroup, singleFile, writeFileGroups } from "../render/file-group.ts";
import { FileWriter } from "../render/file-writer.ts";
import { searchFacts } from "../search/search-facts.ts";
import { buildSearchIndex, type SearchIndexStats } from "../search/search-index.ts";
import { calendarColorsCss } from "../site/calendar-colors.ts";
import type { SiteData } from "../site/load.ts";
import type { MediaFile } from "../site/media.ts";
import { widgetFileGroups } from "../widget/widget-files.ts";
import feedsPlugin from "./feeds-plugin.ts";
import type { Publication } from "./publication.ts";
import searchPlugin from "./search-plugin.ts";
import sitePlugin from "./site-plugin.ts";
import { StreamedPages } from "./streamed-pages.ts";
import widgetPlugin from "./widget-plugin.ts";

/**
 * The publisher in Eleventy: the one plugin `npm run build` and `npm start`
 * add, with the build's settings and a way to load the site's data. Eleventy
 * renders the pages of templates/ with the filters of the site, feeds,
 * widget and search plugins; once it has, the same run writes the pages with
 * one file per event (src/eleventy/streamed-pages.ts) and every other file
 * (feeds, calendars, public JSON, widget, images, search index) through one
 * writer, and reports what it wrote.
 */

// biome-ignore lint/suspicious/noExplicitAny: Eleventy ships no types
type EleventyConfig = any;

export interface PublisherOptions {
  readonly site: SiteConfig;
  /** EVENT_API_CACHE_DIR: the search index's unchanged parts are reused from there. */
  readonly cacheDir: string;
  /** The site's data for one run: a build loads it once; `npm start` again for every rebuild. */
  readonly loadData: () => Promise<SiteData>;
  /** Told what each run wrote besides Eleventy's own pages. */
  readonly onWritten?: (written: WrittenFiles) => void;
  /** Templates with one page per item of their pagination (default: the event page). */
  readonly streamedTemplates?: readonly string[];
  /** DEPLOY_TARGET: the files its host reads, and what its pages need (default netlify: none). */
  readonly deployTarget?: DeployTarget;
}

export interface WrittenFiles {
  readonly files: number;
  readonly bytes: number;
  /** What the outputs had to change to be usable (a subscription trimmed to its size budget). */
  readonly warnings: readonly string[];
  readonly searchIndex: SearchIndexStats;
}

/** The templates rendered one page at a time outside Eleventy's pagination. */
const STREAMED_TEMPLATES = ["calendars/event.njk"];

export default function publisherPlugin(
  eleventyConfig: EleventyConfig,
  options: PublisherOptions,
): void {
  const { site } = options;
  const host = hostOutputs(options.deployTarget ?? "netlify");
  // This run's data and what is derived from it once; Eleventy awaits
  // "eleventy.before", so every template and filter of the run sees it.
  let run: Promise<Run> | undefined;
  let ready: Run | undefined;
  const current = (): Publication => {
    if (!ready) throw new Error("The site's data is not loaded yet.");
    return ready.publication;
  };
  eleventyConfig.on("eleventy.before", async () => {
    ready = undefined;
    run = startRun(options);
    ready = await run;
  });
  // The two globals every template reads (_data/README.md).
  eleventyConfig.addGlobalData("site", () => site);
  eleventyConfig.addGlobalData("portal", async () => (await requireRun(run)).publication.data);

  eleventyConfig.addPlugin(sitePlugin, { site, current });
  eleventyConfig.addPlugin(feedsPlugin, { site, current });
  eleventyConfig.addPlugin(widgetPlugin, { site });
  eleventyConfig.addPlugin(searchPlugin, { current });
  eleventyConfig.addPassthroughCopy({ "templates/assets": "assets" });
  const hostPage = host.page;
  if (hostPage) {
    // Eleventy's pages and the streamed ones (which run Eleventy's transforms).
    eleventyConfig.addTransform(
      "host-page",
      function (this: { page?: { url?: unknown } }, content: string, outputPath: string) {
        const url = this.page?.url;
        if (typeof outputPath !== "string" || !outputPath.endsWith(".html")) return content;
        return hostPage(content, typeof url === "string" ? url : pagePathOf(outputPath));
      },
    );
  }
  const streamed = new StreamedPages(
    eleventyConfig,
    options.streamedTemplates ?? STREAMED_TEMPLATES,
  );

  eleventyConfig.on(
    "eleventy.after",
    async (event: {
      directories: { output: string };
      results: readonly { outputPath: string | false }[];
    }) => {
      const { publication, searchIndex, warnings } = await requireRun(run);
      const output = resolve(event.directories.output);
      const taken = event.results.flatMap((result) =>
        result.outputPath ? [relative(output, resolve(result.outputPath))] : [],
      );
      count("rendered.eleventy", taken.length);
      const writer = new FileWriter(output, { taken });
      await streamed.render(writer);
      const groups = [...siteFileGroups(publication, warnings), ...host.files];
      writeFileGroups(
        [
          ...(hostPage ? groups.map((group) => pagesWith(group, hostPage)) : groups),
          mediaFiles(publication.data.media),
        ],
        writer,
      );
      const index = await timedAsync("search index", () => searchIndex);
      const indexStats = timed("search index", () => index.writeTo(writer));
      options.onWritten?.({
        files: writer.files,
        bytes: writer.bytes,
        warnings: [...new Set(warnings)],
        searchIndex: indexStats,
      });
    },
  );
}

interface Run {
  readonly publication: Publication;
  readonly searchIndex: ReturnType<typeof buildSearchIndex>;
  readonly warnings: string[];
}

async function startRun(options: PublisherOptions): Promise<Run> {
  const data = await options.loadData();
  const warnings: string[] = [];
  const warn = (message: string) => {
    warnings.push(message);
  };
  // Pagefind indexes in its own process while Eleventy renders; the files are written after.
  const searchIndex = buildSearchIndex(data, options.site, { cacheDir: options.cacheDir });
  searchIndex.catch(() => {}); // awaited once Eleventy has rendered, unless rendering fails first
  const scopes = new FeedScopes(data, options.site, warn);
  // Every calendar file's size budget is worked out here, once, rather than
  // inside the first page that mentions it.
  timed("ics", () => {
    for (const scope of scopes.withFiles) scopes.plan(scope);
  });
  return {
    publication: { data, site: options.site, scopes, searchFacts: searchFacts(data, options.site) },
    searchIndex,
    warnings,
  };
}

async function requireRun(run: Promise<Run> | undefined): Promise<Run> {
  if (!run) throw new Error("Eleventy rendered before the site's data was loaded.");
  return run;
}

/** Every file that is not a page: feeds and calendars, public JSON, widget, calendar colours. */
function siteFileGroups(publication: Publication, warnings: string[]): FileGroup[] {
  const { data, site, scopes } = publication;
  const json = new PublicJson(data, site);
  return [
    singleFile("widget", paths.asset("calendars.css"), () => calendarColorsCss(data.calendars)),
    ...feedFileGroups(scopes, (message) => warnings.push(message)),
    ...publicJsonFileGroups(data, json),
    ...widgetFileGroups(data, site, json),
  ];
}

/** A group whose HTML pages (the widget's) get what the host needs, as Eleventy's pages do. */
function pagesWith(group: FileGroup, page: (html: string, sitePath: string) => string): FileGroup {
  return {
    ...group,
    path: (item) => group.path(item),
    render: (item) => {
      const content = group.render(item);
      const path = group.path(item);
      return typeof content === "string" && path.endsWith(".html")
        ? page(content, pagePathOf(path))
        : content;
    },
  };
}

/** Images downloaded while the data was loaded, copied from the cache into the site. */
function mediaFiles(media: readonly MediaFile[]): FileGroup {
  return fileGroup<MediaFile>({
    phase: "images",
    name: "media",
    items: media,
    path: (file) => file.path,
    render: (file) => readFileSync(file.cachePath),
  });
}
