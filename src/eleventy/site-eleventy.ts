import type Eleventy from "@11ty/eleventy";
import type { ShareCards, ShareCardsSetup } from "../cards/share-cards.ts";
import type { DeployTarget } from "../config/deploy.ts";
import type { SiteConfig } from "../config/site.ts";
import type { KeptReads } from "../model/kept-reads.ts";
import type { DiskWrites } from "../render/disk-writes.ts";
import type { PublishedFiles } from "../render/published-files.ts";
import type { Shard } from "../shards/shard.ts";
import type { SiteData } from "../site/load.ts";
import publisherPlugin, { type PublisherOptions, type WrittenFiles } from "./publisher-plugin.ts";

/**
 * Eleventy for this site: the project's .eleventy.js (folders, formats and
 * whatever the site owner adds), the publisher plugin with the build's
 * settings and data, and SITE_URL's folder as Eleventy's path prefix, so
 * Eleventy's own `url` filter agrees with the site's URL scheme.
 */
export interface SiteEleventyOptions {
  readonly output: string;
  readonly site: SiteConfig;
  readonly cacheDir: string;
  readonly loadData: () => Promise<SiteData>;
  readonly onWritten?: (written: WrittenFiles) => void;
  readonly runMode?: "build" | "serve";
  /** DEPLOY_TARGET (the publisher writes what its host reads). */
  readonly deployTarget?: DeployTarget;
  /** Share cards: the studio and SHARE_CARDS (null: none). */
  readonly cards?: ShareCardsSetup | null;
  /** A split build's share (src/shards); default: the whole build. */
  readonly shard?: Shard;
  /** The last publish's files, kept where unchanged (src/render/published-files.ts). */
  readonly published?: PublishedFiles | null;
  /** Where the files' bytes go (src/render/disk-writes.ts); by default written at once. */
  readonly disk?: DiskWrites;
  /**
   * Where `output` is in the published site: "" for its root, a language's
   * folder ("fr/") for the site's other languages (src/eleventy/publisher-plugin.ts).
   */
  readonly folder?: string;
  /** In a language's folder: the root's share cards, which its pages name. */
  readonly rootCards?: ShareCards | null;
  /** The streamed pages' record (src/eleventy/page-record.ts); none when absent. */
  readonly pageRecord?: PublisherOptions["pageRecord"];
  /** The kept files a build started ahead read (src/ready); read now when absent. */
  readonly reads?: KeptReads;
  /**
   * Whether another Eleventy renders in this process with other settings
   * (the site's other languages). Eleventy keeps the layouts it compiled in
   * a cache of its module, each bound to the Nunjucks environment, and so to
   * the filters and settings, of the run that compiled it: such runs compile
   * their own instead (a layout per page of Eleventy's own, a few dozen;
   * the streamed pages keep their one compile).
   */
  readonly oneOfSeveral?: boolean;
  /** Eleventy's configuration callback for anything else (the dev server's options). */
  // biome-ignore lint/suspicious/noExplicitAny: Eleventy ships no types
  readonly configure?: (eleventyConfig: any) => void;
}

/**
 * Eleventy's module, loaded when first asked: importing it and its
 * packages takes about 0.2 s (docs/performance.md, What changed, item 55),
 * which a build spends while the portal answers, asking for it as it
 * starts fetching, rather than before it starts. Asked again, it is the
 * same module, loaded once.
 */
export function loadEleventy(): Promise<typeof Eleventy> {
  return import("@11ty/eleventy").then((loaded) => loaded.default);
}

export async function siteEleventy(options: SiteEleventyOptions): Promise<Eleventy> {
  const Eleventy = await loadEleventy();
  const eleventy = new Eleventy("templates", options.output, {
    quietMode: options.runMode !== "serve",
    runMode: options.runMode ?? "build",
    configPath: ".eleventy.js",
    pathPrefix: options.site.urls.href("/"),
    // biome-ignore lint/suspicious/noExplicitAny: Eleventy ships no types
    config(eleventyConfig: any) {
      eleventyConfig.addPlugin(publisherPlugin, {
        site: options.site,
        cacheDir: options.cacheDir,
        loadData: options.loadData,
        onWritten: options.onWritten,
        deployTarget: options.deployTarget,
        cards: options.cards,
        shard: options.shard,
        published: options.published,
        disk: options.disk,
        output: options.output,
        folder: options.folder,
        rootCards: options.rootCards,
        pageRecord: options.pageRecord,
        reads: options.reads,
      });
      if (options.oneOfSeveral) eleventyConfig.setUseTemplateCache(false);
      options.configure?.(eleventyConfig);
    },
  });
  if (options.runMode !== "serve") {
    // A build's failure reaches its command, which prints it once: one line
    // for a template's mistake, a stack trace only for a bug (src/cli/run.ts).
    // Eleventy would print it first, with its stack, whatever it is.
    eleventy.logger.overrideLogger({ ...console, error: () => {} });
  }
  return eleventy;
}
