import type { PagingMode } from "../config/api.ts";
import { isPlainObject } from "../model/field-map.ts";
import { findLink } from "./link-header.ts";

/** Keys under which an envelope carries its list, tried in order. */
const ENVELOPE_KEYS = [
  "items",
  "data",
  "results",
  "calendars",
  "eventCalendars",
  "event_calendars",
  "events",
  "records",
  "value",
  "entries",
  "rows",
  "content",
  "hits",
  "list",
] as const;

export interface PageInput {
  readonly body: unknown;
  /** Link header, if any (RFC 8288). */
  readonly link: string | null;
  /** X-Total-Count header, if any. */
  readonly totalCount: number | null;
  /** This page's URL, without the token. */
  readonly url: URL;
  readonly mode: PagingMode;
  readonly pageSize: number;
  /** Items collected from earlier pages. */
  readonly collected: number;
}

export interface Page {
  readonly items: readonly unknown[];
  readonly next: URL | null;
  /** Where the list was found: null for a bare array, else the envelope key ("data", "data.items"). */
  readonly envelope: string | null;
  /** How the next page was found, in words for check-api ("the Link header"); null without one. */
  readonly how: string | null;
}

/** The first page's URL: forced page/offset paging asks for the configured page size. */
export function firstPageUrl(url: URL, mode: PagingMode, pageSize: number): URL {
  const first = new URL(url);
  if (mode.kind === "auto" && mode.sizeParam && !first.searchParams.has(mode.sizeParam)) {
    // The portal's next links carry the size on; fewer, larger pages cost fewer round trips.
    first.searchParams.set(mode.sizeParam, String(pageSize));
  }
  if (mode.kind === "page" || mode.kind === "offset") {
    first.searchParams.set(mode.param, mode.kind === "page" ? "1" : "0");
    first.searchParams.set(mode.sizeParam, String(pageSize));
  }
  return first;
}

/**
 * Items of one list response and the URL of the next page. Accepts a bare
 * array or an envelope, and follows (in order) a Link rel="next" header, a
 * next URL in the envelope, a cursor in the envelope, or page/offset numbers.
 * Throws an Error (plain message) when the body holds no list.
 */
export function readPage(input: PageInput): Page {
  const list = listOf(input.body);
  if (!list)
    throw new Error(`expected a JSON list or an envelope with one of: ${ENVELOPE_KEYS.join(", ")}`);
  const { items, envelope } = list;
  const { mode } = input;
  if (mode.kind === "none") return { items, next: null, envelope, how: null };

  const total = input.totalCount ?? numberAt(input.body, TOTAL_KEYS);
  const reached = input.collected + items.length;
  if (mode.kind === "page" || mode.kind === "offset") {
    const next = countedNext(input.url, mode, items.length, total, reached);
    return {
      items,
      next,
      envelope,
      how: next ? `${mode.param}/${mode.sizeParam} parameters` : null,
    };
  }
  if (items.length === 0) return { items, next: null, envelope, how: null };

  const link = findLink(input.link, "next", input.url);
  const found: Found | null =
    (link && { url: link, how: 'the Link header (rel="next")' }) ??
    envelopeNextUrl(input.body, input.url) ??
    envelopeCursor(input.body, input.url) ??
    envelopePage(input.body, input.url, items.length, total, reached);
  const next = found?.url ?? null;
  if (!next && total !== null && reached < total) {
    // The portal counts more than it gave and shows no way on: it pages by parameters we cannot guess.
    throw new Error(
      `the portal reports ${total} items but sent ${reached} and no next page; set EVENT_API_PAGING (page or offset, see docs/configuration.md)`,
    );
  }
  return { items, next, envelope, how: found?.how ?? null };
}

/** A next page and how it was found. */
interface Found {
  readonly url: URL;
  readonly how: string;
}

/** The list's total as an envelope states it (`total`, `meta.totalCount`...), or null. */
export function envelopeTotal(body: unknown): number | null {
  return numberAt(body, TOTAL_KEYS);
}

const TOTAL_KEYS = [
  "total",
  "totalCount",
  "total_count",
  "totalItems",
  "total_items",
  "totalElements",
  "count",
];

function listOf(body: unknown): { items: readonly unknown[]; envelope: string | null } | null {
  if (Array.isArray(body)) return { items: body, envelope: null };
  if (!isPlainObject(body)) return null;
  for (const key of ENVELOPE_KEYS) {
    const value = body[key];
    if (Array.isArray(value)) return { items: value, envelope: key };
    // JSON:API-like nesting: { data: { items: [...] } }
    if (isPlainObject(value)) {
      const inner = listOf(value);
      if (inner && !Array.isArray(body.items)) {
        return { items: inner.items, envelope: `${key}.${inner.envelope}` };
      }
    }
  }
  return null;
}

/** Where envelopes keep paging facts. */
function metaObjects(body: unknown): Record<string, unknown>[] {
  return namedMetaObjects(body).map(([, meta]) => meta);
}

/** The envelope itself (prefix "") and its paging sub-objects ("links."...). */
function namedMetaObjects(body: unknown): Array<[string, Record<string, unknown>]> {
  if (!isPlainObject(body)) return [];
  const found: Array<[string, Record<string, unknown>]> = [["", body]];
  for (const key of [
    "meta",
    "pagination",
    "paging",
    "page_info",
    "pageInfo",
    "links",
    "_links",
    "response_metadata",
  ]) {
    const value = body[key];
    if (isPlainObject(value)) found.push([`${key}.`, value]);
  }
  return found;
}

