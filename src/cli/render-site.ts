import { join } from "node:path";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { DateTime } from "luxon";
import type { PortalLists } from "../api/list-recorder.ts";
import { earlyEventCards, type ShareCards, type ShareCardsSetup } from "../cards/share-cards.ts";
import { type ChangeReport, reportedChanges } from "../changes/detect-changes.ts";
import type { PublishedState } from "../changes/published-state.ts";
import type { BuildConfig } from "../config/build-config.ts";
import { siteInLanguage } from "../config/site.ts";
import type { WrittenFiles } from "../eleventy/publisher-plugin.ts";
import { loadEleventy, siteEleventy } from "../eleventy/site-eleventy.ts";
import { timed, timedAsync } from "../metrics.ts";
import type { KeptReads } from "../model/kept-reads.ts";
import { timeZone } from "../model/time-zone.ts";
import { earlierMoment } from "../outputs/ics-budget.ts";
import type { PublishedFiles } from "../publish/output-files.ts";
import { discardStaging, prepareStaging } from "../publish/publish.ts";
import { lastPublishedFiles } from "../publish/publish-site.ts";
import {
  buildInputsDigest,
  findUnchanged,
  type PublishedInputs,
  publishedUnderOtherCode,
  type UnchangedSite,
} from "../publish/unchanged-build.ts";
import { type NextChange, nextDateChange, withMoment } from "../rebuild/next-change.ts";
import { writeBuildState } from "../rebuild/write-build-state.ts";
import { writeAside } from "../render/disk-writes.ts";
import { MapView } from "../render/map-view.ts";
import type { KnownFiles } from "../render/published-files.ts";
import { owns, type Shard } from "../shards/shard.ts";
import { type ShardData, shardData } from "../shards/shard-data.ts";
import { siteDataIn } from "../site/language-data.ts";
import { localizeSiteImages, type SiteData, siteDataFrom } from "../site/load.ts";
import type { SourceOutcome } from "../sources/load-sources.ts";
import type { PortalConnection } from "./connect-portal.ts";
import { fetchPortal } from "./fetch-portal.ts";

/**
 * The first stage of `npm run build` (src/cli/build.ts): fetch the portal's
 * snapshot, make the site's data, render it into a staging folder and write
 * the build state. It hands the publish step only what that needs: the
 * site's data, its views and what is memoized per event (most of a large
 * build's memory: docs/performance.md, "Memory at 100,000 events") stay
 * behind, to be collected before the output is hashed and published.
 */

export interface RenderSiteInput {
  readonly config: BuildConfig;
  readonly portal: PortalConnection;
  readonly cards: ShareCardsSetup | null;
  readonly shard: Shard;
  /** A split build's share: its output is a shard's, published by merge-shards. */
  readonly sharded: boolean;
  /** The folder rendered for (its staging folder is made beside it). */
  readonly output: string;
  /** The published site this build compares with: `output`, or the shards' merge's. */
  readonly target: string;
  /** The kept files a build started ahead read (src/ready); read now when absent. */
  readonly reads?: KeptReads;
}

export interface RenderedSite {
  readonly kind: "rendered";
  readonly staging: string;
  /** The last publish's files, read before rendering (null: none, or a shard). */
  readonly published: PublishedFiles | null;
  /** What the publisher wrote besides Eleventy's pages; undefined if Eleventy never got there. */
  readonly written: WrittenFiles | undefined;
  /**
   * The files hashed as they were written, for the publish step's
   * hashOutput: the writer's, less those the build state replaced since
   * (hashed anew).
   */
  readonly known: KnownFiles | undefined;
  readonly calendars: number;
  /** The data's warnings, then the outputs'. */
  readonly warnings: readonly string[];
  /** What changed since the last publish (null: nothing to compare with). */
  readonly changes: ChangeReport | null;
  /** What the next build compares with, once this one is published. */
  readonly state: PublishedState;
  /** Each source's outcome, in a site of several (src/sources); null: one portal. */
  readonly sources: readonly SourceOutcome[] | null;
  /** The events merged into another source's, one line each. */
  readonly merged: readonly string[];
  /** The site's data as every shard of a split build must share it (src/shards/shard-data.ts); null when not split. */
  readonly shardData: ShardData | null;
  /** What the site was rendered from, for the next build (src/publish/unchanged-build.ts); null for a shard. */
  readonly inputs: PublishedInputs | null;
  /** The response-cache files the fetch used, to prune the others once published; null: not to prune. */
  readonly cacheUsed: ReadonlySet<string> | null;
}

