import { readFileSync } from "node:fs";
import { ConfigError } from "../errors.ts";
import { EMPTY_FIELD_MAP, type FieldMap, parseFieldMap } from "../model/field-map.ts";
import { envSettings } from "./env-settings.ts";

/** How the token travels: `Authorization: Bearer`, a named header, or a query parameter. */
export type AuthMode =
  | { readonly kind: "bearer" }
  | { readonly kind: "scheme"; readonly name: string }
  | { readonly kind: "header"; readonly name: string }
  | { readonly kind: "query"; readonly name: string };

/**
 * `auto` follows whatever the responses announce (Link header, next URL or
 * cursor in an envelope, page numbers in an envelope), asking for the page
 * size with `sizeParam` on the first request when set; `page` and `offset`
 * count through the list with the named query parameters; `none` reads one
 * response (docs/configuration.md, API section).
 */
export type PagingMode =
  | { readonly kind: "auto"; readonly sizeParam: string | null }
  | { readonly kind: "none" }
  | { readonly kind: "page"; readonly param: string; readonly sizeParam: string }
  | { readonly kind: "offset"; readonly param: string; readonly sizeParam: string };

/** Where the portal is and how the token travels. */
export interface ApiEndpoint {
  /** Base URL without trailing slash, credentials, query or fragment. */
  readonly baseUrl: string;
  readonly token: string;
  readonly auth: AuthMode;
}

/** How the portal is read: every API setting but its address and token. */
export interface ApiOptions {
  readonly concurrency: number;
  readonly timeoutMs: number;
  /** Retries after the first attempt. */
  readonly retries: number;
  /** Longest wait for one retry, including a server's Retry-After. */
  readonly retryMaxWaitMs: number;
  /** Cached responses younger than this are used without asking the portal. */
  readonly cacheDurationMs: number;
  readonly cacheDir: string;
  /** Calendar ids to include; null for all. */
  readonly calendars: readonly string[] | null;
  readonly fieldMap: FieldMap;
  /** With the portal unreachable, a cached snapshot younger than this is used; null: fail. */
  readonly allowStaleMs: number | null;
  readonly paging: PagingMode;
  /** Page size sent with `page`/`offset` paging. */
  readonly pageSize: number;
  /** A response body larger than this is stopped (an endless or runaway answer). */
  readonly maxResponseBytes: number;
}

/** API settings, read once from the environment; every variable is in docs/configuration.md. */
export interface ApiConfig extends ApiEndpoint, ApiOptions {}

/**
 * The API options that say what a portal is (which calendars, how its
 * records and pages are read, whether its stale data will do), not how hard
 * it is pressed: a source of EVENT_SOURCES_FILE sets them for itself and
 * never takes them from the environment (src/config/sources.ts).
 */
export const PORTAL_SHAPE_OPTIONS = [
  "EVENT_API_CALENDARS",
  "EVENT_API_FIELD_MAP",
  "EVENT_API_ALLOW_STALE",
  "EVENT_API_PAGING",
  "EVENT_API_PAGE_SIZE_PARAM",
  "EVENT_API_PAGE_SIZE",
] as const;

/** What readApiOptions reads: every API setting but the portal's address and token. */
export const API_OPTIONS_SETTINGS = envSettings("API", [
  "EVENT_API_CONCURRENCY",
  "EVENT_API_TIMEOUT",
  "EVENT_API_RETRIES",
  "EVENT_API_RETRY_MAX_WAIT",
  "EVENT_API_CACHE_DURATION",
  "EVENT_API_CACHE_DIR",
  ...PORTAL_SHAPE_OPTIONS,
  "EVENT_API_MAX_RESPONSE_SIZE",
]);

/** What readApiConfig reads. */
export const API_SETTINGS = [
  ...envSettings("API", [
    "EVENT_API_URL",
    "EVENT_API_TOKEN",
    "EVENT_API_TOKEN_FILE",
    "EVENT_API_AUTH",
  ]),
  ...API_OPTIONS_SETTINGS,
];

export function readApiConfig(env: NodeJS.ProcessEnv): ApiConfig {
  return { ...readApiEndpoint(env), ...readApiOptions(env) };
}

function readApiEndpoint(env: NodeJS.ProcessEnv): ApiEndpoint {
  return {
    baseUrl: readBaseUrl(env.EVENT_API_URL),
    token: readToken(env),
    auth: readAuth(env.EVENT_API_AUTH),
  };
}

