import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { eventUid } from "../model/event-uid.ts";
import {
  type Announcement,
  PUBLISHED_STATE_VERSION,
  type PublishedEventRecord,
  type PublishedState,
  parseAnnouncement,
  parseEventRecord,
  parsePublishedState,
  parseRemovedRecord,
  type RemovedEventRecord,
} from "./published-state.ts";

/**
 * Where the previous published state comes from (docs/deploy.md, "The
 * previous published state"):
 *
 * 1. `published-state.json` in the fetch cache folder (EVENT_API_CACHE_DIR),
 *    written after each successful publish and kept between builds with the
 *    cache (netlify-plugin-cache, actions/cache, a server's disk);
 * 2. else the live site's public JSON (`calendars.json`, each calendar's
 *    `events.json` and `changes.json`, next to PREVIOUS_MANIFEST_URL, by
 *    default SITE_URL/api/), for a fresh build machine with an empty cache.
 *
 * Nothing usable means "no changes known": the build publishes what the
 * portal has and announces nothing, and never takes an event for deleted
 * because a record of it is missing. Every outcome is one log line.
 */

export const STATE_FILE = "published-state.json";
export const PREVIOUS_STATE_TIMEOUT_MS = 10_000;

export interface PreviousStateOptions {
  /** EVENT_API_CACHE_DIR. */
  readonly cacheDir: string;
  readonly siteUrl: string;
  /** PREVIOUS_MANIFEST_URL: the public JSON is read from its folder; "none" reads only the cache. */
  readonly remoteUrl?: string;
  readonly fetch?: typeof globalThis.fetch;
  readonly timeoutMs?: number;
  readonly log?: (line: string) => void;
}

export interface PreviousState {
  readonly state: PublishedState | null;
  /** The file or URL it was read from, or "none". */
  readonly source: string;
}

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

export async function loadPreviousState(options: PreviousStateOptions): Promise<PreviousState> {
  const log = options.log ?? ((line: string) => console.log(line));
  const file = join(options.cacheDir, STATE_FILE);
  const text = await readFile(file, "utf8").catch((error: NodeJS.ErrnoException) =>
    error.code === "ENOENT" ? null : `\0${error.message}`,
  );
  if (text !== null) {
    const found = fromText(text, options.siteUrl);
    if ("state" in found) {
      log(`previous state: ${file} (${describe(found.state)})`);
      return { state: found.state, source: file };
    }
    log(`previous state: ${file} ${found.problem}; ignored`);
  }

  if (options.remoteUrl === "none") {
    return none(`no usable ${file}, and PREVIOUS_MANIFEST_URL=none`, log);
  }
  const base = apiBase(options);
  if (base === null) {
    return none(`${options.remoteUrl ? "PREVIOUS_MANIFEST_URL" : "SITE_URL"} is not a URL`, log);
  }
  if (LOOPBACK.has(base.hostname) && !options.remoteUrl) {
    return none(`no ${file}, and SITE_URL is local, so nothing published to read`, log);
  }
  try {
    const state = await fromPublicJson(base, options);
    if (state === null) return none(`${base.href} has no published site yet`, log);
    log(`previous state: ${base.href} (${describe(state)}, read from the live site)`);
    return { state, source: base.href };
  } catch (error) {
    return none(`${base.href}: ${(error as Error).message}`, log);
  }
}

