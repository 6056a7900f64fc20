import { type ApiConfig, readApiConfig } from "../config/api.ts";
import { readSiteConfig } from "../config/site.ts";
import type { PortalSnapshot } from "../model/types.ts";
import { type LoadSummary, loadSnapshotFromApi } from "./load-snapshot.ts";
import type { ProgressSink } from "./progress.ts";

export type { LoadSummary } from "./load-snapshot.ts";
export type { ProgressSink } from "./progress.ts";

export interface LoadSnapshotOptions {
  /** Defaults to process.env (EVENT_API_*, SITE_TIMEZONE, SITE_NOW). */
  readonly env?: NodeJS.ProcessEnv;
  /** `fetchedAt`; defaults to SITE_NOW, else the current time. */
  readonly now?: Date;
  /** Progress and warnings: true (stderr, the default), false (silent) or a custom sink. */
  readonly progress?: boolean | ProgressSink;
  readonly signal?: AbortSignal;
  readonly onSummary?: (summary: LoadSummary) => void;
}

const loads = new Map<string, Promise<PortalSnapshot>>();

/**
 * The organization's portal as one immutable snapshot, fetched once per
 * process and configuration: every `_data` file and plugin of a build shares
 * the same promise. A failed load is forgotten so that a later call retries.
 */
export function loadSnapshot(options: LoadSnapshotOptions = {}): Promise<PortalSnapshot> {
  const env = options.env ?? process.env;
  let config: ApiConfig;
  let site: ReturnType<typeof readSiteConfig>;
  try {
    config = readApiConfig(env);
    site = readSiteConfig(env);
  } catch (error) {
    return Promise.reject(error);
  }
  const now = options.now ?? site.now.toJSDate();
  // Without a pinned clock, "now" differs on every call and must not split the memo.
  const pinned = options.now?.toISOString() ?? env.SITE_NOW ?? null;
  const key = JSON.stringify([config, site.timeZone, pinned]);
  let load = loads.get(key);
  if (!load) {
    load = loadSnapshotFromApi({
      config,
      defaultTimeZone: site.timeZone,
      now,
      sink: sinkOf(options.progress),
      signal: options.signal,
      onSummary: options.onSummary,
    });
    loads.set(key, load);
    load.catch(() => loads.delete(key));
  }
  return load;
}

/** Forgets memoized snapshots (tests, and `--serve` rebuilds that want fresh data). */
export function resetSnapshotCache(): void {
  loads.clear();
}

function sinkOf(progress: LoadSnapshotOptions["progress"]): ProgressSink | null {
  if (progress === false) return null;
  if (progress === undefined || progress === true) return process.stderr;
  return progress;
}
