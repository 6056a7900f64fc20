import { readFileSync } from "node:fs";
import { ConfigError } from "../errors.ts";
import { SOURCE_ID } from "../model/url-scheme.ts";
import {
  API_OPTIONS_SETTINGS,
  type ApiConfig,
  PORTAL_SHAPE_OPTIONS,
  readApiConfig,
  readApiOptions,
} from "./api.ts";
import { envSettings } from "./env-settings.ts";

/**
 * EVENT_SOURCES_FILE: several organizations in one site (docs/sources.md).
 * The file is a JSON list of sources, each a portal of its own (its URL, the
 * NAME of the variable holding its token, and its own API settings under the
 * names the single-portal variables use) or a partner's iCalendar feed.
 * Every source's settings are read by readApiConfig over a view of the
 * environment made for that source, so a source's setting means exactly what
 * the same variable means for a site of one portal.
 */

/** What every source has: a slug that namespaces its calendars, and the organization's name. */
interface SourceBase {
  /** A slug ([a-z0-9-], up to 32 characters): its calendars' ids are `<id>~<calendar id>`. */
  readonly id: string;
  /** The organization's name, as pages and feeds show it. */
  readonly name: string;
  /**
   * The source whose calendars keep their own ids, as a site of one portal
   * has them: a site that moves from EVENT_API_URL to a sources file marks
   * its portal primary and keeps every address and UID.
   */
  readonly primary: boolean;
  /** The source as the file writes it (no token: one is refused), for check-api's proposed block. */
  readonly entry: Readonly<Record<string, unknown>>;
}

export interface PortalSourceConfig extends SourceBase {
  readonly kind: "portal";
  readonly api: ApiConfig;
}

export interface IcsSourceConfig extends SourceBase {
  readonly kind: "ics";
  /** The feed's http(s) URL. */
  readonly url: string;
  /** The largest feed read, in bytes (EVENT_API_MAX_RESPONSE_SIZE of the site). */
  readonly maxBytes: number;
  readonly timeoutMs: number;
  readonly cacheDir: string;
  /** With the feed unreachable, its last good events younger than this are used. */
  readonly allowStaleMs: number | null;
}

export type SourceConfig = PortalSourceConfig | IcsSourceConfig;

export interface SourcesConfig {
  /** The file as named, for messages. */
  readonly file: string;
  readonly sources: readonly SourceConfig[];
}

/** What readSources reads besides the file's own settings. */
export const SOURCES_SETTINGS = envSettings("API", ["EVENT_SOURCES_FILE"]);

/**
 * Settings a source may set for itself: every API option but the cache
 * folder (the site has one), and its token's placement. Those of how hard
 * the portal is pressed (concurrency, timeouts, retries, sizes) come from the
 * environment unless the source sets them; those that say what a portal is
 * (token placement, paging, field map, calendars, stale data) never do: in
 * the environment they belong to the site of one portal.
 */
const PORTAL_OWN = new Set<string>(["EVENT_API_AUTH", ...PORTAL_SHAPE_OPTIONS]);
const OPTIONS = API_OPTIONS_SETTINGS.map((setting) => setting.name);
const SOURCE_KEYS = new Set([
  ...PORTAL_OWN,
  ...OPTIONS.filter((name) => name !== "EVENT_API_CACHE_DIR"),
]);
const INHERITED = OPTIONS.filter((name) => !PORTAL_OWN.has(name));
const OWN_KEYS = new Set(["id", "name", "url", "ics", "tokenEnv", "primary"]);
const TOKEN_KEYS = new Set(["token", "EVENT_API_TOKEN", "EVENT_API_TOKEN_FILE", "apiToken"]);
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const MAX_SOURCES = 50;

/**
 * One organization's trouble is its own (docs/sources.md): unless a source
 * says otherwise, its last good data is used for up to a week while its
 * portal is down or refuses its token, rather than failing every other
 * organization's build.
 */
const DEFAULT_SOURCE_STALE = "7d";

/** The sources of EVENT_SOURCES_FILE, or null when it is not set. */
export function readSources(env: NodeJS.ProcessEnv): SourcesConfig | null {
  const file = env.EVENT_SOURCES_FILE?.trim();
  if (!file) return null;
  const fail = (message: string): never => {
    throw new ConfigError(`EVENT_SOURCES_FILE (${file}): ${message}`);
  };
  let text = "";
  try {
    text = readFileSync(file, "utf8");
  } catch {
    fail("cannot read the file (expected a JSON list of sources, docs/sources.md).");
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    fail("invalid JSON (expected a list of sources, docs/sources.md).");
  }
  if (!Array.isArray(json) || json.length === 0) fail("expected a non-empty JSON list of sources.");
  const list = json as unknown[];
  if (list.length > MAX_SOURCES) fail(`${list.length} sources; at most ${MAX_SOURCES}.`);
  const sources = list.map((raw, index) => readSource(raw, index, env, fail));
  const seen = new Set<string>();
  for (const source of sources) {
    if (seen.has(source.id)) fail(`source "${source.id}": id: used by two sources.`);
    seen.add(source.id);
  }
  if (sources.filter((s) => s.primary).length > 1) fail("more than one source is primary.");
  return { file, sources };
}

