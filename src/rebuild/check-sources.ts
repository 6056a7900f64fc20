import type { PortalSourceConfig, SourceConfig, SourcesConfig } from "../config/sources.ts";
import { PublisherError } from "../errors.ts";
import { sourceCalendarId } from "../model/url-scheme.ts";
import { fetchFeed } from "../sources/feed-fetch.ts";
import {
  differingApiSettings,
  type FeedSourceState,
  hash,
  type PortalSourceState,
  type SourceState,
} from "./build-state.ts";
import {
  type CheckOptions,
  type CheckResult,
  checkPortalLists,
  dueDateChange,
  orList,
  recordedCounts,
} from "./check-portal.ts";
import { readBuildState } from "./read-build-state.ts";

/**
 * The change check of a site of several sources (EVENT_SOURCES_FILE,
 * docs/sources.md): every source checked as cheaply as it allows, all at
 * once, each against what the build state recorded of it. A portal's lists
 * are read again with their recorded validators, as for a site of one
 * portal (check-portal.ts); a feed is asked with its ETag and Last-Modified,
 * and when it sends its body anyway, its digest is compared. A source that
 * cannot be checked is one line of `failures`: the others are checked all
 * the same, and a change among them still asks for the build (which uses
 * the failing source's last good data).
 */

export interface SourcesCheckOptions extends Omit<CheckOptions, "config"> {
  readonly sources: SourcesConfig;
}

/**
 * As a portal's check says it (check-portal.ts): each change names its
 * source, and the counts are per calendar and per source.
 */
export interface SourcesCheckResult extends CheckResult {
  /** One line per source that could not be checked, naming it. */
  readonly failures: readonly string[];
}

/** What checking one source gave. */
interface SourceCheck {
  readonly changes: readonly string[];
  readonly failure: string | null;
  readonly requests: number;
  readonly notModified: number;
  readonly bytes: number;
  /** A portal's events per calendar (namespaced ids), recorded and now; null for a feed or an unknown. */
  readonly counts: {
    readonly published: ReadonlyMap<string, number>;
    readonly portal: ReadonlyMap<string, number>;
  } | null;
  /** What the source holds now (lists or feed), or the published state of it that a build must replace. */
  readonly seen: unknown;
}

export async function checkSources(options: SourcesCheckOptions): Promise<SourcesCheckResult> {
  const state = await readBuildState(options.published);
  if (!state.sources) {
    throw new PublisherError(
      "The published site was built from one portal (EVENT_API_URL) and this check reads EVENT_SOURCES_FILE: give the check the same settings as the build, or deploy once by hand after moving to the sources file.",
    );
  }
  const configured = options.sources.sources;
  const recorded = new Map(state.sources.map((source) => [source.id, source]));
  const checks = await Promise.all(
    configured.map((source) => checkSource(source, recorded.get(source.id), options)),
  );
  const changes: string[] = [];
  const due = dueDateChange(state.nextChange, options.nowMs);
  if (due) changes.push(due);
  const named = new Set(configured.map((source) => source.id));
  for (const source of state.sources) {
    if (!named.has(source.id)) changes.push(`source ${source.id}: removed from the sources file`);
  }
  changes.unshift(...checks.flatMap((check) => check.changes));
  return {
    changed: changes.length > 0,
    changes,
    failures: checks.flatMap((check) => (check.failure ? [check.failure] : [])),
    requests: sum(checks.map((check) => check.requests)),
    notModified: sum(checks.map((check) => check.notModified)),
    bytes: sum(checks.map((check) => check.bytes)),
    counts: joinedCounts(configured, checks),
    seen: hash({
      sources: configured.map((source, index) => [source.id, checks[index]?.seen ?? null]),
      removed: state.sources.filter((source) => !named.has(source.id)).map((source) => source.id),
      due,
    }),
  };
}

