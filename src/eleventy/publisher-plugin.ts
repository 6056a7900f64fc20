import { readFileSync } from "node:fs";
import { relative, resolve } from "node:path";
import { defaultHeaderRules } from "../build/headers.ts";
import { hostOutputs } from "../build/host-files.ts";
import { withMapTiles } from "../build/map-policy.ts";
import { pagePathOf } from "../build/page-policy.ts";
import { type CardsSummary, ShareCards, type ShareCardsSetup } from "../cards/share-cards.ts";
import type { DeployTarget } from "../config/deploy.ts";
import type { SiteConfig } from "../config/site.ts";
import { count, timed, timedAsync } from "../metrics.ts";
import type { CalendarEvent } from "../model/types.ts";
import { paths } from "../model/url-scheme.ts";
import { feedFileGroups } from "../outputs/feed-files.ts";
import { FeedScopes } from "../outputs/feed-scopes.ts";
import { renderEventIcs } from "../outputs/ics.ts";
import { icsDataUrl } from "../outputs/ics-add-to-calendar.ts";
import { PublicJson } from "../outputs/public-json.ts";
import { publicJsonFileGroups } from "../outputs/public-json-files.ts";
import { type RichResults, RichResultsTally } from "../outputs/rich-results.ts";
import { sitemapFileGroup } from "../outputs/sitemap-files.ts";
import { whenJsonFileGroup } from "../outputs/when-json.ts";
import { EventLoopTurns } from "../render/event-loop-turns.ts";
import { type FileGroup, fileGroup, singleFile, writeFileGroups } from "../render/file-group.ts";
import { FileWriter } from "../render/file-writer.ts";
import type { KnownFile, PublishedFiles } from "../render/published-copy.ts";
import { searchFacts } from "../search/search-facts.ts";
import { buildSearchIndex, type SearchIndexStats } from "../search/search-index.ts";
import { eventShardKey, owns, type Shard, type ShardKey, WHOLE_BUILD } from "../shards/shard.ts";
import { calendarColorsCss } from "../site/calendar-colors.ts";
import type { SiteData } from "../site/load.ts";
import type { MediaFile } from "../site/media.ts";
import { siteScriptFiles } from "../site/site-scripts.ts";
import { sitemapEntries } from "../site/sitemap.ts";
import { widgetFileGroups } from "../widget/widget-files.ts";
import feedsPlugin from "./feeds-plugin.ts";
import placesPlugin from "./places-plugin.ts";
import type { Publication } from "./publication.ts";
import searchPlugin from "./search-plugin.ts";
import sitePlugin from "./site-plugin.ts";
import { StreamedPages } from "./streamed-pages.ts";
import whenPlugin from "./when-plugin.ts";
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
  /** Share cards (src/cards): the studio that renders them and SHARE_CARDS; none when absent. */
  readonly cards?: ShareCardsSetup | null;
  /** A split build's share (src/shards); default: the whole build. */
  readonly shard?: Shard;
  /** The last publish's files: those this run would write again unchanged are kept (src/render/published-copy.ts). */
  readonly published?: PublishedFiles | null;
}

export interface WrittenFiles {
  readonly files: number;
  readonly bytes: number;
  /** What the outputs had to change to be usable (a subscription trimmed to its size budget). */
  readonly warnings: readonly string[];
  readonly searchIndex: SearchIndexStats;
  /** What of Google's Event rich results the event pages' JSON-LD carries. */
  readonly richResults: RichResults;
  /** The share cards for the build report; null without cards. */
  readonly cards: CardsSummary | null;
  /** Every file written besides Eleventy's pages, hashed (src/build/output-files.ts reads them). */
  readonly known: ReadonlyMap<string, KnownFile>;
}

/**
 * The templates rendered one page at a time outside Eleventy's pagination:
 * a page per event, and every other template with a page per item (lists,
 * months, categories, places, series, the "when" pages), whose number grows
 * with the events. Eleventy keeps every page it renders until its run ends:
 * at 100,000 events the 13,208 list, month, category and "when" pages it
 * rendered held 1.4 GB (docs/performance.md, "Memory at 100,000 events").
 */
const STREAMED_TEMPLATES = [
  "calendars/event.njk",
  "calendars/list.njk",
  "calendars/month.njk",
  "categories/category.njk",
  "events.njk",
  "when/when.njk",
  "places/place.njk",
  "series/series.njk",
];

/** Which shard renders a streamed page: an event's page goes with its event, the others are site-wide. */
function streamedShardKey(template: string, item: unknown): ShardKey {
  return template === "calendars/event.njk"
    ? eventShardKey((item as { event: CalendarEvent }).event)
    : null;
}