function readSource(
  raw: unknown,
  index: number,
  env: NodeJS.ProcessEnv,
  fail: (message: string) => never,
): SourceConfig {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    fail(`source ${index + 1}: expected an object.`);
  }
  const record = raw as Record<string, unknown>;
  const id = typeof record.id === "string" ? record.id : "";
  if (!SOURCE_ID.test(id)) {
    fail(
      `source ${index + 1}: id: ${JSON.stringify(record.id ?? null)} is not a slug (expected lowercase letters, digits and inner hyphens, up to 32).`,
    );
  }
  const at = (key: string, message: string): never => fail(`source "${id}": ${key}: ${message}`);
  for (const key of Object.keys(record)) {
    if (TOKEN_KEYS.has(key)) {
      at(
        key,
        "a token does not belong in the file; put it in an environment variable and name that variable in tokenEnv.",
      );
    }
    if (!OWN_KEYS.has(key) && !SOURCE_KEYS.has(key)) {
      at(key, "not a setting a source can have (docs/sources.md).");
    }
  }
  const name = typeof record.name === "string" ? record.name.trim() : "";
  if (!name || name.length > 200)
    at("name", "expected the organization's name (1 to 200 characters).");
  if (record.primary !== undefined && typeof record.primary !== "boolean") {
    at("primary", "expected true or false.");
  }
  const base = { id, name, primary: record.primary === true, entry: { ...record } };
  const settings: Record<string, string> = {};
  for (const key of SOURCE_KEYS) {
    const value = record[key];
    if (value === undefined) continue;
    if (typeof value === "string" || typeof value === "number") settings[key] = String(value);
    else if (key === "EVENT_API_FIELD_MAP" && typeof value === "object" && value !== null) {
      settings[key] = JSON.stringify(value);
    } else at(key, "expected a string, as the variable of that name holds.");
  }
  const view: NodeJS.ProcessEnv = { EVENT_API_ALLOW_STALE: DEFAULT_SOURCE_STALE };
  for (const key of INHERITED) if (env[key] !== undefined) view[key] = env[key];
  Object.assign(view, settings);
  const withKey = <T>(read: () => T): T => {
    try {
      return read();
    } catch (error) {
      if (error instanceof ConfigError) {
        // The file names the URL and the token's variable by keys of its own.
        const message = error.message
          .replace(/^EVENT_API_URL:/, "url:")
          .replace(/^EVENT_API_TOKEN:/, `tokenEnv (${String(record.tokenEnv)}):`);
        fail(`source "${id}": ${message}`);
      }
      throw error;
    }
  };

  if (record.ics !== undefined) {
    if (record.url !== undefined || record.tokenEnv !== undefined) {
      at("ics", "a source is a portal (url, tokenEnv) or an iCalendar feed (ics), not both.");
    }
    const url = readFeedUrl(record.ics, (message) => at("ics", message));
    const api = withKey(() => readApiOptions(view));
    return {
      ...base,
      kind: "ics",
      url,
      maxBytes: api.maxResponseBytes,
      timeoutMs: api.timeoutMs,
      cacheDir: api.cacheDir,
      allowStaleMs: api.allowStaleMs,
    };
  }
  if (typeof record.url !== "string")
    at("url", "expected the portal's API URL (or ics: a feed's URL).");
  const tokenEnv = typeof record.tokenEnv === "string" ? record.tokenEnv : "";
  if (!ENV_NAME.test(tokenEnv)) {
    at("tokenEnv", "expected the name of the environment variable that holds the token.");
  }
  if (!env[tokenEnv]?.trim()) at("tokenEnv", `the environment variable ${tokenEnv} is not set.`);
  const api = withKey(() =>
    readApiConfig({ ...view, EVENT_API_URL: record.url as string, EVENT_API_TOKEN: env[tokenEnv] }),
  );
  return { ...base, kind: "portal", api };
}

/**
 * A partner's feed address: http(s) without credentials. A query string is
 * kept: calendar hosts often put a private key there, which is why the
 * address is never printed (docs/sources.md).
 */
function readFeedUrl(raw: unknown, fail: (message: string) => never): string {
  let url: URL | null = null;
  try {
    url = typeof raw === "string" ? new URL(raw.trim()) : null;
  } catch {
    url = null;
  }
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:")) {
    return fail("expected the http(s) URL of an iCalendar feed.");
  }
  if (url.username || url.password) return fail("must not contain credentials.");
  url.hash = "";
  return url.href;
}
