import { createHash } from "node:crypto";
import type { PortalLists, RecordedPage } from "../api/list-recorder.ts";
import { listFingerprint, type Pair } from "../api/list-versions.ts";
import type { ApiConfig } from "../config/api.ts";
import { isPlainObject } from "../model/field-map.ts";
import { paths, sourceCalendarId } from "../model/url-scheme.ts";
import type { FeedValidators } from "../sources/feed-fetch.ts";
import type { SourceRead } from "../sources/source-read.ts";
import { isoSeconds, type NextChange } from "./next-change.ts";

/**
 * The build state (docs/public-json.md, "build-state.json"): what the
 * site was built from, for `npm run rebuild-if-changed`, and the hashes of
 * its feeds, from which the next build tells the WebSub ping which feeds it
 * changed (`feedsChanged` in manifest.json). Small: per calendar a
 * fingerprint and the list pages' validators; the per-event versions sit in
 * one file per calendar, read only for a calendar whose lists changed. It
 * holds no build time: a rebuild from an unchanged portal writes it again
 * byte for byte (manifest.json is the one file that says when a build ran).
 */

const BUILD_STATE_VERSION = 1;

export interface PublishedCalendar {
  readonly id: string;
  /** Listed events with a usable id. */
  readonly events: number;
  readonly fingerprint: string;
  readonly pages: readonly RecordedPage[];
  /** Site-relative path of the calendar's versions file. */
  readonly versions: string;
}

export interface BuildState {
  readonly version: typeof BUILD_STATE_VERSION;
  /** SITE_URL of the build: feed addresses (WebSub topics) are relative to it. */
  readonly siteUrl: string;
  /**
   * Hashes of the API settings the lists were read with, one per setting, so
   * the check can name the one that differs; a single hash in states written
   * before (src/rebuild/check-portal.ts still reads those).
   */
  readonly api: ApiSettingsHashes | string;
  /**
   * Null when the build used cached data (EVENT_API_ALLOW_STALE): the next
   * check rebuilds; null too in a site of several sources, whose lists are
   * each source's (`sources`).
   */
  readonly portal: PortalState | null;
  /** A site of several sources (docs/sources.md): each one's lists, in the file's order. */
  readonly sources?: readonly SourceState[];
  readonly nextChange: {
    readonly at: string;
    readonly reason: string;
    readonly rebuildAt: string;
    readonly rebuildReason: string;
  } | null;
  /** Site-relative feed path -> sha256 of its bytes. */
  readonly feeds: Readonly<Record<string, string>>;
  /** Only in states written by earlier versions: now in manifest.json. */
  readonly feedsChanged?: readonly string[];
}

export interface PortalState {
  readonly calendarList: {
    readonly pages: readonly RecordedPage[];
    readonly calendars: Readonly<Record<string, string>>;
  };
  readonly calendars: readonly PublishedCalendar[];
}

/** What the build read of one source, for the check to compare with. */
export type SourceState = PortalSourceState | FeedSourceState;

export interface PortalSourceState {
  readonly id: string;
  readonly kind: "portal";
  /** Hashes of the source's URL, calendars and field map, as `api` for one portal. */
  readonly api: ApiSettingsHashes;
  /** Null when the source's last good data was used: the next check rebuilds. */
  readonly portal: PortalState | null;
}

export interface FeedSourceState {
  readonly id: string;
  readonly kind: "ics";
  /** Hash of the feed's address: it may hold a private key, and the state is public. */
  readonly url: string;
  /** Null when the feed's last good data was used: the next check rebuilds. */
  readonly feed: FeedValidators | null;
}

export interface CalendarVersions {
  readonly version: typeof BUILD_STATE_VERSION;
  readonly calendar: string;
  /** Per list page, [event id, version] in list order. */
  readonly pages: readonly (readonly Pair[])[];
}

export interface ApiSettingsHashes {
  readonly url: string;
  /** EVENT_API_CALENDARS as a set: their order changes which calendar is listed first, not what is read. */
  readonly calendars: string;
  readonly fieldMap: string;
}

