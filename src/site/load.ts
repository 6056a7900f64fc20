import { join } from "node:path";
import type { ChangeResult } from "../changes/detect-changes.ts";
import type { EventActivity } from "../changes/event-activity.ts";
import type { RemovedEventRecord } from "../changes/published-state.ts";
import { loadSiteChanges } from "../changes/site-changes.ts";
import { incompleteStatementWarning } from "../config/accessibility.ts";
import type { BuildConfig } from "../config/build-config.ts";
import type { SiteConfig } from "../config/site.ts";
import { type LocalizedImages, localizeImages, type MediaFile } from "../media/localize-images.ts";
import { timed, timedAsync } from "../metrics.ts";
import type { CalendarEvent, Category, PortalSnapshot } from "../model/types.ts";
import { snapshotUpdatedAt } from "./data-updated.ts";
import { withRemovedPages } from "./removed-pages.ts";
import { buildViews, type SiteViews } from "./views.ts";
import { weekRules } from "./when/week-rules.ts";
import { buildWhenViews, type WhenViews } from "./when/when-views.ts";

/**
 * What the global data `portal` holds: the snapshot as this build publishes
 * it (images copied into the site, changes applied), the category list and
 * the page views. Made once per build; every template, plugin and writer
 * reads this one object.
 */
export interface SiteData
  extends PortalSnapshot,
    // The changes' events gone from the portal, still published as cancelled,
    // and the changes announced in feeds, newest first (src/changes).
    Pick<ChangeResult, "removed" | "announcements"> {
  readonly categories: readonly Category[];
  readonly views: SiteViews;
  /** Today, Tomorrow, This weekend... site-wide and per calendar (src/site/when). */
  readonly when: WhenViews;
  readonly media: readonly MediaFile[];
  /** The removed events' records, for /api/changes.json. */
  readonly removedRecords: readonly RemovedEventRecord[];
  /** What the recent publishes did to each event, newest first: the fediverse's outbox (src/fediverse). */
  readonly activities: readonly EventActivity[];
  /**
   * When the portal's data last changed (src/site/data-updated.ts): what
   * site-wide pages and item-less feeds show, instead of the build's clock.
   * Null when the portal gives no modification times.
   */
  readonly updatedAt: string | null;
}

/** The site's data, and the changes it publishes (the build keeps `changes.next` once published). */
export interface LoadedSite {
  readonly data: SiteData;
  readonly changes: ChangeResult;
}

/** What loadSiteData reads of the build's settings. */
export type SiteDataConfig = Pick<BuildConfig, "site" | "cacheDir" | "publish" | "images"> & {
  readonly output?: string;
  /** The portal's API URL, whose origin images may come from (src/media/address-policy.ts). */
  readonly portalUrl: string | null;
};

/**
 * From the snapshot to the site's data: images copied into the site, the
 * changes since the last publish (src/changes), the page views. `output`
 * is the folder `npm run build` publishes to: the previous published state
 * is kept per output folder and SITE_URL (`npm start` publishes nothing).
 */
export async function loadSiteData(
  snapshot: PortalSnapshot,
  config: SiteDataConfig,
): Promise<LoadedSite> {
  return siteDataFrom(snapshot, await localizeSiteImages(snapshot, config), config);
}

/**
 * The first step of loadSiteData: the events' images copied into the site.
 * With them, the snapshot is every input of the site that comes from the
 * portal (a build that finds it as its last publish did keeps that
 * publish: src/publish/unchanged-build.ts).
 */
export async function localizeSiteImages(
  snapshot: PortalSnapshot,
  config: SiteDataConfig,
): Promise<LocalizedImages> {
  const { site, cacheDir } = config;
  const images = await timedAsync("images", () =>
    localizeImages(snapshot, {
      urls: site.urls,
      cacheDir: join(cacheDir, "site"),
      portalUrl: config.portalUrl,
      images: config.images,
    }),
  );
  for (const warning of images.warnings) console.warn(`[warn] ${warning}`);
  return images;
}

/** The rest of loadSiteData, from the snapshot with its images in the site. */
export async function siteDataFrom(
  snapshot: PortalSnapshot,
  images: LocalizedImages,
  config: SiteDataConfig,
): Promise<LoadedSite> {
  const { site, cacheDir } = config;
  // The settings' own: a statement without a contact or a date is published, with the gap named.
  const statement = incompleteStatementWarning(site.accessibility);
  const settingsWarnings = statement ? [statement] : [];
  for (const warning of settingsWarnings) console.warn(`[warn] ${warning}`);
  const changes = await timedAsync("changes", () =>
    loadSiteChanges(images.snapshot, site, {
      cacheDir,
      output: config.output,
      publishedSite: config.publish.publishedSite,
    }),
  );
  const published = { ...images.snapshot, events: changes.events };
  const data: SiteData = {
    ...published,
    warnings: [...snapshot.warnings, ...images.warnings, ...settingsWarnings],
    ...siteViews(published, changes.removed, site),
    media: images.files,
    removed: changes.removed,
    announcements: changes.announcements,
    removedRecords: changes.next.removed,
    activities: changes.next.activities ?? [],
    updatedAt: snapshotUpdatedAt({ ...published, ...changes }),
  };
  return { data, changes };
}

/**
 * The pages' views of the published events in the settings' language, whose
 * week (its first day, its weekend) lays out the month grids and the "when"
 * pages; `removed`: the events gone from the portal, which keep their pages.
 */
export function siteViews(
  published: PortalSnapshot,
  removed: readonly CalendarEvent[],
  site: Pick<SiteConfig, "now" | "pastDays" | "timeZone" | "collapseSeries" | "lang">,
): Pick<SiteData, "categories" | "views" | "when"> {
  const views = timed("views", () =>
    buildViews(published, {
      now: site.now,
      pastDays: site.pastDays,
      timeZone: site.timeZone,
      collapseSeries: site.collapseSeries,
      firstDay: weekRules(site.lang).firstDay,
    }),
  );
  return {
    categories: views.categories.map((summary) => summary.category),
    views: withRemovedPages(views, removed, published.calendars, site.now.toMillis()),
    when: timed("views", () => buildWhenViews(views, site)),
  };
}
