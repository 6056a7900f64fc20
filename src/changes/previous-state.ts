import { createHash } from "node:crypto";
import { mkdir, open, readFile, rename, rm } from "node:fs/promises";
import { dirname } from "node:path";
import { PublishedFileMissing, PublishedSite } from "../api/published-site.ts";
import { eventUid } from "../model/event-uid.ts";
import { encodeIdSegment, paths } from "../model/url-scheme.ts";
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
import { DEFAULT_OUTPUT, legacyStatePath, publishedStatePath } from "./state-location.ts";

/**
 * Where the previous published state comes from (docs/deploy.md, "The
 * previous published state"), first usable wins:
 *
 * 1. the state the last successful publish of this output folder for this
 *    SITE_URL kept in the fetch cache folder (EVENT_API_CACHE_DIR, at
 *    state-location.ts's path), kept between builds with the cache
 *    (netlify-plugin-cache, actions/cache, a server's disk); when there is
 *    none yet, the one state earlier versions kept for the whole cache
 *    folder, for the default output folder and the same SITE_URL;
 * 2. else the output folder's public JSON (`api/calendars.json`, each
 *    calendar's `events.json` and `changes.json`): what was published there;
 * 3. else the published site's public JSON (at SITE_URL/api/ or next to
 *    PREVIOUS_MANIFEST_URL), for a fresh build machine with an empty cache.
 *
 * Nothing usable means "no changes known": the build publishes what the
 * portal has and announces nothing, and never takes an event for deleted
 * because a record of it is missing. Every source tried is one log line.
 */

export interface PreviousStateOptions {
  /** EVENT_API_CACHE_DIR. */
  readonly cacheDir: string;
  /**
   * The folder this build publishes to: the state is kept per output folder
   * and SITE_URL, and the folder's public JSON is what was published there.
   * Absent for a run that publishes nothing (`npm start`): it reads the state
   * of the default output folder, and no folder's public JSON (its own
   * renders are not a published site).
   */
  readonly output?: string;
  readonly siteUrl: string;
  /** The published site whose public JSON is read when the cache has no state; null: none. */
  readonly publishedSite: string | null;
  readonly timeoutMs?: number;
  readonly log?: (line: string) => void;
}

export interface PreviousState {
  readonly state: PublishedState | null;
  /** The file or URL it was read from, or "none". */
  readonly source: string;
}

export async function loadPreviousState(options: PreviousStateOptions): Promise<PreviousState> {
  const log = options.log ?? ((line: string) => console.log(line));
  const file = publishedStatePath(
    options.cacheDir,
    options.output ?? DEFAULT_OUTPUT,
    options.siteUrl,
  );
  const found =
    (await fromCache(file, options, log)) ??
    (options.output === undefined ? null : await fromOutputFolder(options.output, options, log));
  if (found) return found;
  const local =
    options.output === undefined ? "" : ` or ${new PublishedSite(options.output).where("/api/")}`;
  if (options.publishedSite === null) {
    return none(`no usable ${file}${local}, and nothing published to read`, log);
  }
  return fromLiveSite(options.publishedSite, options, log);
}

/** The state kept in the cache folder for this output folder and SITE_URL, else at the old place. */
async function fromCache(
  file: string,
  options: PreviousStateOptions,
  log: (line: string) => void,
): Promise<PreviousState | null> {
  const kept = await readStateFile(file, options.siteUrl);
  if ("state" in kept) {
    log(`previous state: ${file} (${describe(kept.state)})`);
    return { state: kept.state, source: file };
  }
  if ("problem" in kept) {
    log(`previous state: ${file} ${kept.problem}; ignored`);
    return null;
  }
  const legacy = legacyStatePath(options.cacheDir, options.output ?? DEFAULT_OUTPUT);
  if (legacy === null) return null;
  const old = await readStateFile(legacy, options.siteUrl);
  if ("state" in old) {
    log(
      `previous state: ${legacy} (${describe(old.state)}; kept there by earlier versions, from now on at ${file})`,
    );
    return { state: old.state, source: legacy };
  }
  if ("problem" in old) log(`previous state: ${legacy} ${old.problem}; ignored`);
  return null;
}