type ApiSettings = Pick<ApiConfig, "baseUrl" | "calendars" | "fieldMap">;

/** Hashed, not written out: the state is public, and the portal's address need not be. */
export function apiSettingsHashes(config: ApiSettings): ApiSettingsHashes {
  return {
    url: hash(config.baseUrl),
    calendars: hash(config.calendars && [...config.calendars].sort()),
    fieldMap: hash(config.fieldMap),
  };
}

/**
 * The settings (by their variable) that differ between the published state's
 * and the check's. A state of an older version has one hash of all three: a
 * difference there cannot be told apart, and all three are named.
 */
export function differingApiSettings(published: BuildState["api"], config: ApiSettings): string[] {
  if (typeof published === "string") {
    const legacy = hash([config.baseUrl, config.calendars, config.fieldMap]);
    return published === legacy
      ? []
      : ["EVENT_API_URL", "EVENT_API_CALENDARS", "EVENT_API_FIELD_MAP"];
  }
  const mine = apiSettingsHashes(config);
  return [
    ...(published.url === mine.url ? [] : ["EVENT_API_URL"]),
    ...(published.calendars === mine.calendars ? [] : ["EVENT_API_CALENDARS"]),
    ...(published.fieldMap === mine.fieldMap ? [] : ["EVENT_API_FIELD_MAP"]),
  ];
}

export function hash(value: unknown): string {
  return `sha256-${createHash("sha256").update(JSON.stringify(value)).digest("hex")}`;
}

export interface ComposeInput {
  readonly siteUrl: string;
  readonly config: ApiConfig;
  readonly lists: PortalLists | null;
  /** A site of several sources: what each one gave (null: one portal). */
  readonly sources?: readonly SourceRead[] | null;
  readonly nextChange: NextChange | null;
  readonly feeds: Readonly<Record<string, string>>;
}

/** The state and the versions files, as site-relative path -> JSON text. */
export function composeBuildState(input: ComposeInput): Map<string, string> {
  const files = new Map<string, string>();
  const portal = input.lists && composePortal(input.lists, files, (id) => id);
  const sources = input.sources?.map((source): SourceState => {
    if (source.kind === "ics") {
      return { id: source.id, kind: "ics", url: hash(source.url), feed: source.feed };
    }
    // A source's versions files are named in its namespace, primary or not: two
    // sources may both have a calendar "community".
    const namespaced = (id: string) => sourceCalendarId(source.id, id);
    return {
      id: source.id,
      kind: "portal",
      api: apiSettingsHashes(source.config),
      portal: source.lists && composePortal(source.lists, files, namespaced),
    };
  });
  const next = input.nextChange;
  const state: BuildState = {
    version: BUILD_STATE_VERSION,
    siteUrl: input.siteUrl,
    api: apiSettingsHashes(input.config),
    portal,
    ...(sources ? { sources } : {}),
    nextChange: next && {
      at: isoSeconds(next.at),
      reason: next.reason,
      rebuildAt: isoSeconds(next.rebuildAt),
      rebuildReason: next.rebuildReason,
    },
    feeds: input.feeds,
  };
  files.set(paths.buildState(), `${JSON.stringify(state, null, 1)}\n`);
  return files;
}

/** One portal's lists as the state records them; each calendar's versions go into `files`. */
function composePortal(
  lists: PortalLists,
  files: Map<string, string>,
  fileId: (calendarId: string) => string,
): PortalState {
  const calendars = Object.entries(lists.calendars).map(([id, recorded]) => {
    const pairs = recorded.pairs.flat();
    const versions: CalendarVersions = {
      version: BUILD_STATE_VERSION,
      calendar: id,
      pages: recorded.pairs,
    };
    const path = paths.buildStateCalendar(fileId(id));
    files.set(path, `${JSON.stringify(versions)}\n`);
    return {
      id,
      events: new Set(pairs.map(([eventId]) => eventId)).size,
      fingerprint: listFingerprint(pairs),
      pages: recorded.pages,
      versions: path,
    };
  });
  return { calendarList: lists.calendarList, calendars };
}

