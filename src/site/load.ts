import { join } from "node:path";
import type { Announcement, RemovedEventRecord } from "../changes/published-state.ts";
import { holdChanges, loadSiteChanges } from "../changes/site-changes.ts";
import { getSiteConfig } from "../config/site.ts";
import { timed, timedAsync } from "../metrics.ts";
import type { CalendarEvent, Category, PortalSnapshot } from "../model/types.ts";
import { loadSnapshot, resetSnapshotCache } from "../snapshot/index.ts";
import { localizeImages, type MediaFile } from "./media.ts";
import { withRemovedPages } from "./removed-pages.ts";
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
  /** Events gone from the portal, still published as cancelled (src/changes). */
  readonly removed: readonly CalendarEvent[];
  /** Changes announced in feeds, newest first. */
  readonly announcements: readonly Announcement[];
  /** The removed events' records, for /api/changes.json. */
  readonly removedRecords: readonly RemovedEventRecord[];
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
  // What changed since the last publish (src/changes): the events as published.
  const changes = await timedAsync("changes", () =>
    loadSiteChanges(snapshot, site, {
      cacheDir,
      remoteUrl: process.env.PREVIOUS_MANIFEST_URL?.trim() || undefined,
    }),
  );
  const published = { ...snapshot, events: changes.events };
  const views = timed("views", () =>
    buildViews(published, { now: site.now, pastDays: site.pastDays, timeZone: site.timeZone }),
  );
  const data: SiteData = {
    ...published,
    warnings: [...snapshot.warnings, ...warnings],
    categories: views.categories.map((summary) => summary.category),
    views: withRemovedPages(views, changes.removed, snapshot.calendars, site.now.toMillis()),
    media: files,
    removed: changes.removed,
    announcements: changes.announcements,
    removedRecords: changes.next.removed,
  };
  holdChanges(data, changes, cacheDir);
  return data;
}