/** The output folder's public JSON: what the last publish into it published. */
async function fromOutputFolder(
  output: string,
  options: PreviousStateOptions,
  log: (line: string) => void,
): Promise<PreviousState | null> {
  const folder = new PublishedSite(output);
  const where = folder.where("/api/");
  try {
    const found = await fromPublicJson(folder, options.siteUrl);
    if ("builtFor" in found) {
      log(
        `previous state: ${where} was built for ${found.builtFor}, not ${options.siteUrl}; ignored`,
      );
    }
    if (!("state" in found)) return null;
    log(`previous state: ${where} (${describe(found.state)}, read from the output folder)`);
    return { state: found.state, source: where };
  } catch (error) {
    log(`previous state: ${where}: ${(error as Error).message.replace(/\.$/, "")}; ignored`);
    return null;
  }
}

/** The published site's public JSON, for a fresh build machine. */
async function fromLiveSite(
  publishedSite: string,
  options: PreviousStateOptions,
  log: (line: string) => void,
): Promise<PreviousState> {
  const site = new PublishedSite(publishedSite, { timeoutMs: options.timeoutMs });
  const where = site.where("/api/");
  try {
    const found = await fromPublicJson(site, options.siteUrl);
    if ("builtFor" in found) {
      return none(`${where} was built for ${found.builtFor}, not ${options.siteUrl}`, log);
    }
    if (!("state" in found)) return none(`${where} has no published site yet`, log);
    log(`previous state: ${where} (${describe(found.state)}, read from the live site)`);
    return { state: found.state, source: where };
  } catch (error) {
    return none(`${where}: ${(error as Error).message.replace(/\.$/, "")}`, log);
  }
}

/**
 * Writes the state after a successful publish of `output`: a whole new file,
 * swapped in by a rename. A state earlier versions kept for this site at the
 * old place is then removed: it is carried over, and must never be read
 * again in place of a newer one (by this version or an older one). Returns
 * where it is, and the hash of what was written (stateFileHash), which the
 * publish records without reading the file back (45 MB at 100,000 events).
 */
export async function savePublishedState(
  place: { readonly cacheDir: string; readonly output: string },
  state: PublishedState,
): Promise<{ readonly file: string; readonly hash: string }> {
  const file = publishedStatePath(place.cacheDir, place.output, state.siteUrl);
  await mkdir(dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  const hash = stateHasher();
  const handle = await open(temporary, "w");
  try {
    for (const chunk of jsonChunks(state)) {
      hash.update(chunk);
      await handle.write(chunk);
    }
  } finally {
    await handle.close();
  }
  await rename(temporary, file);
  const legacy = legacyStatePath(place.cacheDir, place.output);
  if (legacy !== null && "state" in (await readStateFile(legacy, state.siteUrl))) {
    await rm(legacy, { force: true });
  }
  return { file, hash: hash.digest() };
}

/** What tells one published state file's bytes from another's. */
export function stateFileHash(content: string | Uint8Array): string {
  const hash = stateHasher();
  hash.update(content);
  return hash.digest();
}

/** stateFileHash fed a piece at a time: the same hash of the same bytes. */
function stateHasher(): { update(piece: string | Uint8Array): void; digest(): string } {
  const hash = createHash("sha256");
  return {
    update: (piece) => {
      hash.update(piece);
    },
    digest: () => hash.digest("base64url"),
  };
}

/**
 * `JSON.stringify(state)` and a line end, the same bytes, in pieces of about
 * 64 KB: a list of the state's is written item by item. At 100,000 events
 * the state is 45 MB, and its text made whole, then encoded, then hashed,
 * was the top of the publish step's memory (docs/performance.md, What
 * changed, item 31).
 */
function* jsonChunks(state: PublishedState): Generator<string> {
  let chunk = "{";
  let firstKey = true;
  for (const [key, value] of Object.entries(state) as [string, unknown][]) {
    const json = Array.isArray(value) ? "[" : JSON.stringify(value);
    if (json === undefined) continue; // left out, as JSON.stringify leaves it
    chunk += `${firstKey ? "" : ","}${JSON.stringify(key)}:${json}`;
    firstKey = false;
    if (!Array.isArray(value)) continue;
    for (let index = 0; index < value.length; index++) {
      chunk += `${index === 0 ? "" : ","}${JSON.stringify(value[index]) ?? "null"}`;
      if (chunk.length > 1 << 16) {
        yield chunk;
        chunk = "";
      }
    }
    chunk += "]";
  }
  yield `${chunk}}\n`;
}

type StateFile = { state: PublishedState } | { problem: string } | { absent: true };

async function readStateFile(file: string, siteUrl: string): Promise<StateFile> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return { absent: true };
    return { problem: `could not be read (${(error as Error).message})` };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { problem: "is not JSON" };
  }
  // Let go of the text (45 MB at 100,000 events) while its records are checked and copied.
  text = "";
  const parsed = parsePublishedState(json);
  if ("problem" in parsed) return { problem: `is not a published state (${parsed.problem})` };
  if (trimSlash(parsed.state.siteUrl) !== trimSlash(siteUrl)) {
    return { problem: `was written for ${parsed.state.siteUrl}, not ${siteUrl}` };
  }
  return parsed;
}

