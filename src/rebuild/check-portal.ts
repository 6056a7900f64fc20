import type { WalkedPage } from "../api/list-pages.ts";
import { calendarVersions, eventPairs, listFingerprint, type Pair } from "../api/list-versions.ts";
import { PortalClient } from "../api/portal-client.ts";
import type { PublishedSite } from "../api/published-site.ts";
import type { ApiConfig } from "../config/api.ts";
import { PublisherError } from "../errors.ts";
import {
  type BuildState,
  differingApiSettings,
  hash,
  type PortalState,
  type PublishedCalendar,
} from "./build-state.ts";
import { type CalendarChanges, describeChanges, diffEvents, toVersionMap } from "./list-diff.ts";
import type { ListCounts } from "./list-shrink.ts";
import { walkList } from "./list-walk.ts";
import { readBuildState, readCalendarVersions } from "./read-build-state.ts";

/**
 * Compares the portal with the state the published site was built from, as
 * cheaply as the API allows: the calendar list and each calendar's event list,
 * every page sent with the validators the build recorded, never an event's
 * details. Throws a PublisherError (one clear line) when it cannot tell.
 */

export interface CheckOptions {
  readonly config: ApiConfig;
  readonly published: PublishedSite;
  /** The check's clock (ms). */
  readonly nowMs: number;
  /** Stops every portal request (the scheduled function's time limit). */
  readonly signal?: AbortSignal;
}

export interface CheckResult {
  readonly changed: boolean;
  /** What changed, in short phrases; empty when unchanged. */
  readonly changes: readonly string[];
  /** Portal requests made, how many of them answered 304, and the bytes of their bodies. */
  readonly requests: number;
  readonly notModified: number;
  readonly bytes: number;
  /**
   * Events per calendar as the build state recorded them and as the lists hold
   * them now, for the shrink guard (list-shrink.ts); null when the lists were
   * not read, or the state has no counts.
   */
  readonly counts: { readonly published: ListCounts; readonly portal: ListCounts } | null;
  /**
   * A digest of what the check saw: what the lists hold now, and the
   * date-relative moment due, if any. Two checks that see the same portal
   * give the same digest, whatever the published site, so the scheduled
   * function can tell a change it already requested a build for
   * (requested-build.ts).
   */
  readonly seen: string;
}

export async function checkPortal(options: CheckOptions): Promise<CheckResult> {
  const { config } = options;
  const state = await readBuildState(options.published);
  if (state.sources) {
    throw new PublisherError(
      "The published site was built from several sources (EVENT_SOURCES_FILE) and this check reads one portal (EVENT_API_URL): give the check the same settings as the build.",
    );
  }
  const differing = differingApiSettings(state.api, config);
  if (differing.length > 0) {
    const which = differing.length === 1 ? `another ${differing[0]}` : `other ${orList(differing)}`;
    const these = differing.length === 1 ? "the same value" : "the same values";
    throw new PublisherError(
      `The published site was built with ${which} than this check has; give the check ${these} (on Netlify: scopes Builds and Functions), or deploy once by hand after changing ${differing.length === 1 ? "it" : "them"}.`,
    );
  }
  const changes: string[] = [];
  const due = dueDateChange(state.nextChange, options.nowMs);
  if (due) changes.push(due);
  if (state.portal === null) {
    changes.push("the published site was built from cached data while the portal was unavailable");
    const seen = hash({ stale: hash(state), due });
    return { changed: true, changes, requests: 0, notModified: 0, bytes: 0, counts: null, seen };
  }
  const lists = await checkPortalLists(config, state.portal, options);
  changes.unshift(...lists.changes);
  const published = recordedCounts(state.portal);
  return {
    changed: changes.length > 0,
    changes,
    requests: lists.requests,
    notModified: lists.notModified,
    bytes: lists.bytes,
    counts: published && {
      published: { calendars: published, sources: null },
      portal: { calendars: lists.counts, sources: null },
    },
    seen: hash({ lists: lists.holds, due }),
  };
}

/** The date-relative change the published state says is due by now, as a phrase; null if none. */
export function dueDateChange(next: BuildState["nextChange"], nowMs: number): string | null {
  if (!next || nowMs < Date.parse(next.rebuildAt)) return null;
  return `date-relative change due since ${next.rebuildAt} (${next.rebuildReason})`;
}

/** What one portal's lists say now against those recorded. */
export interface PortalListsCheck {
  readonly changes: readonly string[];
  /** Events per calendar (by the portal's own ids) in the lists now. */
  readonly counts: ReadonlyMap<string, number>;
  readonly requests: number;
  readonly notModified: number;
  readonly bytes: number;
  /** A digest of what the lists hold now: each calendar's version and its events' versions. */
  readonly holds: string;
}