function numberAt(body: unknown, keys: readonly string[]): number | null {
  for (const meta of metaObjects(body)) {
    for (const key of keys) {
      const value = meta[key];
      const n = typeof value === "string" && /^\d+$/.test(value) ? Number(value) : value;
      if (typeof n === "number" && Number.isInteger(n) && n >= 0) return n;
    }
  }
  return null;
}

const NEXT_URL_KEYS = [
  "next",
  "nextUrl",
  "next_url",
  "nextLink",
  "next_link",
  "nextPageUrl",
  "next_page_url",
  "@odata.nextLink",
];

function envelopeNextUrl(body: unknown, base: URL): Found | null {
  for (const [prefix, meta] of namedMetaObjects(body)) {
    for (const key of NEXT_URL_KEYS) {
      let value = meta[key];
      if (isPlainObject(value)) value = value.href ?? value.url;
      if (typeof value !== "string" || value.trim() === "") continue;
      // A bare token in "next" is a cursor, not a URL.
      if (!/^(https?:\/\/|\/|\?|\.)/i.test(value.trim())) continue;
      try {
        return {
          url: new URL(value.trim(), base),
          how: `a next URL in the envelope (${prefix}${key})`,
        };
      } catch {}
    }
  }
  return null;
}

/** Cursor key in the envelope -> query parameter that carries it back. */
const CURSOR_KEYS: ReadonlyArray<readonly [string, string]> = [
  ["nextCursor", "cursor"],
  ["next_cursor", "cursor"],
  ["nextPageToken", "pageToken"],
  ["next_page_token", "page_token"],
  ["continuationToken", "continuationToken"],
  ["after", "after"],
  ["cursor", "cursor"],
  ["next", "cursor"],
];

function envelopeCursor(body: unknown, url: URL): Found | null {
  const named = namedMetaObjects(body);
  const metas = named.map(([, meta]) => meta);
  if (
    metas.some(
      (meta) => meta.hasMore === false || meta.has_more === false || meta.hasNext === false,
    )
  ) {
    return null;
  }
  const cursors: Array<[string, Record<string, unknown>]> = isPlainObject(metas[0]?.cursors)
    ? [["cursors.", metas[0]?.cursors as Record<string, unknown>]]
    : [];
  for (const [prefix, meta] of [...named, ...cursors]) {
    for (const [key, param] of CURSOR_KEYS) {
      const value = meta[key];
      if (typeof value !== "string" && typeof value !== "number") continue;
      const cursor = String(value);
      // "cursor" may echo the current position rather than the next one.
      if (cursor === "" || cursor === url.searchParams.get(param)) continue;
      const next = new URL(url);
      next.searchParams.set(param, cursor);
      return {
        url: next,
        how: `a cursor in the envelope (${prefix}${key}, sent back as ${param})`,
      };
    }
  }
  return null;
}

function envelopePage(
  body: unknown,
  url: URL,
  count: number,
  total: number | null,
  reached: number,
): Found | null {
  const page = numberAt(body, ["page", "currentPage", "current_page", "pageNumber", "page_number"]);
  if (page !== null) {
    const pages =
      numberAt(body, [
        "totalPages",
        "total_pages",
        "pageCount",
        "page_count",
        "lastPage",
        "last_page",
        "pages",
      ]) ??
      pagesFrom(
        total,
        numberAt(body, ["perPage", "per_page", "pageSize", "page_size", "limit", "size"]),
      );
    if (pages !== null ? page >= pages : total !== null && reached >= total) return null;
    const next = new URL(url);
    next.searchParams.set(pageParam(url), String(page + 1));
    return { url: next, how: "page numbers in the envelope" };
  }
  const offset = numberAt(body, ["offset", "skip", "start"]);
  if (offset !== null && total !== null) {
    if (offset + count >= total) return null;
    const next = new URL(url);
    next.searchParams.set(url.searchParams.has("skip") ? "skip" : "offset", String(offset + count));
    return { url: next, how: "an offset and total in the envelope" };
  }
  return null;
}

function pagesFrom(total: number | null, size: number | null): number | null {
  return total !== null && size ? Math.ceil(total / size) : null;
}

function pageParam(url: URL): string {
  for (const name of ["page", "currentPage", "pageNumber", "p"])
    if (url.searchParams.has(name)) return name;
  return "page";
}

/** Counted paging: stop when the total is reached, else on an empty or short page. */
function countedNext(
  url: URL,
  mode: Extract<PagingMode, { kind: "page" | "offset" }>,
  count: number,
  total: number | null,
  reached: number,
): URL | null {
  const size = Number(url.searchParams.get(mode.sizeParam));
  if (count === 0) return null;
  // A known total decides: a portal that caps the page size sends short pages before the end.
  if (total !== null) {
    if (reached >= total) return null;
  } else if (Number.isInteger(size) && size > 0 && count < size) {
    return null;
  }
  const next = new URL(url);
  const current = Number(next.searchParams.get(mode.param) ?? (mode.kind === "page" ? 1 : 0));
  next.searchParams.set(mode.param, String(mode.kind === "page" ? current + 1 : current + count));
  return next;
}