/**
 * The state as the public JSON shows it: every calendar's events.json (any
 * failure makes the whole read fail: a missing calendar must not look
 * deleted) and changes.json (absent on sites published before it existed).
 * Absent when calendars.json is not there (404): nothing was published yet;
 * `builtFor` when the manifest names another SITE_URL (a demo build in the
 * output folder, say), whose events are not this site's.
 */
async function fromPublicJson(
  site: PublishedSite,
  siteUrl: string,
): Promise<{ state: PublishedState } | { absent: true } | { builtFor: string }> {
  const get = (path: string) =>
    site.readJson(path).catch((error: unknown) => {
      if (error instanceof PublishedFileMissing) return NOT_FOUND;
      throw error;
    });
  const calendars = await get(paths.apiCalendars());
  if (calendars === NOT_FOUND) return { absent: true };
  const manifest = (await get(paths.apiManifest())) as {
    generatedAt?: unknown;
    siteUrl?: unknown;
  } | null;
  if (typeof manifest?.siteUrl === "string" && trimSlash(manifest.siteUrl) !== trimSlash(siteUrl)) {
    return { builtFor: manifest.siteUrl };
  }
  const list = (calendars as { calendars?: unknown } | null)?.calendars;
  if (!Array.isArray(list)) throw new Error("calendars.json has no calendars list");
  const ids = list.map((calendar) => {
    const { id, segment } = (calendar ?? {}) as { id?: unknown; segment?: unknown };
    if (typeof id !== "string" || typeof segment !== "string" || encodeIdSegment(id) !== segment) {
      throw new Error("calendars.json has a calendar without a valid id and segment");
    }
    return id;
  });
  const uid = (calendarId: string, id: string) => eventUid({ calendarId, id }, siteUrl);
  const events: PublishedEventRecord[] = [];
  for (const id of ids) {
    const path = paths.apiEvents(id);
    const document = await get(path);
    const items = (document as { events?: unknown } | null)?.events;
    if (document === NOT_FOUND || !Array.isArray(items)) {
      throw new Error(`${path} is missing or has no events list`);
    }
    for (const item of items) {
      const record = parseEventRecord(item, { uid });
      if (record) events.push(record);
    }
  }
  const changes = await get(paths.apiChanges());
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
  const publishedAt =
    typeof manifest?.generatedAt === "string" && !Number.isNaN(Date.parse(manifest.generatedAt))
      ? manifest.generatedAt
      : new Date(0).toISOString();
  return {
    state: {
      version: PUBLISHED_STATE_VERSION,
      siteUrl,
      publishedAt,
      events,
      removed,
      announcements,
    },
  };
}

const NOT_FOUND = Symbol("not found");

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
