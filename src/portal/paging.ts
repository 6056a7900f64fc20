import { decodeCursor, encodeCursor } from "./cursor.ts";
import { compareKeys, type SortKey } from "./store.ts";

/**
 * How lists are paged. "link" is the contract (docs/api.md); the others
 * imitate paging styles of other portals so clients can be tested against
 * them over real HTTP (docs/api.md, "Test knobs").
 */
export const PAGING_STYLES = [
  "link",
  "envelope-next",
  "envelope-cursor",
  "envelope-links",
  "page",
  "offset",
  "none",
] as const;
export type PagingStyle = (typeof PAGING_STYLES)[number];

const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 100;

export interface PageQuery {
  style: PagingStyle;
  params: URLSearchParams;
  /** Binds cursors to one list. */
  tag: string;
  /** Absolute URL of this request, without credentials, to build the next link from. */
  selfUrl: URL;
  pageSizeMax: number;
}

export interface Page<T> {
  items: T[];
  total: number;
  /** Absolute URL of the next page, when there is one (cursor styles). */
  nextUrl: string | null;
  nextCursor: string | null;
}

export class PagingError extends Error {}

/** One page of a list sorted by key; throws PagingError for bad parameters. */
export function selectPage<T extends { key: SortKey }>(
  list: readonly T[],
  query: PageQuery,
): Page<T> {
  const { style, params, pageSizeMax } = query;
  const total = list.length;
  if (style === "none") return { items: [...list], total, nextUrl: null, nextCursor: null };
  const defaultSize = Math.min(DEFAULT_PAGE_SIZE, pageSizeMax);
  if (style === "page") {
    const page = intParam(params, "page", 1, Number.MAX_SAFE_INTEGER) ?? 1;
    const size = intParam(params, "per_page", 1, pageSizeMax) ?? defaultSize;
    const from = Math.min((page - 1) * size, total);
    return { items: list.slice(from, from + size), total, nextUrl: null, nextCursor: null };
  }
  const size = intParam(params, "limit", 1, pageSizeMax) ?? defaultSize;
  if (style === "offset") {
    const from = Math.min(intParam(params, "offset", 0, Number.MAX_SAFE_INTEGER) ?? 0, total);
    return { items: list.slice(from, from + size), total, nextUrl: null, nextCursor: null };
  }
  const cursor = single(params, "cursor");
  let from = 0;
  if (cursor !== undefined) {
    const key = decodeCursor(query.tag, cursor);
    if (!key)
      throw new PagingError("cursor is not valid for this list; restart from the first page");
    from = firstAfter(list, key);
  }
  const items = list.slice(from, from + size);
  const last = items[items.length - 1];
  if (!last || from + size >= total) return { items, total, nextUrl: null, nextCursor: null };
  const nextCursor = encodeCursor(query.tag, last.key);
  const next = new URL(query.selfUrl);
  next.searchParams.set("cursor", nextCursor);
  next.searchParams.set("limit", String(size));
  return { items, total, nextUrl: next.href, nextCursor };
}

/** The response body and extra headers of a page in the given style. */
export function renderPage(
  style: PagingStyle,
  page: Page<unknown>,
  records: unknown[],
): { body: unknown; headers: Record<string, string> } {
  const headers: Record<string, string> = { "X-Total-Count": String(page.total) };
  switch (style) {
    case "link":
      // RFC 8288 section 3: the target URI goes in angle brackets.
      if (page.nextUrl) headers.Link = `<${page.nextUrl}>; rel="next"`;
      return { body: records, headers };
    case "envelope-next":
      return { body: { items: records, next: page.nextUrl }, headers };
    case "envelope-cursor":
      return { body: { data: records, nextCursor: page.nextCursor }, headers };
    case "envelope-links":
      return { body: { data: records, links: { next: page.nextUrl } }, headers };
    case "offset":
      return { body: { results: records, total: page.total }, headers };
    default:
      return { body: records, headers };
  }
}

function firstAfter<T extends { key: SortKey }>(list: readonly T[], key: SortKey): number {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (compareKeys((list[mid] as T).key, key) <= 0) low = mid + 1;
    else high = mid;
  }
  return low;
}

function single(params: URLSearchParams, name: string): string | undefined {
  const values = params.getAll(name);
  if (values.length > 1) throw new PagingError(`${name} is given more than once`);
  return values[0];
}

function intParam(
  params: URLSearchParams,
  name: string,
  min: number,
  max: number,
): number | undefined {
  const raw = single(params, name);
  if (raw === undefined) return undefined;
  const value = /^\d{1,16}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(value >= min && value <= max)) {
    throw new PagingError(`${name} must be an integer from ${min} to ${max}`);
  }
  return value;
}