/** A site found as its last publish left it (src/publish/unchanged-build.ts): nothing rendered. */
export interface KeptSite {
  readonly kind: "unchanged";
  readonly unchanged: UnchangedSite;
  /** When this build's data was fetched. */
  readonly fetchedAt: string;
  readonly calendars: number;
  /** Each source's outcome, in a site of several (src/sources); null: one portal. */
  readonly sources: readonly SourceOutcome[] | null;
  readonly merged: readonly string[];
  /** The response-cache files the fetch used, to prune the others once published; null: not to prune. */
  readonly cacheUsed: ReadonlySet<string> | null;
}

export async function renderSite(input: RenderSiteInput): Promise<RenderedSite | KeptSite> {
  const loaded = await loadAndRender(input);
  if (loaded.kind === "unchanged") return loaded;
  const { staging, lists, nextChange, ...rendered } = loaded;
  // The site's data is gone by now: the build state needs only what was kept of it.
  try {
    const rewritten = new Set<string>();
    if (owns(input.shard, null)) {
      const paths = await writeBuildState({
        staging,
        files: rendered.written?.known ?? new Map(),
        output: input.target,
        config: input.config,
        api: input.portal.recorded,
        lists,
        sources: rendered.sources?.map((source) => source.read) ?? null,
        nextChange,
      });
      for (const path of paths) rewritten.add(path);
    }
    const hashed = rendered.written?.known;
    // Those the build state wrote again are hashed again: left out of a view of the writer's
    // record, not of a copy (630,000 files at 100,000 events).
    const known =
      hashed && new MapView(hashed, (file, path) => (rewritten.has(path) ? undefined : file));
    return { staging, ...rendered, known };
  } catch (error) {
    await discardStaging(staging);
    throw error;
  }
}

/** What rendering leaves for the build state, besides what publishing needs. */
interface Rendered extends Omit<RenderedSite, "known"> {
  readonly lists: PortalLists | null;
  readonly nextChange: NextChange | null;
}

/**
 * Fetches, makes the site's data and renders it: the data lives and dies in
 * here. Nothing is rendered when the site's inputs are as its last publish
 * recorded them (src/publish/unchanged-build.ts).
 */