export function readApiOptions(env: NodeJS.ProcessEnv): ApiOptions {
  return {
    concurrency: readInt(env, "EVENT_API_CONCURRENCY", 8, 1, 64),
    timeoutMs: readDuration(env, "EVENT_API_TIMEOUT", 30_000, { bareUnit: "ms", min: 1 }),
    retries: readInt(env, "EVENT_API_RETRIES", 4, 0, 10),
    retryMaxWaitMs: readDuration(env, "EVENT_API_RETRY_MAX_WAIT", 60_000, {
      bareUnit: "ms",
      min: 0,
    }),
    cacheDurationMs: readDuration(env, "EVENT_API_CACHE_DURATION", 0, { min: 0 }),
    cacheDir: readCacheDir(env),
    calendars: readList(env.EVENT_API_CALENDARS),
    fieldMap: readFieldMap(env.EVENT_API_FIELD_MAP),
    allowStaleMs: env.EVENT_API_ALLOW_STALE?.trim()
      ? readDuration(env, "EVENT_API_ALLOW_STALE", 0, { min: 1 })
      : null,
    paging: readPaging(env.EVENT_API_PAGING, env.EVENT_API_PAGE_SIZE_PARAM),
    pageSize: readInt(env, "EVENT_API_PAGE_SIZE", 100, 1, 10_000),
    maxResponseBytes: readSize(env, "EVENT_API_MAX_RESPONSE_SIZE", 64 * MIB),
  };
}

/**
 * EVENT_API_CACHE_DIR: the fetch cache, and beside it what a build keeps for
 * the next one (the published state, copied images, the search index).
 */
/** What readCacheDir reads (listed in API_OPTIONS_SETTINGS too). */
export const CACHE_DIR_SETTINGS = envSettings("API", ["EVENT_API_CACHE_DIR"]);

/** EVENT_API_CACHE_DIR: the fetch cache, and what is kept from one run to the next. */
export function readCacheDir(env: NodeJS.ProcessEnv): string {
  return env.EVENT_API_CACHE_DIR?.trim() || ".cache";
}

const MIB = 1024 * 1024;
const SIZE_UNITS: Readonly<Record<string, number>> = {
  b: 1,
  k: 1024,
  kb: 1024,
  kib: 1024,
  m: MIB,
  mb: MIB,
  mib: MIB,
  g: 1024 * MIB,
  gb: 1024 * MIB,
  gib: 1024 * MIB,
};
/** Node cannot hold a longer string; a response is read into one. */
const MAX_SIZE = 512 * MIB;

/** Sizes as "64MB", "512 KiB" or bytes; K, M and G are binary (1 MB = 1,048,576 bytes). */
function readSize(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const match = /^(\d+(?:\.\d+)?)\s*([a-z]+)?$/i.exec(raw);
  const factor = SIZE_UNITS[match?.[2]?.toLowerCase() ?? "b"];
  const value = match?.[1] && factor ? Math.round(Number(match[1]) * factor) : Number.NaN;
  if (!(value >= 1024 && value <= MAX_SIZE)) {
    throw new ConfigError(
      `${name}: "${raw}" is not a size from 1KB to 512MB (expected e.g. 64MB, 200MB or a number of bytes).`,
    );
  }
  return value;
}

function readBaseUrl(raw: string | undefined): string {
  const value = raw?.trim();
  if (!value) {
    throw new ConfigError(
      "EVENT_API_URL: not set (expected the portal API base URL, e.g. https://portal.example.org/api/v1).",
    );
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(
      `EVENT_API_URL: not a URL (expected e.g. https://portal.example.org/api/v1).`,
    );
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ConfigError(`EVENT_API_URL: expected an http(s) URL, got a ${url.protocol} URL.`);
  }
  if (url.username || url.password) {
    throw new ConfigError(
      "EVENT_API_URL: must not contain credentials; put the token in EVENT_API_TOKEN.",
    );
  }
  if (url.search || url.hash) {
    throw new ConfigError(
      "EVENT_API_URL: must not contain a query string or fragment (a token parameter goes in EVENT_API_TOKEN with EVENT_API_AUTH=query:<name>).",
    );
  }
  return `${url.origin}${url.pathname}`.replace(/\/+$/, "");
}

function readToken(env: NodeJS.ProcessEnv): string {
  let token = env.EVENT_API_TOKEN?.trim();
  const file = env.EVENT_API_TOKEN_FILE?.trim();
  if (!token && file) {
    try {
      token = readFileSync(file, "utf8").trim();
    } catch {
      throw new ConfigError(
        `EVENT_API_TOKEN_FILE: cannot read "${file}" (expected a file holding the token).`,
      );
    }
    if (!token)
      throw new ConfigError(`EVENT_API_TOKEN_FILE: "${file}" is empty (expected the token).`);
  }
  if (!token) {
    throw new ConfigError(
      "EVENT_API_TOKEN: not set (expected the token from the Organization Administrator, or EVENT_API_TOKEN_FILE naming a file that holds it).",
    );
  }
  // Never echo the token: say only what is wrong with it.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: rejecting control characters is the point
  if (/[\u0000-\u001f\u007f]/.test(token)) {
    throw new ConfigError(
      "EVENT_API_TOKEN: contains control characters or line breaks (expected one line).",
    );
  }
  return token;
}

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const RESERVED_HEADERS = new Set([
  "host",
  "content-length",
  "connection",
  "transfer-encoding",
  "cookie",
]);