/** Checks the shape the check relies on; the message says what is wrong. */
export function parseBuildState(value: unknown): BuildState | string {
  if (!isPlainObject(value)) return "not a JSON object";
  if (value.version !== BUILD_STATE_VERSION)
    return `unknown version ${JSON.stringify(value.version)}`;
  const api = value.api;
  if (
    typeof api !== "string" &&
    !(
      isPlainObject(api) &&
      typeof api.url === "string" &&
      typeof api.calendars === "string" &&
      typeof api.fieldMap === "string"
    )
  ) {
    return "no api";
  }
  if (typeof value.siteUrl !== "string") return "no siteUrl";
  if (value.portal !== null) {
    const problem = portalProblem(value.portal);
    if (problem) return `portal${problem}`;
  }
  if (value.sources !== undefined) {
    if (!Array.isArray(value.sources)) return "sources is malformed";
    for (const source of value.sources as unknown[]) {
      const problem = sourceProblem(source);
      if (problem) return `sources: ${problem}`;
    }
  }
  const next = value.nextChange;
  if (next !== null && (!isPlainObject(next) || Number.isNaN(Date.parse(String(next.rebuildAt)))))
    return "nextChange is malformed";
  if (!isPlainObject(value.feeds)) return "feeds are malformed";
  if (value.feedsChanged !== undefined && !Array.isArray(value.feedsChanged)) {
    return "feedsChanged is malformed";
  }
  return value as unknown as BuildState;
}

/** What is wrong with a recorded portal's lists (" is malformed"...), or null. */
function portalProblem(portal: unknown): string | null {
  if (
    !isPlainObject(portal) ||
    !isPlainObject(portal.calendarList) ||
    !Array.isArray(portal.calendars)
  )
    return " is malformed";
  if (!validPages(portal.calendarList.pages) || !isPlainObject(portal.calendarList.calendars))
    return ".calendarList is malformed";
  for (const calendar of portal.calendars as unknown[]) {
    if (
      !isPlainObject(calendar) ||
      typeof calendar.id !== "string" ||
      typeof calendar.fingerprint !== "string" ||
      typeof calendar.versions !== "string" ||
      !validPages(calendar.pages)
    )
      return ".calendars is malformed";
  }
  return null;
}

function sourceProblem(source: unknown): string | null {
  if (!isPlainObject(source) || typeof source.id !== "string") return "a source has no id";
  if (source.kind === "portal") {
    const api = source.api;
    if (!isPlainObject(api) || typeof api.url !== "string") return `source ${source.id}: no api`;
    const problem = source.portal === null ? null : portalProblem(source.portal);
    return problem && `source ${source.id}: portal${problem}`;
  }
  if (source.kind === "ics") {
    const feed = source.feed;
    const valid =
      feed === null ||
      (isPlainObject(feed) &&
        typeof feed.digest === "string" &&
        (feed.etag === null || typeof feed.etag === "string") &&
        (feed.lastModified === null || typeof feed.lastModified === "string"));
    return typeof source.url === "string" && valid
      ? null
      : `source ${source.id}: feed is malformed`;
  }
  return `source ${source.id}: unknown kind`;
}

export function parseCalendarVersions(value: unknown): CalendarVersions | string {
  if (!isPlainObject(value) || value.version !== BUILD_STATE_VERSION) return "not a versions file";
  if (!Array.isArray(value.pages)) return "no pages";
  for (const page of value.pages as unknown[]) {
    if (!Array.isArray(page)) return "a page is not a list";
    for (const pair of page as unknown[]) {
      if (!Array.isArray(pair) || typeof pair[0] !== "string" || typeof pair[1] !== "string")
        return "a page holds something else than [id, version] pairs";
    }
  }
  return value as unknown as CalendarVersions;
}

function validPages(pages: unknown): boolean {
  return (
    Array.isArray(pages) &&
    pages.every(
      (page) =>
        isPlainObject(page) &&
        (page.path === null || typeof page.path === "string") &&
        (page.etag === null || typeof page.etag === "string") &&
        (page.lastModified === null || typeof page.lastModified === "string") &&
        typeof page.items === "number",
    )
  );
}
