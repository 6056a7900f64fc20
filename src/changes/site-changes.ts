import type { SiteConfig } from "../config/site.ts";
import type { PortalSnapshot } from "../model/types.ts";
import { type ChangeResult, detectChanges } from "./detect-changes.ts";
import { loadPreviousState } from "./previous-state.ts";

/**
 * The build's changes since the last publish: the previous state read once
 * (previous-state.ts) and compared with the snapshot (detect-changes.ts).
 * The state to keep (`next`) is returned to the build, which keeps it only
 * once the site is published (savePublishedState): a build that fails, or
 * that the shrink guard stops, leaves the previous state as it was.
 */

export interface SiteChangeOptions {
  /** EVENT_API_CACHE_DIR: where the state is kept between builds. */
  readonly cacheDir: string;
  /** The folder the build publishes to (previous-state.ts); absent for `npm start`. */
  readonly output?: string;
  /** The published site, read when the cache has no state (src/config/publish.ts); null: none. */
  readonly publishedSite: string | null;
  readonly log?: (line: string) => void;
}

export type ChangeSite = Pick<
  SiteConfig,
  "url" | "now" | "changeNoticeDays" | "cancelledGraceDays" | "feedPastDays" | "pastDays"
>;

export async function loadSiteChanges(
  snapshot: Pick<PortalSnapshot, "calendars" | "events">,
  site: ChangeSite,
  options: SiteChangeOptions,
): Promise<ChangeResult> {
  const previous = await loadPreviousState({
    cacheDir: options.cacheDir,
    output: options.output,
    siteUrl: site.url,
    publishedSite: options.publishedSite,
    log: options.log,
  });
  return detectChanges(previous.state, snapshot, {
    siteUrl: site.url,
    now: site.now,
    changeNoticeDays: site.changeNoticeDays,
    cancelledGraceDays: site.cancelledGraceDays,
    feedPastDays: site.feedPastDays,
    pastDays: site.pastDays,
  });
}
