import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { readApiConfig } from "../../src/config/api.ts";
import { readSiteConfig } from "../../src/config/site.ts";
import type { PortalSnapshot } from "../../src/model/types.ts";
import type { RunningPortal } from "../../src/portal/index.ts";
import { type FetchedPortal, loadSnapshot } from "../../src/snapshot/load-snapshot.ts";
import type { ProgressSink } from "../../src/snapshot/progress.ts";
import { tempDir as removedTempDir } from "../helpers/temp-dir.ts";

/** The pinned clock of the reference portal and of the snapshots in these tests. */
export const NOW = "2026-03-20T12:00:00Z";

/** A fresh folder for a test's API cache, removed when the test file ends. */
export function tempDir(prefix = "snapshot-cache-"): string {
  return removedTempDir(prefix);
}

/** Environment pointing the loader at a running portal, with a fresh cache folder. */
export function apiEnv(portal: RunningPortal, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    EVENT_API_URL: portal.url,
    EVENT_API_TOKEN: portal.token,
    EVENT_API_CACHE_DIR: tempDir(),
    EVENT_API_RETRY_MAX_WAIT: "2s",
    SITE_NOW: NOW,
    SITE_TIMEZONE: "Europe/Amsterdam",
    ...extra,
  };
}

/** Names and contents of every file in the cache folder. */
export function cacheFiles(dir: string): { name: string; content: string }[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => {
      const full = path.join(entry.parentPath, entry.name);
      return { name: path.relative(dir, full), content: readFileSync(full, "utf8") };
    });
}

/** A progress sink that records everything written to it. */
export function recorder(isTTY = false): {
  write(text: string): void;
  isTTY: boolean;
  text(): string;
} {
  const chunks: string[] = [];
  return { isTTY, write: (text) => void chunks.push(text), text: () => chunks.join("") };
}

/** The build's snapshot stage with the settings in `env`, as `npm run build` runs it. */
export function fetchPortal(
  env: NodeJS.ProcessEnv,
  options: { sink?: ProgressSink; signal?: AbortSignal } = {},
): Promise<FetchedPortal> {
  const site = readSiteConfig(env);
  return loadSnapshot({
    config: readApiConfig(env),
    defaultTimeZone: site.timeZone,
    now: site.now.toJSDate(),
    sink: options.sink ?? null,
    signal: options.signal,
  });
}

/** The snapshot alone. */
export async function snapshotOf(
  env: NodeJS.ProcessEnv,
  options: { sink?: ProgressSink; signal?: AbortSignal } = {},
): Promise<PortalSnapshot> {
  return (await fetchPortal(env, options)).snapshot;
}