async function loadAndRender(input: RenderSiteInput): Promise<Rendered | KeptSite> {
  const { config, portal, cards, shard } = input;
  const { site } = config;
  const sizeHeap = heapSizer();
  // Loads while the portal answers; a build that renders nothing does not wait for it.
  loadEleventy().catch(() => {});
  const loaded = await (async () => {
    try {
      const fetched = await fetchPortal(portal, {
        defaultTimeZone: site.timeZone,
        pastDays: site.pastDays,
        now: site.now.toJSDate(),
        sink: process.stderr,
        // Share cards are drawn while the build waits on the portal (src/cards).
        onEvent: cards ? earlyEventCards(site, cards, shard) : undefined,
        // As soon as the lists say the site is large, so that reading and normalizing
        // the details (a heap of 1.3 GB in one warm 100,000-event build) run with it too.
        onListed: sizeHeap.listed,
        reads: input.reads,
      });
      const dataConfig = {
        ...config,
        output: input.target,
        // Several sources: no one portal's origin is trusted for images.
        portalUrl: portal.sources ? null : portal.api.baseUrl,
      };
      // Images are copied from the portal while it is still there (the demo's stops).
      const images = await localizeSiteImages(fetched.snapshot, dataConfig);
      const digest = input.sharded
        ? null
        : timed("unchanged", () =>
            buildInputsDigest({
              config,
              snapshot: images.snapshot,
              media: images.files,
              lists: fetched.lists,
              sources: fetched.sources,
              merged: fetched.merged,
            }),
          );
      const unchanged =
        digest !== null &&
        timed("unchanged", () => findUnchanged({ config, output: input.output, inputs: digest }));
      if (unchanged) {
        return {
          kind: "unchanged" as const,
          unchanged,
          fetchedAt: fetched.snapshot.fetchedAt,
          calendars: fetched.snapshot.calendars.length,
          sources: fetched.sources,
          merged: fetched.merged,
          cacheUsed: fetched.cacheUsed,
        };
      }
      return {
        kind: "data" as const,
        digest,
        lists: fetched.lists,
        cacheUsed: fetched.cacheUsed,
        sources: fetched.sources,
        merged: fetched.merged,
        ...(await siteDataFrom(fetched.snapshot, images, dataConfig)),
      };
    } finally {
      await portal.close();
    }
  })();
  if (loaded.kind === "unchanged") return loaded;
  const { lists, sources, merged, data, changes, digest, cacheUsed } = loaded;
  sizeHeap.listed(data.events.length); // a stored snapshot (EVENT_API_ALLOW_STALE) lists nothing
  const nextChange = nextDateChange(data, site, config.publish.dateDelayMs, changes.next);
  const kept = {
    kind: "rendered" as const,
    inputs:
      digest === null
        ? null
        : { inputs: digest, builtAt: site.now.toMillis(), nextChangeAt: nextChange?.at ?? null },
    lists,
    sources,
    merged,
    cacheUsed,
    calendars: data.calendars.length,
    changes: changes.report,
    state: changes.next,
    nextChange,
    shardData: input.sharded ? timed("shard", () => shardData(data)) : null,
  };

  // What the last publish left: files this build would write again unchanged are kept.
  const published = input.sharded ? null : lastPublishedFiles(config, input.output, input.reads);
  // Nothing published to keep (a first build, or a shard's share), or published under
  // other code (an upgrade): every file is rendered, the case of the heap's highest peak.
  // Many events changed, or the day turned: much of the site is.
  sizeHeap.rendering(
    published === null || publishedUnderOtherCode(config, input.output)
      ? "all"
      : rebuildReach(changes.report, data.events.length, site.now.setZone(timeZone(site.timeZone))),
  );
  const staging = await prepareStaging(input.output);
  // The files go to disk on a thread of their own while the site renders; every language's run shares it.
  const disk = writeAside();
  try {
    // Each language of the site rendered from the one data, the root's first
    // (docs/translating.md, "One site in several languages"): its own folder,
    // the root's share cards and images named rather than made again.
    const runs: WrittenFiles[] = [];
    let rootCards: ShareCards | null = null;
    for (const language of site.languages) {
      const languageSite = siteInLanguage(site, language);
      const root = language.folder === "";
      const handover = runHandover(timed("views", () => siteDataIn(data, languageSite, site)));
      const eleventy = await siteEleventy({
        output: join(staging, language.folder),
        folder: language.folder,
        site: languageSite,
        // Each language's search index keeps its parts apart: a build prunes the parts it did not use.
        cacheDir: root ? config.cacheDir : join(config.cacheDir, "languages", language.folder),
        deployTarget: config.deploy.target,
        cards: root ? cards : null,
        rootCards: root ? null : rootCards,
        oneOfSeveral: site.languages.length > 1,
        shard,
        published,
        disk,
        reads: input.reads,
        loadData: handover.loadData,
        onWritten: handover.onWritten,
        pageRecord:
          config.publish.pageRecord === "off"
            ? null
            : { until: nextChange?.at ?? null, verify: config.publish.pageRecord === "verify" },
      });
      await timedAsync("render", () => eleventy.write());
      const written = handover.written();
      if (!written) break;
      if (root) rootCards = written.shareCards;
      runs.push(written);
    }
    // Every file on disk before the build state is written and the staging folder read.
    await timedAsync("write", () => disk.finish());
    const written = runs.length === site.languages.length ? joinedRuns(runs) : undefined;
    // A calendar file cut to its size budget may change by date before any event moment.
    const next = withMoment(
      nextChange,
      written?.plansChangeAt ?? null,
      "a calendar file's size budget cuts its events otherwise",
      config.publish.dateDelayMs,
    );
    return {
      ...kept,
      inputs: kept.inputs && { ...kept.inputs, nextChangeAt: next?.at ?? null },
      nextChange: next,
      staging,
      published,
      written,
      warnings: [...data.warnings, ...(written?.warnings ?? [])],
    };
  } catch (error) {
    await disk.abandon();
    await discardStaging(staging);
    throw error;
  }
}

