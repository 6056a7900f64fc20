import { join } from "node:path";
import { getSiteConfig } from "../config/site.ts";
import { timed, timedAsync } from "../metrics.ts";
import type { Category, PortalSnapshot } from "../model/types.ts";
import { loadSnapshot, resetSnapshotCache } from "../snapshot/index.ts";
import { localizeImages, type MediaFile } from "./media.ts";
import { buildViews, type SiteViews } from "./views.ts";

/**
 * What the global data `portal` holds: the snapshot (with images copied into
 * the site), the category list, and the derived page views. Loaded once per
 * build; every data file, plugin and output shares the same object.
 */
export interface SiteData extends PortalSnapshot {
  readonly categories: readonly Category[];
  readonly views: SiteViews;
  readonly media: readonly MediaFile[];
}

let current: Promise<SiteData> | undefined;

export function loadSiteData(): Promise<SiteData> {
  current ??= load();
  return current;
}

/** Forget the loaded data, so the next build (watch mode) fetches again. */
export function resetSiteData(): void {
  current = undefined;
  resetSnapshotCache();
}

async function load(): Promise<SiteData> {
  const site = getSiteConfig();
  const fetched = await loadSnapshot();
  const cacheDir = process.env.EVENT_API_CACHE_DIR?.trim() || ".cache";
  const { snapshot, files, warnings } = await timedAsync("images", () =>
    localizeImages(fetched, { siteUrl: site.url, cacheDir: join(cacheDir, "site") }),
  );
  for (const warning of warnings) console.warn(`[warn] ${warning}`);
  const views = timed("views", () =>
    buildViews(snapshot, { now: site.now, pastDays: site.pastDays, timeZone: site.timeZone }),
  );
  return {
    ...snapshot,
    warnings: [...snapshot.warnings, ...warnings],
    categories: views.categories.map((summary) => summary.category),
    views,
    media: files,
  };
}