async function checkSource(
  source: SourceConfig,
  recorded: SourceState | undefined,
  options: SourcesCheckOptions,
): Promise<SourceCheck> {
  const quiet = { failure: null, requests: 0, notModified: 0, bytes: 0, counts: null };
  if (!recorded) {
    return { ...quiet, changes: [`source ${source.id}: added to the sources file`], seen: "added" };
  }
  if (recorded.kind !== source.kind) {
    return {
      ...quiet,
      changes: [`source ${source.id}: now ${kindName(source)}`],
      seen: `now ${source.kind}`,
    };
  }
  try {
    return source.kind === "ics"
      ? await checkFeed(source, recorded as FeedSourceState, options)
      : await checkPortalSource(source, recorded as PortalSourceState, options);
  } catch (error) {
    if (!(error instanceof PublisherError)) throw error;
    const reason = error.message.replace(/\.$/, "");
    return {
      ...quiet,
      changes: [],
      failure: `source ${source.id} (${source.name}): not checked: ${reason}.`,
      seen: "not checked",
    };
  }
}

async function checkPortalSource(
  source: PortalSourceConfig,
  recorded: PortalSourceState,
  options: SourcesCheckOptions,
): Promise<SourceCheck> {
  const differing = differingApiSettings(recorded.api, source.api).map(
    (name) => SOURCE_KEY[name] ?? name,
  );
  if (differing.length > 0) {
    throw new PublisherError(
      `the published site was built with other ${orList(differing)} than the sources file has here; check the file, or deploy once by hand after changing it`,
    );
  }
  const state = recorded.portal;
  if (state === null) {
    return {
      changes: [`source ${source.id}: the published site was built from its last good data`],
      failure: null,
      requests: 0,
      notModified: 0,
      bytes: 0,
      counts: null,
      seen: { stale: hash(recorded) },
    };
  }
  const lists = await checkPortalLists(source.api, state, options);
  const namespaced = (counts: ReadonlyMap<string, number>) =>
    new Map([...counts].map(([id, events]) => [sourceCalendarId(source.id, id), events]));
  const published = recordedCounts(state);
  return {
    changes: lists.changes.map((change) => `source ${source.id}: ${change}`),
    failure: null,
    requests: lists.requests,
    notModified: lists.notModified,
    bytes: lists.bytes,
    counts: published && { published: namespaced(published), portal: namespaced(lists.counts) },
    seen: lists.holds,
  };
}

async function checkFeed(
  source: Extract<SourceConfig, { kind: "ics" }>,
  recorded: FeedSourceState,
  options: SourcesCheckOptions,
): Promise<SourceCheck> {
  const none = { failure: null, requests: 0, notModified: 0, bytes: 0, counts: null };
  if (recorded.url !== hash(source.url)) {
    throw new PublisherError(
      "the published site was built with another ics address than the sources file has here; check the file, or deploy once by hand after changing it",
    );
  }
  if (recorded.feed === null) {
    return {
      ...none,
      changes: [`source ${source.id}: the published site was built from its last good data`],
      seen: { stale: hash(recorded) },
    };
  }
  const response = await fetchFeed(source, { signal: options.signal, recorded: recorded.feed });
  const unchanged = response.notModified || response.validators.digest === recorded.feed.digest;
  return {
    ...none,
    requests: 1,
    notModified: response.notModified ? 1 : 0,
    bytes: response.notModified ? 0 : Buffer.byteLength(response.text),
    changes: unchanged ? [] : [`source ${source.id}: the feed changed`],
    seen: unchanged ? recorded.feed.digest : response.validators.digest,
  };
}

/** The settings the build state hashes, by the keys of the sources file. */
const SOURCE_KEY: Readonly<Record<string, string>> = {
  EVENT_API_URL: "url",
};

function kindName(source: SourceConfig): string {
  return source.kind === "ics" ? "an iCalendar feed" : "a portal";
}

/**
 * The counts of every portal source that has them, by calendar and by
 * source. A source whose lists were not read now is left out of both sides,
 * so it neither shrinks nor grows; so is a feed (its check reads no events).
 */
function joinedCounts(
  sources: readonly SourceConfig[],
  checks: readonly SourceCheck[],
): SourcesCheckResult["counts"] {
  const tally = () => ({
    calendars: new Map<string, number>(),
    sources: new Map<string, { name: string; events: number }>(),
  });
  const published = tally();
  const portal = tally();
  let counted = false;
  sources.forEach((source, index) => {
    const counts = checks[index]?.counts;
    if (!counts) return;
    counted = true;
    for (const [side, map] of [
      [published, counts.published],
      [portal, counts.portal],
    ] as const) {
      for (const [id, events] of map) side.calendars.set(id, events);
      side.sources.set(source.id, { name: source.name, events: sum([...map.values()]) });
    }
  });
  return counted ? { published, portal } : null;
}

const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);