function readAuth(raw: string | undefined): AuthMode {
  const value = raw?.trim() || "bearer";
  if (value.toLowerCase() === "bearer") return { kind: "bearer" };
  const colon = value.indexOf(":");
  const kind = value.slice(0, colon).toLowerCase();
  const name = value.slice(colon + 1).trim();
  if (colon > 0 && kind === "scheme" && /^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(name)) {
    return name.toLowerCase() === "bearer" ? { kind: "bearer" } : { kind: "scheme", name };
  }
  if (
    colon > 0 &&
    kind === "header" &&
    HEADER_NAME.test(name) &&
    !RESERVED_HEADERS.has(name.toLowerCase())
  ) {
    return { kind: "header", name };
  }
  if (colon > 0 && kind === "query" && /^[A-Za-z0-9._~-]+$/.test(name)) {
    return { kind: "query", name };
  }
  throw new ConfigError(
    `EVENT_API_AUTH: "${value}" is not understood (expected bearer, scheme:<Scheme>, header:<Header-Name> or query:<parameter>).`,
  );
}

const PARAM = "[A-Za-z0-9._~\\[\\]-]+";
const COUNTED = new RegExp(`^(page|offset)(?::(${PARAM}),(${PARAM}))?$`, "i");

function readPaging(raw: string | undefined, rawSizeParam: string | undefined): PagingMode {
  const value = raw?.trim() || "auto";
  const lower = value.toLowerCase();
  if (lower === "none") return { kind: lower };
  if (lower === "auto") return { kind: lower, sizeParam: readSizeParam(rawSizeParam) };
  const match = COUNTED.exec(value);
  if (match?.[1]) {
    const kind = match[1].toLowerCase() as "page" | "offset";
    return {
      kind,
      param: match[2] ?? kind,
      sizeParam: match[3] ?? (kind === "page" ? "per_page" : "limit"),
    };
  }
  throw new ConfigError(
    `EVENT_API_PAGING: "${value}" is not understood (expected auto, none, page, offset, page:<page-param>,<size-param> or offset:<offset-param>,<size-param>).`,
  );
}

/**
 * The page size parameter `auto` paging sends on a list's first request
 * (`limit` in the reference contract, docs/api.md); none unless named, since
 * a portal may refuse parameters it does not know.
 */
function readSizeParam(raw: string | undefined): string | null {
  const value = raw?.trim() || "none";
  if (value.toLowerCase() === "none") return null;
  if (!new RegExp(`^${PARAM}$`).test(value)) {
    throw new ConfigError(
      `EVENT_API_PAGE_SIZE_PARAM: "${value}" is not a query parameter name (or "none").`,
    );
  }
  return value;
}

function readInt(
  env: NodeJS.ProcessEnv,
  name: string,
  fallback: number,
  min: number,
  max: number,
): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value < min || value > max) {
    throw new ConfigError(`${name}: expected a whole number from ${min} to ${max}, got "${raw}".`);
  }
  return value;
}

const UNITS: Readonly<Record<string, number>> = {
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
};

/**
 * Durations as eleventy-fetch writes them ("30s", "15m", "1h", "2d", "1w"),
 * plus "ms". A bare number is milliseconds where `bareUnit` says so.
 */
export function parseDuration(raw: string, bareUnit?: "ms"): number | null {
  const match = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h|d|w)?$/i.exec(raw.trim());
  if (!match?.[1]) return null;
  const unit = match[2]?.toLowerCase() ?? bareUnit;
  if (!unit) return null;
  const factor = UNITS[unit];
  return factor === undefined ? null : Math.round(Number(match[1]) * factor);
}

function readDuration(
  env: NodeJS.ProcessEnv,
  name: string,
  fallback: number,
  rules: { bareUnit?: "ms"; min: number },
): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const value = parseDuration(raw, rules.bareUnit);
  if (value === null || value < rules.min) {
    const example = rules.bareUnit
      ? "e.g. 30s, 2m or 5000 (milliseconds)"
      : "e.g. 30s, 15m, 1h or 2d";
    throw new ConfigError(`${name}: "${raw}" is not a duration (expected ${example}).`);
  }
  return value;
}

function readList(raw: string | undefined): readonly string[] | null {
  const ids = (raw ?? "")
    .split(",")
    .map((id) => id.trim())
    .filter(Boolean);
  return ids.length > 0 ? ids : null;
}

function readFieldMap(raw: string | undefined): FieldMap {
  const value = raw?.trim();
  if (!value) return EMPTY_FIELD_MAP;
  let text = value;
  if (!value.startsWith("{")) {
    try {
      text = readFileSync(value, "utf8");
    } catch {
      throw new ConfigError(
        `EVENT_API_FIELD_MAP: cannot read "${value}" (expected a JSON object or the path of a JSON file).`,
      );
    }
  }
  try {
    return parseFieldMap(JSON.parse(text));
  } catch (error) {
    const reason = error instanceof SyntaxError ? "invalid JSON" : (error as Error).message;
    throw new ConfigError(
      `EVENT_API_FIELD_MAP: ${reason} (see docs/configuration.md for an example).`,
    );
  }
}
