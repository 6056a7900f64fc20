import { readFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { createRedactor } from "../api/auth.ts";
import type { PortalLists } from "../api/list-recorder.ts";
import { PublishedSite } from "../api/published-site.ts";
import type { ApiConfig } from "../config/api.ts";
import type { BuildConfig } from "../config/build-config.ts";
import { FEED_FILE_NAMES, paths } from "../model/url-scheme.ts";
import { replaceFile } from "../publish/replace-file.ts";
import { siteFile } from "../render/published-files.ts";
import type { SourceRead } from "../sources/source-read.ts";
import { composeBuildState } from "./build-state.ts";
import { isoSeconds, type NextChange } from "./next-change.ts";
import { readBuildState } from "./read-build-state.ts";

/**
 * The build's side of change-driven publishing: after the site is rendered
 * into the staging folder, write the build state (src/rebuild/build-state.ts)
 * beside it: the lists the snapshot was fetched with, the next date-relative
 * change, and the hashes of the feeds, compared with the previously published
 * ones to tell the WebSub ping which feeds changed (`feedsChanged` in manifest.json).
 */

const FEED_FILES = new Set<string>([
  FEED_FILE_NAMES.rss,
  FEED_FILE_NAMES.atom,
  FEED_FILE_NAMES.json,
]);

export interface WriteBuildStateOptions {
  readonly staging: string;
  /**
   * The files the build wrote or kept, by site path ("feed.xml",
   * "calendars/a/atom.xml"...), with the digest of their bytes
   * (contentHash, src/render/published-files.ts): the feeds are found among
   * them rather than by walking the staging folder (0.4 s at 10,000
   * events), and their digests taken from there rather than by reading each
   * feed again (0.3 s: docs/performance.md, What changed, item 46).
   */
  readonly files: ReadonlyMap<string, { readonly hash: string }>;
  /** The output folder being replaced: its state is the previous one. */
  readonly output: string;
  readonly config: Pick<BuildConfig, "site" | "publish">;
  /** The API settings the snapshot was fetched with. */
  readonly api: ApiConfig;
  /** The lists as fetched (src/snapshot); null when built from the stale cache. */
  readonly lists: PortalLists | null;
  /** A site of several sources: what each one gave (null: one portal). */
  readonly sources?: readonly SourceRead[] | null;
  /**
   * When the published site next changes by date alone (nextDateChange, from
   * what the site publishes and the changes' state): worked out by the
   * caller while it still holds the site's data.
   */
  readonly nextChange: NextChange | null;
  readonly log?: (line: string) => void;
}

/**
 * Writes the build state's files into the staging folder and records the
 * changed feeds in its manifest; returns the site paths it wrote
 * ("api/manifest.json"...), which the build hashes anew. A file the build
 * kept as published is read where it is, in the output folder.
 */
export async function writeBuildState(options: WriteBuildStateOptions): Promise<string[]> {
  const log = options.log ?? ((line: string) => console.log(line));
  const { site, publish } = options.config;
  const { lists } = options;
  const feeds = feedDigests(options.files);
  const previous = await previousFeeds(options.output, publish.publishedSite);
  const feedsChanged = Object.keys(feeds).filter((path) => previous?.[path] !== feeds[path]);
  const { nextChange } = options;
  const files = composeBuildState({
    siteUrl: site.url,
    config: options.api,
    lists,
    sources: options.sources,
    nextChange,
    feeds,
  });
  // Validators and ids come from the portal: nothing of the token may pass, nor of any source's.
  const redactors = [
    options.api.token,
    ...(options.sources ?? []).flatMap((source) =>
      source.kind === "portal" ? [source.config.token] : [],
    ),
  ].map(createRedactor);
  const redact = (text: string) => redactors.reduce((result, each) => each(result), text);
  const written: string[] = [];
  for (const [path, text] of files) {
    const target = join(options.staging, ...path.split("/").filter(Boolean));
    await replaceFile(target, redact(text));
    written.push(path.replace(/^\/+/, ""));
  }
  // As feed addresses: what the WebSub ping sends the hub, and what a reader subscribes to.
  await recordInManifest(options.staging, options.output, {
    feedsChanged: feedsChanged.map((path) => site.urls.absolute(path)),
  });
  written.push(paths.apiManifest().replace(/^\/+/, ""));
  const when = nextChange
    ? `next date-relative change ${isoSeconds(nextChange.at)}, rebuild due ${isoSeconds(nextChange.rebuildAt)} (${nextChange.rebuildReason})`
    : "no date-relative change ahead";
  log(
    `build state: ${paths.buildState().slice(1)}${stateNote(lists, options.sources)}; ${when}; ${feedsChanged.length} of ${Object.keys(feeds).length} feeds changed`,
  );
  return written;
}

/** Which data the state says the site was built from, when not all fresh. */
function stateNote(
  lists: PortalLists | null,
  sources: readonly SourceRead[] | null | undefined,
): string {
  if (!sources) return lists ? "" : " (built from cached data)";
  const stale = sources.filter((s) => (s.kind === "ics" ? s.feed : s.lists) === null);
  return stale.length > 0
    ? ` (${stale.map((s) => s.id).join(", ")} from their last good data)`
    : "";
}

/**
 * manifest.json is the site's one build-info file, the only one that differs
 * between two builds of an unchanged portal: what concerns this build alone
 * (which feeds it changed, for the WebSub ping) goes there.
 */
async function recordInManifest(
  staging: string,
  output: string,
  build: { readonly feedsChanged: readonly string[] },
): Promise<void> {
  const sitePath = relative("/", paths.apiManifest());
  const path = join(staging, sitePath);
  const manifest = JSON.parse(
    await readFile(siteFile(staging, output, sitePath), "utf8"),
  ) as Record<string, unknown>;
  await replaceFile(path, `${JSON.stringify({ ...manifest, ...build }, null, 2)}\n`);
}

/** Each feed's digest by its path ("/feed.xml"), in path order. */
function feedDigests(files: WriteBuildStateOptions["files"]): Record<string, string> {
  // By their paths, then each feed's record: the writer's record makes one for a kept file when
  // asked (src/render/file-record.ts), and a site has a few feeds among 630,000 files.
  const paths: string[] = [];
  for (const path of files.keys()) {
    if (FEED_FILES.has(path.slice(path.lastIndexOf("/") + 1))) paths.push(path);
  }
  const feeds: Record<string, string> = {};
  for (const path of paths.sort()) {
    const hash = files.get(path)?.hash;
    if (hash !== undefined) feeds[`/${path}`] = hash;
  }
  return feeds;
}

/**
 * The feed hashes of the site this build replaces: the local output folder,
 * else the published site. Null: treat every feed as changed.
 */
async function previousFeeds(
  output: string,
  publishedSite: string | null,
): Promise<Readonly<Record<string, string>> | null> {
  const sources = [output, ...(publishedSite ? [publishedSite] : [])];
  for (const source of sources) {
    try {
      return (await readBuildState(new PublishedSite(source))).feeds;
    } catch {}
  }
  return null;
}