/**
 * What the languages' runs wrote, as one build's: their files together, the
 * root's search index, rich results and cards (the other languages name the
 * root's cards and show the same events).
 */
function joinedRuns(runs: readonly WrittenFiles[]): WrittenFiles | undefined {
  const [first, ...others] = runs;
  if (!first || others.length === 0) return first;
  const sum = (of: (run: WrittenFiles) => number) => runs.reduce((n, run) => n + of(run), 0);
  return {
    ...first,
    files: sum((run) => run.files),
    bytes: sum((run) => run.bytes),
    warnings: [...new Set(runs.flatMap((run) => run.warnings))],
    known: new Map(runs.flatMap((run) => [...run.known])),
    plansChangeAt: runs.reduce<number | null>(
      (first, run) => earlierMoment(first, run.plansChangeAt),
      null,
    ),
    perEvent: {
      eventIcs: sum((run) => run.perEvent.eventIcs),
      eventEmbeds: sum((run) => run.perEvent.eventEmbeds),
      structuredDataCards: first.perEvent.structuredDataCards,
    },
  };
}

/**
 * From this many events on, V8 is told to collect its heap sooner. By
 * default it lets the heap grow to about twice what is live before a full
 * collection, and rendering leaves garbage enough that a warm build of
 * 100,000 events peaked at 2,774 MB; collecting at a fifth more than what is
 * live, it peaked at 1,558 MB, for 17% more time (docs/performance.md,
 * "Memory at 100,000 events"). A smaller site keeps V8's default: at 10,000
 * events it peaks under 700 MB either way, and would lose 7-14% of its time.
 */
const LARGE_SITE_EVENTS = 25_000;

/** What the build tells V8 about its heap, as it learns the site's size and what it renders. */
export interface HeapSizer {
  /** The events listed (or loaded): from LARGE_SITE_EVENTS on, V8 collects sooner. */
  listed(events: number): void;
  /**
   * How much of the site is rendered: "all" (nothing published to keep, or
   * published under other code), or a rebuild's reach (rebuildReach).
   */
  rendering(reach: "all" | RebuildReach): void;
}

/**
 * How much of its last publish a rebuild renders again: "many" events
 * changed, or only the "day" turned, or "little" (a few changed events).
 */
export type RebuildReach = "many" | "day" | "little";

/**
 * A rebuild that changes this share of the events or more renders much of
 * the site again (their pages, and the lists, months, feeds and calendars
 * that show them): with 5,000 edited events of 100,000, the build's render
 * phase took 43.15 s, with one edited event 8.84 s (`npm run bench --
 * --size large --no-search` at 1fa6190, before item 82).
 */
const MANY_CHANGED_EVENTS = 0.01;

/**
 * How much of what its last publish holds this rebuild renders again: many
 * events changed ("many", whatever the day), or the day has turned since in
 * `now`'s zone (the site's: every list, month, "when" page and feed that
 * dates its events by the day is rendered again), or neither. Such builds
 * held the highest peaks of the rebuilds at 100,000 events (in that run,
 * 1,302 MB the day after and 1,457 MB with 5,000 edited events, where one
 * edited event's held 1,073 MB: docs/performance.md, What changed, item 82).
 * No last publish to compare with: "little", as the report says nothing.
 */