export default function publisherPlugin(
  eleventyConfig: EleventyConfig,
  options: PublisherOptions,
): void {
  const { site } = options;
  const shard = options.shard ?? WHOLE_BUILD;
  // The place pages admit MAP_TILES_URL's tile server in what the host reads (src/build/map-policy.ts).
  const host = hostOutputs(
    options.deployTarget ?? "netlify",
    withMapTiles(defaultHeaderRules(), site.map),
  );
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
  eleventyConfig.addPlugin(widgetPlugin, { site, deployTarget: options.deployTarget });
  eleventyConfig.addPlugin(searchPlugin, { current });
  eleventyConfig.addPlugin(whenPlugin, { site, current });
  eleventyConfig.addPlugin(placesPlugin, { site, current });
  if (owns(shard, null)) {
    eleventyConfig.addPassthroughCopy({ "templates/assets": "assets" });
  } else {
    // Another shard than the first renders only per-event files: none of
    // Eleventy's own pages, which are site-wide (the streamed ones still
    // render with Eleventy's engine and data, see streamed-pages.ts).
    const input = relative(
      process.cwd(),
      resolve(eleventyConfig.directories?.input ?? "templates"),
    );
    eleventyConfig.ignores.add(`${input}/**`);
  }
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
      const writer = new FileWriter(output, { taken, published: options.published });
      // Pagefind and the card workers go on beside the rendering only if the event loop turns.
      const turns = new EventLoopTurns();
      await streamed.render(writer, turns, (template, item) =>
        owns(shard, streamedShardKey(template, item)),
      );
      const groups = [...siteFileGroups(publication, warnings), ...host.files];
      await writeFileGroups(
        [
          ...(hostPage ? groups.map((group) => pagesWith(group, hostPage)) : groups),
          mediaFiles(publication.data.media),
        ],
        writer,
        turns,
        shard,
      );
      const { cards } = publication;
      let cardsSummary: CardsSummary | null = null;
      if (cards && options.cards) {
        // Rendered in the background since the data was loaded (or earlier); the rest is waited for here.
        await timedAsync("cards", () => cards.settled());
        await writeFileGroups(
          [cards.fileGroup((path) => readFileSync(path))],
          writer,
          turns,
          shard,
        );
        warnings.push(...options.cards.studio.takeWarnings());
        const { stats } = options.cards.studio;
        count("cards.busyMs", Math.round(stats.busyMs));
        count("cards.peakRssMB", stats.peakRssMB);
        count("cards.structuredDataFiles", cards.structuredDataFiles());
        cardsSummary = cards.summary(options.cards.studio.renderedSinceLastAsked());
        // The cache keeps the site's cards, nothing older; shards may share
        // a cache folder, and each knows every card, so none removes another's.
        options.cards.studio.prune(cards.keys());
      }
      const index = await timedAsync("search index", () => searchIndex);
      const indexStats = timed("search index", () => index.writeTo(writer));
      options.onWritten?.({
        files: writer.files,
        bytes: writer.bytes,
        warnings: [...new Set(warnings)],
        searchIndex: indexStats,
        richResults: publication.richResults.summary(),
        cards: cardsSummary,
        known: writer.known,
      });
      // The run's data goes with the run. Eleventy keeps its last layouts in
      // a cache of its module, and through them its Nunjucks environment and
      // this plugin's filters: holding the run here would keep the site's data
      // for as long as the process, through the publish step that follows.
      run = undefined;
      ready = undefined;
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
  const searchIndex = buildSearchIndex(data, options.site, {
    cacheDir: options.cacheDir,
    shard: options.shard,
  });
  searchIndex.catch(() => {}); // awaited once Eleventy has rendered, unless rendering fails first
  const scopes = new FeedScopes(data, options.site, warn);
  // Every calendar file's size budget is worked out here, once, rather than
  // inside the first page that mentions it; by the shard that writes them.
  if (owns(options.shard ?? WHOLE_BUILD, null)) {
    timed("ics", () => {
      for (const scope of scopes.withFiles) scopes.plan(scope);
    });
  }
  // Every card is asked for now, and renders while Eleventy renders the pages.
  const cards =
    options.cards &&
    timed("cards", () => {
      const { studio, mode } = options.cards as ShareCardsSetup;
      return new ShareCards(data, options.site, studio, mode, options.shard);
    });
  return {
    publication: {
      data,
      site: options.site,
      scopes,
      searchFacts: searchFacts(data, options.site),
      richResults: new RichResultsTally(),
      cards: cards ?? null,
    },
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
    siteScriptFiles(),
    singleFile("widget", paths.asset("calendars.css"), () => calendarColorsCss(data.calendars)),
    ...feedFileGroups(scopes, (message) => warnings.push(message)),
    ...publicJsonFileGroups(data, json),
    whenJsonFileGroup(data.when, site.url),
    sitemapFileGroup(sitemapEntries(data), (path) => site.urls.absolute(path)),
    ...widgetFileGroups(data, site, json, {
      pages: data.views.eventPages,
      inlineIcs: (event) =>
        icsDataUrl(renderEventIcs(event, { site, dataUpdatedAt: scopes.dataUpdatedAt })),
    }),
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