/** Writes the state after a successful publish: a whole new file, swapped in by a rename. */
export async function savePublishedState(cacheDir: string, state: PublishedState): Promise<string> {
  await mkdir(cacheDir, { recursive: true });
  const file = join(cacheDir, STATE_FILE);
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify(state)}\n`);
  await rename(temporary, file);
  return file;
}

function fromText(text: string, siteUrl: string): { state: PublishedState } | { problem: string } {
  if (text.startsWith("\0")) return { problem: `could not be read (${text.slice(1)})` };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { problem: "is not JSON" };
  }
  const parsed = parsePublishedState(json);
  if ("problem" in parsed) return { problem: `is not a published state (${parsed.problem})` };
  if (trimSlash(parsed.state.siteUrl) !== trimSlash(siteUrl)) {
    return { problem: `was written for ${parsed.state.siteUrl}, not ${siteUrl}` };
  }
  return parsed;
}

function apiBase(options: PreviousStateOptions): URL | null {
  try {
    // The manifest's folder holds the rest of the public JSON.
    return options.remoteUrl
      ? new URL(".", options.remoteUrl)
      : new URL(`${trimSlash(options.siteUrl)}/api/`);
  } catch {
    return null;
  }
}

/**
 * The state as the public JSON shows it: every calendar's events.json (any
 * failure makes the whole read fail: a missing calendar must not look
 * deleted) and changes.json (absent on sites published before it existed).
 * Null when calendars.json answers 404: nothing was published yet.
 */
async function fromPublicJson(
  base: URL,
  options: PreviousStateOptions,
): Promise<PublishedState | null> {
  const get = getJson(options);
  const calendars = await get(new URL("calendars.json", base));
  if (calendars === NOT_FOUND) return null;
  const list = (calendars as { calendars?: unknown } | null)?.calendars;
  if (!Array.isArray(list)) throw new Error("calendars.json has no calendars list");
  const segments = list.map((calendar) => {
    const segment = (calendar as { segment?: unknown } | null)?.segment;
    if (typeof segment !== "string" || !/^[a-z0-9_-]+$/.test(segment)) {
      throw new Error("calendars.json has a calendar without a valid segment");
    }
    return segment;
  });
  const uid = (calendarId: string, id: string) => eventUid({ calendarId, id }, options.siteUrl);
  const events: PublishedEventRecord[] = [];
  for (const segment of segments) {
    const document = await get(new URL(`calendars/${segment}/events.json`, base));
    const items = (document as { events?: unknown } | null)?.events;
    if (document === NOT_FOUND || !Array.isArray(items)) {
      throw new Error(`calendars/${segment}/events.json is missing or has no events list`);
    }
    for (const item of items) {
      const record = parseEventRecord(item, { uid });
      if (record) events.push(record);
    }
  }
  const changes = await get(new URL("changes.json", base));
  const removed: RemovedEventRecord[] = [];
  const announcements: Announcement[] = [];
  if (changes !== NOT_FOUND) {
    const body = changes as { removed?: unknown; announcements?: unknown } | null;
    for (const item of Array.isArray(body?.removed) ? body.removed : []) {
      const record = parseRemovedRecord(item);
      if (record) removed.push(record);
    }
    for (const item of Array.isArray(body?.announcements) ? body.announcements : []) {
      const announcement = parseAnnouncement(item);
      if (announcement) announcements.push(announcement);
    }
  }
  const manifest = (await get(new URL("manifest.json", base))) as { generatedAt?: unknown } | null;
  const publishedAt =
    typeof manifest?.generatedAt === "string" && !Number.isNaN(Date.parse(manifest.generatedAt))
      ? manifest.generatedAt
      : new Date(0).toISOString();
  return {
    version: PUBLISHED_STATE_VERSION,
    siteUrl: options.siteUrl,
    publishedAt,
    events,
    removed,
    announcements,
  };
}

const NOT_FOUND = Symbol("not found");

function getJson(options: PreviousStateOptions) {
  const fetch = options.fetch ?? globalThis.fetch;
  const timeoutMs = options.timeoutMs ?? PREVIOUS_STATE_TIMEOUT_MS;
  return async (url: URL): Promise<unknown> => {
    let response: Response;
    try {
      response = await fetch(url, {
        headers: { accept: "application/json" },
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      const reason =
        error instanceof Error && error.name === "TimeoutError"
          ? `no answer within ${timeoutMs / 1000} s`
          : "unreachable";
      throw new Error(`${url.pathname} ${reason}`);
    }
    if (response.status === 404) {
      await response.body?.cancel().catch(() => undefined);
      return NOT_FOUND;
    }
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      throw new Error(`${url.pathname} answered HTTP ${response.status}`);
    }
    try {
      return await response.json();
    } catch {
      throw new Error(`${url.pathname} is not JSON`);
    }
  };
}

function none(reason: string, log: (line: string) => void): PreviousState {
  log(`previous state: none (${reason}); no changes known`);
  return { state: null, source: "none" };
}

function describe(state: PublishedState): string {
  return `${state.events.length} events, ${state.removed.length} removed, ${state.announcements.length} announced`;
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, "");
}