export function rebuildReach(
  report: ChangeReport | null,
  events: number,
  now: DateTime,
): RebuildReach {
  if (report === null) return "little";
  if (reportedChanges(report) >= Math.max(1, events * MANY_CHANGED_EVENTS)) return "many";
  const since = DateTime.fromISO(report.since, { zone: now.zone });
  return since.isValid && since.toISODate() !== now.toISODate() ? "day" : "little";
}

/**
 * `listed` tells V8 to collect sooner the first time it is given
 * LARGE_SITE_EVENTS or more. V8 reads the setting at every full collection,
 * to set how far the heap may grow before the next; the limit the last one
 * set, at V8's default factor, stays until then. That limit let the heap of
 * a 100,000-event build grow from under 300 MB to 1.1 to 1.4 GB while the
 * site's data was made, without a full collection (`--trace-gc`), and was
 * the top of its memory in the builds that render little: so the heap is
 * collected once when the setting is made, and the limit follows it from
 * there (docs/performance.md, What changed, item 32). The young
 * generation's size, in contrast, is fixed when the process starts: `npm
 * run build` gives Node `--max-semi-space-size=32` (package.json), twice
 * V8's 16 MB, which halves the young collections of a 100,000-event build
 * (docs/performance.md, "What changed", item 14).
 *
 * `rendering` then puts V8 in its memory-saving mode
 * (`--optimize-for-size`, which its collector reads at every collection)
 * for a large site with nothing published to keep, whose every file is
 * rendered (a first build; and every build of a shard, which renders its
 * share whole), or whose published files were rendered under other code
 * (an upgrade: item 81): the build with the highest peak. At 100,000
 * events it lowered a cold build's peak by about 200 MB in as much time
 * (docs/performance.md, What changed, item 77). It also has V8 collect at
 * a tenth over what is live rather than a fifth: 16 and 110 MB less at the
 * peak of that build in two pairs at 100,000 events, for a tenth more time
 * (item 80). A rebuild of many edited events gets the same (item 82). The
 * day after gets the collection at a tenth without the memory-saving mode:
 * at 100,000 events that took a tenth and a quarter off its time in two
 * builds, and since the rebuilds hold less (items 83 to 86) it peaks under
 * 1.2 GB without the mode (item 88); the mode is what keeps a cold build
 * there (1,267 against 1,067 MB in item 88's turns). A build of one edited
 * event is left as it is: the same mode made it a fifth slower (item 77),
 * and it is the build between an edit and the site. `setFlags`: V8's, or a
 * test's record of them.
 */
export function heapSizer(setFlags: (flags: string) => void = setFlagsFromString): HeapSizer {
  let told = false;
  return {
    listed(events) {
      if (told || events < LARGE_SITE_EVENTS) return;
      told = true;
      setFlags("--heap-growing-percent=20");
      collectGarbage();
    },
    rendering(reach) {
      if (!told || reach === "little") return;
      if (reach !== "day") setFlags("--optimize-for-size");
      setFlags("--heap-growing-percent=10");
    },
  };
}

/**
 * One full collection, now. Node gives the function only with
 * `--expose-gc`; made available here, it is taken from a new context, the
 * build's own global left as it is.
 */
function collectGarbage(): void {
  setFlagsFromString("--expose-gc");
  const gc = runInNewContext("gc") as unknown;
  if (typeof gc === "function") gc();
}

/**
 * What passes between this stage and the publisher plugin, through
 * functions made here rather than inside loadAndRender: Eleventy keeps the
 * last run's configuration, plugin options included, in a cache of its
 * module, so a function made inside loadAndRender would keep its scope, and
 * the site's data with it, for as long as the process. The data is given once and
 * forgotten; what was written is taken once.
 */
function runHandover(data: SiteData) {
  let held: SiteData | undefined = data;
  let written: WrittenFiles | undefined;
  return {
    loadData: async (): Promise<SiteData> => {
      if (!held) throw new Error("The site's data was already handed to Eleventy.");
      const given = held;
      held = undefined;
      return given;
    },
    onWritten: (files: WrittenFiles): void => {
      written = files;
    },
    written: (): WrittenFiles | undefined => {
      const taken = written;
      written = undefined;
      return taken;
    },
  };
}
