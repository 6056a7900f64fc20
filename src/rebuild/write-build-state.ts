import { createHash } from "node:crypto";
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { basename, dirname, join, relative, sep } from "node:path";
import { createRedactor } from "../api/auth.ts";
import type { PublishedState } from "../changes/published-state.ts";
import type { ApiConfig } from "../config/api.ts";
import { parseDuration } from "../config/api.ts";
import type { SiteConfig } from "../config/site.ts";
import { ConfigError } from "../errors.ts";
import type { PortalSnapshot } from "../model/types.ts";
import { BUILD_STATE_PATH, composeBuildState } from "./build-state.ts";
import { portalListsOf } from "./list-recorder.ts";
import { isoSeconds, nextDateChange } from "./next-change.ts";
import { type PublishedSite, readBuildState } from "./read-build-state.ts";

/**
 * The build's side of change-driven publishing: after the site is rendered
 * into the staging folder, write the build state (src/rebuild/build-state.ts)
 * beside it: the lists the snapshot was fetched with, the next date-relative
 * change, and the hashes of the feeds, compared with the previously published
 * ones to tell the WebSub ping which feeds changed.
 */

export const FEED_FILES = new Set(["feed.xml", "atom.xml", "feed.json"]);
export const DEFAULT_DATE_DELAY_MS = 3_600_000;

export interface WriteBuildStateOptions {
  readonly staging: string;
  /** The output folder being replaced: its state is the previous one. */
  readonly output: string;
  readonly site: SiteConfig;
  readonly config: ApiConfig;
  /** The snapshot as loadSnapshot() returned it (the lists are remembered for it). */
  readonly snapshot: PortalSnapshot;
  /** What the site publishes, when it differs from the snapshot (changes add removed events). */
  readonly published?: Pick<PortalSnapshot, "events" | "calendars">;
  /** The changes' state this build publishes (announcements, removed events). */
  readonly changes?: PublishedState | null;
  readonly env?: NodeJS.ProcessEnv;
  readonly log?: (line: string) => void;
}

export async function writeBuildState(options: WriteBuildStateOptions): Promise<void> {
  const env = options.env ?? process.env;
  const log = options.log ?? ((line: string) => console.log(line));
  const { site, snapshot } = options;
  const feeds = await hashFeeds(options.staging);
  const previous = await previousFeeds(options, env);
  const feedsChanged = Object.keys(feeds).filter((path) => previous?.[path] !== feeds[path]);
  const nextChange = nextDateChange(
    options.published ?? snapshot,
    site,
    readDateDelay(env),
    options.changes ?? null,
  );
  const lists = portalListsOf(snapshot);
  const files = composeBuildState({
    now: site.now.toUTC().toISO() ?? "",
    siteUrl: site.url,
    config: options.config,
    lists,
    nextChange,
    feeds,
    feedsChanged,
  });
  // Validators and ids come from the portal: nothing of the token may pass.
  const redact = createRedactor(options.config.token);
  for (const [path, text] of files) {
    const target = join(options.staging, ...path.split("/").filter(Boolean));
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, redact(text));
  }
  const when = nextChange
    ? `next date-relative change ${isoSeconds(nextChange.at)}, rebuild due ${isoSeconds(nextChange.rebuildAt)} (${nextChange.rebuildReason})`
    : "no date-relative change ahead";
  log(
    `build state: ${BUILD_STATE_PATH.slice(1)}${lists ? "" : " (built from cached data)"}; ${when}; ${feedsChanged.length} of ${Object.keys(feeds).length} feeds changed`,
  );
}

/** REBUILD_DATE_DELAY: how long date-relative changes other than a new day may wait (default 1h). */
export function readDateDelay(env: NodeJS.ProcessEnv): number {
  const raw = env.REBUILD_DATE_DELAY?.trim();
  if (!raw) return DEFAULT_DATE_DELAY_MS;
  const value = raw === "0" ? 0 : parseDuration(raw);
  if (value === null || value < 0) {
    throw new ConfigError(
      `REBUILD_DATE_DELAY: "${raw}" is not a duration (expected e.g. 0, 15m or 1h).`,
    );
  }
  return value;
}

async function hashFeeds(root: string): Promise<Record<string, string>> {
  const entries = await readdir(root, { recursive: true });
  const paths = entries
    .filter((entry) => FEED_FILES.has(basename(entry)))
    .map((entry) => `/${entry.split(sep).join("/")}`)
    .sort();
  const feeds: Record<string, string> = {};
  for (const path of paths) {
    const bytes = await readFile(join(root, relative("/", path)));
    feeds[path] = `sha256-${createHash("sha256").update(bytes).digest("hex")}`;
  }
  return feeds;
}

/**
 * The feed hashes of the site this build replaces: the local output folder,
 * else the live site (PREVIOUS_MANIFEST_URL's rules: "none" looks only
 * locally, a local SITE_URL is never fetched). Null: treat every feed as changed.
 */
async function previousFeeds(
  options: WriteBuildStateOptions,
  env: NodeJS.ProcessEnv,
): Promise<Readonly<Record<string, string>> | null> {
  const sources: PublishedSite[] = [{ location: options.output }];
  const remote = env.PREVIOUS_MANIFEST_URL?.trim();
  const host = new URL(options.site.url).hostname;
  if (remote !== "none" && !["localhost", "127.0.0.1", "[::1]"].includes(host)) {
    sources.push({ location: options.site.url });
  }
  for (const source of sources) {
    try {
      return (await readBuildState(source)).feeds;
    } catch {}
  }
  return null;
}
