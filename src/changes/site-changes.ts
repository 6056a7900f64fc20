import type { SiteConfig } from "../config/site.ts";
import type { PortalSnapshot } from "../model/types.ts";
import { type ChangeReport, type ChangeResult, detectChanges } from "./detect-changes.ts";
import { loadPreviousState, savePublishedState } from "./previous-state.ts";
import type { PublishedState } from "./published-state.ts";

/**
 * The build's changes since the last publish: the previous state read once
 * (previous-state.ts) and compared with the snapshot (detect-changes.ts).
 * The state to keep is held back, out of the site's data (which render
 * threads get a copy of), until the build has published: a build that
 * fails, or that the shrink guard stops, leaves the previous state as it was.
 */

export interface SiteChangeOptions {
  /** EVENT_API_CACHE_DIR: where the state is kept between builds. */
  readonly cacheDir: string;
  /** PREVIOUS_MANIFEST_URL. */
  readonly remoteUrl?: string;
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
    siteUrl: site.url,
    remoteUrl: options.remoteUrl,
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

export interface BuildChanges {
  /** Null when there was no previous state to compare with. */
  readonly report: ChangeReport | null;
  /** What this build publishes: announcements and removed events expire with time (src/rebuild). */
  readonly published: PublishedState;
  /** Keeps what this build published for the next build; call once the site is published. */
  commit(): Promise<string>;
}

const held = new WeakMap<object, BuildChanges>();

/** Ties a build's changes to the data object the build publishes. */
export function holdChanges(owner: object, changes: ChangeResult, cacheDir: string): void {
  held.set(owner, {
    report: changes.report,
    published: changes.next,
    commit: () => savePublishedState(cacheDir, changes.next),
  });
}

/** The changes held for this data object, if it was loaded with them. */
export function buildChangesOf(owner: object): BuildChanges | null {
  return held.get(owner) ?? null;
}
