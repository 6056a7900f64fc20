import { readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { siteScriptFiles } from "../bundle/site-scripts.ts";
import { type CardsSummary, ShareCards, type ShareCardsSetup } from "../cards/share-cards.ts";
import type { DeployTarget } from "../config/deploy.ts";
import type { SiteConfig } from "../config/site.ts";
import { digestFileGroups } from "../digest/digest-files.ts";
import { fediverseFileGroups } from "../fediverse/fediverse-files.ts";
import { hostOutputs } from "../hosts/host-files.ts";
import { pagePathOf } from "../hosts/page-policy.ts";
import { siteHeaderRules } from "../hosts/site-rules.ts";
import type { MediaFile } from "../media/localize-images.ts";
import { count, timed, timedAsync } from "../metrics.ts";
import type { KeptReads } from "../model/kept-reads.ts";
import type { CalendarEvent } from "../model/types.ts";
import { paths } from "../model/url-scheme.ts";
import { calendarTrimWarnings, EVENT_ICS_GROUP, feedFileGroups } from "../outputs/feed-files.ts";
import { FeedScopes } from "../outputs/feed-scopes.ts";
import { renderEventIcs } from "../outputs/ics.ts";
import { icsDataUrl } from "../outputs/ics-add-to-calendar.ts";
import { earlierMoment } from "../outputs/ics-budget.ts";
import { PublicJson } from "../outputs/public-json.ts";
import { publicJsonFileGroups } from "../outputs/public-json-files.ts";
import { type RichResults, RichResultsTally } from "../outputs/rich-results.ts";
import { sitemapFileGroup } from "../outputs/sitemap-files.ts";
import { VeventSizes } from "../outputs/vevent-sizes.ts";
import { whenJsonFileGroup } from "../outputs/when-json.ts";
import type { DiskWrites } from "../render/disk-writes.ts";
import { EventLoopTurns } from "../render/event-loop-turns.ts";
import { type FileGroup, fileGroup, singleFile, writeFileGroups } from "../render/file-group.ts";
import { FileWriter } from "../render/file-writer.ts";
import type { KnownFile, PublishedFiles } from "../render/published-files.ts";
import type { FilterLookup, PageInputs, StreamTarget } from "../render/streamed-pages.ts";
import { searchFacts } from "../search/search-facts.ts";
import { buildSearchIndex, type SearchIndexStats } from "../search/search-index.ts";
import { eventShardKey, owns, type Shard, type ShardKey, WHOLE_BUILD } from "../shards/shard.ts";
import { calendarColorsCss } from "../site/calendar-colors.ts";
import type { SiteData } from "../site/load.ts";
import { sitemapEntries } from "../site/sitemap.ts";
import { EVENT_EMBED_GROUPS } from "../widget/event-card/event-card-files.ts";
import { widgetFileGroups } from "../widget/widget-files.ts";
import { EVENT_PAGE_TEMPLATE, eventPageInputs } from "./event-page-inputs.ts";
import fediversePlugin from "./fediverse-plugin.ts";
import feedsPlugin from "./feeds-plugin.ts";
import languagesPlugin from "./languages-plugin.ts";
import { LISTING_TEMPLATES, listingPagesInputs } from "./listing-page-inputs.ts";
import { PAGE_RECORD_FILE, pageRecord } from "./page-record.ts";
import placesPlugin from "./places-plugin.ts";
import type { Publication } from "./publication.ts";
import searchPlugin from "./search-plugin.ts";
import sitePlugin from "./site-plugin.ts";
import streamedPagesPlugin, { STREAMED_PAGES_TEMPLATE } from "./streamed-pages-plugin.ts";
import whenPlugin from "./when-plugin.ts";
import widgetPlugin from "./widget-plugin.ts";

/**
 * The publisher in Eleventy: the one plugin `npm run build` and `npm start`
 * add, with the build's settings and a way to load the site's data. Eleventy
 * renders the pages of templates/ with the filters of the site, feeds,
 * widget and search plugins; once it has, the same run writes the pages with
 * one file per event (src/eleventy/streamed-pages-plugin.ts) and every other file
 * (feeds, calendars, public JSON, widget, images, search index) through one
 * writer, and reports what it wrote.
 */

// biome-ignore lint/suspicious/noExplicitAny: Eleventy ships no types
type EleventyConfig = any;

export interface PublisherOptions {
  readonly site: SiteConfig;
  /** EVENT_API_CACHE_DIR: the search index's unchanged parts and the VEVENTs' sizes are reused from there. */
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
  /**
   * Where the files' bytes go (src/render/disk-writes.ts): a build's thread
   * of its own, which the build waits for; by default written at once.
   */
  readonly disk?: DiskWrites;
  /** A split build's share (src/shards); default: the whole build. */
  readonly shard?: Shard;
  /** The last publish's files: those this run would write again unchanged are kept (src/render/published-files.ts). */
  readonly published?: PublishedFiles | null;
  /** The folder every file but Eleventy's own pages is written to (Eleventy's output, or a shard's). */
  readonly output: string;
  /**
   * Where `output` is in the published site: "" for its root, a language's
   * folder ("fr/") for each of the site's other languages (SITE_LANGUAGES,
   * docs/translating.md). A language's folder leaves what the site has once
   * to the root's run: the images, the share cards, the sitemap, robots.txt,
   * the host's files and the manifest (and its settings have no fediverse
   * account or IndexNow key: src/config/site.ts, siteInLanguage).
   */
  readonly folder?: string;
  /** In a language's folder: the root's share cards, which its pages name rather than draw their own. */
  readonly rootCards?: ShareCards | null;
  /**
   * The streamed pages' record (src/eleventy/page-record.ts), kept in
   * `cacheDir`: when the published site next changes by date alone, and
   * whether it is verified (PAGE_RECORD=verify); null or absent: no record.
   */
  readonly pageRecord?: { readonly until: number | null; readonly verify: boolean } | null;
  /** The kept files a build started ahead read (src/ready); read now when absent. */
  readonly reads?: KeptReads;
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
  /** Every file written besides Eleventy's pages, hashed (src/publish/output-files.ts reads them). */
  readonly known: ReadonlyMap<string, KnownFile>;
  /** Files of one per event, which hosts' file limits are about (src/publish/host-limits.ts). */
  readonly perEvent: PerEventFiles;
  /** The run's share cards, which the site's other languages name (null without cards). */
  readonly shareCards: ShareCards | null;
  /**
   * When the calendar files' size plans could change by date alone
   * (FeedScopes.plansChangeAt): a moment of the build's next date change.
   */
  readonly plansChangeAt: number | null;
}

export interface PerEventFiles {
  readonly eventIcs: number;
  /** Event cards and their oEmbed answers. */
  readonly eventEmbeds: number;
  /** Share cards in Google's shapes for event results. */
  readonly structuredDataCards: number;
}

/** The one template of Eleventy's own that only the site's root has (robots.txt). */
const ROOT_ONLY_TEMPLATE = "robots.njk";

/**
 * The templates rendered one page at a time outside Eleventy's pagination:
 * a page per event, and every other template with a page per item (lists,
 * months, categories, places, series, the "when" pages, the organizations'
 * pages of a site of several sources), whose number grows
 * with the events. Eleventy keeps every page it renders until its run ends:
 * at 100,000 events the 13,208 list, month, category and "when" pages it
 * rendered held 1.4 GB (docs/performance.md, "Memory at 100,000 events").
 */
const STREAMED_TEMPLATES = [EVENT_PAGE_TEMPLATE, ...LISTING_TEMPLATES];

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
  const folder = options.folder ?? "";
  // The site's once-only files are the root's (src/config/site-languages.ts).
  const root = folder === "";
  // The embed pages name the site's origin and the place pages admit MAP_TILES_URL's
  // tile server in what the host reads (src/hosts/site-rules.ts).
  const deployTarget = options.deployTarget ?? "netlify";
  const headerRules = siteHeaderRules(site);
  const host = hostOutputs(deployTarget, headerRules);
  // What the host's transform does to every page, among each page's inputs.
  const hostInputs = JSON.stringify([deployTarget, host.page ? headerRules : null]);
  // This run's data, what is derived from it once and where its files go;
  // Eleventy awaits "eleventy.before", so every template and filter of the run sees it.
  let run: Promise<Run> | undefined;
  let ready: Run | undefined;
  const current = (): Run => {
    if (!ready) throw new Error("The site's data is not loaded yet.");
    return ready;
  };
  eleventyConfig.on("eleventy.before", async () => {
    ready = undefined;
    run = startRun(options);
    ready = await run;
  });
  // The two globals every template reads (_data/README.md).
  eleventyConfig.addGlobalData("site", () => site);
  eleventyConfig.addGlobalData("portal", async () => (await requireRun(run)).publication.data);

  const publication = () => current().publication;
  eleventyConfig.addPlugin(sitePlugin, { site, current: publication });
  eleventyConfig.addPlugin(feedsPlugin, { site, current: publication });
  eleventyConfig.addPlugin(widgetPlugin, { site, deployTarget: options.deployTarget });
  eleventyConfig.addPlugin(searchPlugin, { current: publication });
  eleventyConfig.addPlugin(whenPlugin, { site, current: publication });
  eleventyConfig.addPlugin(placesPlugin, { site, current: publication });
  eleventyConfig.addPlugin(fediversePlugin, { site });
  eleventyConfig.addPlugin(languagesPlugin, { site });
  // Pages with one page per item, written by this run's writer; an event's
  // page by the shard that owns the event, the others by the first.
  const streamedTemplates = options.streamedTemplates ?? STREAMED_TEMPLATES;
  eleventyConfig.addPlugin(streamedPagesPlugin, {
    templates: streamedTemplates,
    target: (): StreamTarget => {
      const { writer, turns } = current();
      const mine = (template: string, item: unknown) =>
        owns(shard, streamedShardKey(template, item));
      // A page is kept as published while what it shows is unchanged.
      // The listing templates share what they read of the site: read once for the run's data.
      const listings = new WeakMap<object, (template: string) => PageInputs | undefined>();
      const inputs = (template: string, globals: Record<string, unknown>) => {
        if (template === EVENT_PAGE_TEMPLATE) return eventPageInputs(globals, hostInputs);
        let of = listings.get(globals);
        if (!of) {
          of = listingPagesInputs(globals, hostInputs);
          listings.set(globals, of);
        }
        return of(template);
      };
      const recorded = options.pageRecord;
      // A split build visits its share of the pages: its record would name only those.
      const record =
        recorded && shard === WHOLE_BUILD
          ? (globals: Record<string, unknown>, filter: FilterLookup) =>
              pageRecord(
                {
                  file: join(options.cacheDir, PAGE_RECORD_FILE),
                  now: site.now.toMillis(),
                  // A calendar file's trim, which pages show, may move by date before the rest.
                  until: earlierMoment(
                    recorded.until,
                    current().publication.scopes.plansChangeAt(),
                  ),
                  verify: recorded.verify,
                  hostInputs,
                },
                globals,
                filter,
              )
          : undefined;
      return { output: options.output, writer, turns, mine, inputs, record };
    },
  });
  if (!root) {
    // robots.txt is the host's, read at its root only.
    const robots = resolve(eleventyConfig.directories.input, ROOT_ONLY_TEMPLATE);
    eleventyConfig.addPreprocessor("root-only", "*", function (this: { inputPath: string }) {
      return resolve(this.inputPath) === robots ? false : undefined;
    });
  }
  if (owns(shard, null)) {
    eleventyConfig.addPassthroughCopy({ "templates/assets": "assets" });
  } else {
    // Eleventy's own pages are site-wide, the first shard's. Another shard
    // leaves them out (a preprocessor's false skips a template) rather than
    // ignoring the templates, so that Eleventy still sets up the Nunjucks
    // environment the streamed pages render with.
    const input = resolve(eleventyConfig.directories.input);
    const streamed = new Set(streamedTemplates.map((template) => resolve(input, template)));
    eleventyConfig.addPreprocessor("other-shard", "*", function (this: { inputPath: string }) {
      const path = resolve(this.inputPath);
      return streamed.has(path) || path === resolve(input, STREAMED_PAGES_TEMPLATE)
        ? undefined
        : false;
    });
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

  eleventyConfig.on(
    "eleventy.after",
    async (event: {
      directories: { output: string };
      results: readonly { outputPath: string | false }[];
    }) => {
      const { publication, searchIndex, warnings, writer, turns } = await requireRun(run);
      const eleventyOutput = resolve(event.directories.output);
      const pages = event.results.flatMap((result) =>
        result.outputPath ? [relative(eleventyOutput, resolve(result.outputPath))] : [],
      );
      count("rendered.eleventy", pages.length);
      writer.refuseTaken(pages);
      const mine = (key: string | null) => owns(shard, key);
      const groups = [
        ...siteFileGroups(publication, warnings, root, writer),
        ...(root ? host.files : []),
      ];
      const written = await writeFileGroups(
        [
          ...(hostPage ? groups.map((group) => pagesWith(group, hostPage)) : groups),
          // The digest's HTML is a mail, not a page: a policy written into it would
          // be applied by mail clients to the mail (its inline styles).
          ...digestFileGroups(publication.data, site),
          // A language's pages show the root's copies (src/site/language-data.ts).
          ...(root ? [mediaFiles(publication.data.media)] : []),
        ],
        writer,
        turns,
        mine,
      );
      const { cards } = publication;
      let cardsSummary: CardsSummary | null = null;
      let structuredDataCards = 0;
      // The root's run draws and writes the cards; the other languages' pages name them.
      if (cards && options.cards && !options.rootCards) {
        // Rendered in the background since the data was loaded (or earlier); the rest is waited for here.
        await timedAsync("cards", () => cards.settled());
        await writeFileGroups([cards.fileGroup((path) => readFileSync(path))], writer, turns, mine);
        warnings.push(...options.cards.studio.takeWarnings());
        const { stats } = options.cards.studio;
        count("cards.busyMs", Math.round(stats.busyMs));
        count("cards.peakRssMB", stats.peakRssMB);
        structuredDataCards = cards.structuredDataFiles();
        count("cards.structuredDataFiles", structuredDataCards);
        cardsSummary = cards.summary(options.cards.studio.renderedSinceLastAsked());
        // The cache keeps the site's cards, nothing older; shards may share
        // a cache folder, and each knows every card, so none removes another's.
        options.cards.studio.prune(cards.keys());
        options.cards.dates.save();
      }
      publication.richResults.save();
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
        perEvent: {
          eventIcs: written.get(EVENT_ICS_GROUP) ?? 0,
          eventEmbeds: EVENT_EMBED_GROUPS.reduce((sum, name) => sum + (written.get(name) ?? 0), 0),
          structuredDataCards,
        },
        shareCards: cards,
        plansChangeAt: publication.scopes.plansChangeAt(),
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
  /** Every file of the run but Eleventy's own pages goes through it. */
  readonly writer: FileWriter;
  /** Pagefind and the card workers go on beside the rendering only if the event loop turns. */
  readonly turns: EventLoopTurns;
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
  const sizes = VeventSizes.load(
    options.cacheDir,
    JSON.stringify([options.site.url, options.site.lang]),
    options.reads,
  );
  const scopes = new FeedScopes(data, options.site, warn, sizes);
  // Every calendar file's size budget is worked out here, once, rather than
  // inside the first page that mentions it; by the shard that writes them.
  if (owns(options.shard ?? WHOLE_BUILD, null)) {
    timed("ics", () => {
      for (const scope of scopes.withFiles) scopes.plan(scope);
      sizes.save();
    });
    for (const warning of calendarTrimWarnings(scopes)) warn(warning);
  }
  // Every card is asked for now, and renders while Eleventy renders the pages.
  const cards =
    options.rootCards ??
    (options.cards &&
      timed("cards", () => {
        return new ShareCards(data, options.site, options.cards as ShareCardsSetup, options.shard);
      }));
  return {
    publication: {
      data,
      site: options.site,
      scopes,
      searchFacts: searchFacts(data, options.site),
      richResults: RichResultsTally.load(options.cacheDir, options.reads),
      cards: cards ?? null,
    },
    searchIndex,
    warnings,
    writer: new FileWriter(options.output, {
      published: options.published,
      folder: options.folder,
      disk: options.disk,
    }),
    turns: new EventLoopTurns(),
  };
}

async function requireRun(run: Promise<Run> | undefined): Promise<Run> {
  if (!run) throw new Error("Eleventy rendered before the site's data was loaded.");
  return run;
}

/**
 * Every file that is not a page: feeds and calendars, public JSON, widget,
 * calendar colours, ActivityPub, IndexNow's key file; the sitemap (of every
 * language) and the manifest at the site's `root` only.
 */
function siteFileGroups(
  publication: Publication,
  warnings: string[],
  root: boolean,
  writer: FileWriter,
): FileGroup[] {
  const { data, site, scopes } = publication;
  const json = new PublicJson(data, site);
  const { indexNow } = site;
  const publishedCopy = (path: string, inputs: () => string) => writer.publishedCopy(path, inputs);
  return [
    siteScriptFiles(),
    singleFile("widget", paths.asset("calendars.css"), () => calendarColorsCss(data.calendars)),
    ...feedFileGroups(scopes, (message) => warnings.push(message), publishedCopy),
    ...publicJsonFileGroups(data, json, { manifest: root, publishedCopy }),
    whenJsonFileGroup(data.when, site.url),
    ...(root ? [sitemapFileGroup(sitemapEntries(data), site.languages)] : []),
    ...widgetFileGroups(data, site, json, {
      pages: data.views.eventPages,
      inlineIcs: (event) =>
        icsDataUrl(renderEventIcs(event, { site, dataUpdatedAt: scopes.dataUpdatedAt })),
      shareCard: (event) => publication.cards?.forEvent(event) ?? null,
    }),
    ...fediverseFileGroups(site, {
      pages: data.views.eventPages,
      activities: data.activities,
      icon: publication.cards?.forSite() ?? null,
      shardKey: eventShardKey,
    }),
    // What an engine reads to trust the deploy's submissions (IndexNow: "the key file").
    ...(indexNow
      ? [singleFile("indexnow", paths.indexNowKey(indexNow.key), () => indexNow.key)]
      : []),
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