/**
 * Reads one portal's lists again against those the build recorded: the
 * check of a site of one portal, and of each portal of a site of several
 * (check-sources.ts).
 */
export async function checkPortalLists(
  config: ApiConfig,
  portal: PortalState,
  options: Pick<CheckOptions, "published" | "signal">,
): Promise<PortalListsCheck> {
  const client = new PortalClient(config, { signal: options.signal });
  try {
    const compared = await comparePortal(client, config, portal, options.published);
    return {
      ...compared,
      requests: client.stats.requests,
      notModified: client.stats.notModified,
      bytes: client.stats.bytes,
    };
  } finally {
    await client.close().catch(() => undefined);
  }
}

/** The events per calendar the build state recorded; null for a state without them. */
export function recordedCounts(portal: PortalState): Map<string, number> | null {
  const { calendars } = portal;
  const counted = calendars.every(
    (calendar) => Number.isInteger(calendar.events) && calendar.events >= 0,
  );
  return counted ? new Map(calendars.map((calendar) => [calendar.id, calendar.events])) : null;
}

async function comparePortal(
  client: PortalClient,
  config: ApiConfig,
  portal: PortalState,
  published: PublishedSite,
): Promise<{ changes: string[]; counts: Map<string, number>; holds: string }> {
  const recordedVersions = portal.calendarList.calendars;
  const listPages = await walkList(
    client,
    config,
    client.endpoint("event-calendars"),
    portal.calendarList.pages,
  );
  let versions: Readonly<Record<string, string>> = recordedVersions;
  if (listPages.some((page) => !page.notModified)) {
    if (listPages.some((page) => page.notModified)) {
      // Part of the list unchanged, part not: read it all again to know the calendars.
      versions = calendarVersions(
        (await walkList(client, config, client.endpoint("event-calendars"), [])).flatMap(items),
        config,
      );
    } else versions = calendarVersions(listPages.flatMap(items), config);
  }
  const calendarChanges: CalendarChanges = {
    added: Object.keys(versions).filter((id) => !(id in recordedVersions)),
    removed: Object.keys(recordedVersions).filter((id) => !(id in versions)),
    changed: Object.keys(versions).filter(
      (id) => id in recordedVersions && recordedVersions[id] !== versions[id],
    ),
  };

  const recordedById = new Map(portal.calendars.map((calendar) => [calendar.id, calendar]));
  const before = new Map<string, Map<string, string>>();
  const after = new Map<string, Map<string, string>>();
  // Events per calendar in the lists now: as recorded, unless the calendar's list changed.
  const counts = new Map<string, number>();
  // Each calendar's events as the lists hold them now: as recorded, unless its list changed.
  const fingerprints = new Map<string, string>();
  const recordedEvents = async (calendar: PublishedCalendar) =>
    (await readCalendarVersions(published, calendar.versions)).pages;

  await Promise.all(
    Object.keys(versions).map(async (id) => {
      const recorded = recordedById.get(id);
      counts.set(id, recorded?.events ?? 0);
      if (recorded) fingerprints.set(id, recorded.fingerprint);
      const pages = await walkList(
        client,
        config,
        client.endpoint("event-calendar", id, "events"),
        recorded?.pages ?? [],
      );
      if (recorded && pages.every((page) => page.notModified)) return;
      const old = recorded ? await recordedEvents(recorded) : [];
      const current: Pair[] = pages.flatMap((page) =>
        page.notModified ? [...(old[page.index] ?? [])] : eventPairs(page.items, config),
      );
      counts.set(id, new Set(current.map(([eventId]) => eventId)).size);
      const fingerprint = listFingerprint(current);
      fingerprints.set(id, fingerprint);
      if (recorded && fingerprint === recorded.fingerprint) return;
      if (recorded) before.set(id, toVersionMap(old.flat()));
      after.set(id, toVersionMap(current));
    }),
  );
  await Promise.all(
    calendarChanges.removed.map(async (id) => {
      const recorded = recordedById.get(id);
      if (recorded) before.set(id, toVersionMap((await recordedEvents(recorded)).flat()));
    }),
  );
  const holds = hash(
    Object.keys(versions)
      .sort()
      .map((id) => [id, versions[id], fingerprints.get(id) ?? null]),
  );
  return { changes: describeChanges(calendarChanges, diffEvents(before, after)), counts, holds };
}

function items(page: WalkedPage): readonly unknown[] {
  return page.notModified ? [] : page.items;
}

/** "A, B or C". */
export function orList(items: readonly string[]): string {
  return items.length <= 1
    ? (items[0] ?? "")
    : `${items.slice(0, -1).join(", ")} or ${items.at(-1)}`;
}
