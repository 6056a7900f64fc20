import type { HttpClient } from "../api/http-client.ts";
import { envelopeTotal, firstPageUrl, readPage } from "../api/paging.ts";
import type { ApiConfig, PagingMode } from "../config/api.ts";

/** What the first page of a list showed. */
export interface ListShape {
  /** Items on the first page. */
  readonly count: number;
  /** Items in the whole list when the portal says (X-Total-Count or the envelope). */
  readonly total: number | null;
  /** Envelope key holding the list; null for a bare array. */
  readonly envelope: string | null;
  /** How the next page is announced, in words; null when none is. */
  readonly how: string | null;
  /** Why auto paging cannot read the whole list, when it cannot. */
  readonly problem: string | null;
  /** A counted paging mode the portal answered correctly, when probing found one. */
  readonly found: PagingMode | null;
}

/** Page and offset parameter pairs portals commonly use, tried in this order. */
const COUNTED_CANDIDATES: readonly PagingMode[] = [
  { kind: "page", param: "page", sizeParam: "per_page" },
  { kind: "page", param: "page", sizeParam: "limit" },
  { kind: "page", param: "page", sizeParam: "pageSize" },
  { kind: "page", param: "page", sizeParam: "page_size" },
  { kind: "page", param: "page", sizeParam: "size" },
  { kind: "offset", param: "offset", sizeParam: "limit" },
  { kind: "offset", param: "skip", sizeParam: "limit" },
  { kind: "offset", param: "skip", sizeParam: "take" },
  { kind: "offset", param: "start", sizeParam: "limit" },
];

/** First-page sizes that look like a page limit rather than a whole list. */
const ROUND_COUNTS = new Set([10, 20, 25, 30, 40, 50, 100, 200, 250, 500, 1000]);

/**
 * Reads the first page of a list and says how it is enveloped and paged.
 * When `auto` paging would stop after it although the list seems longer (the
 * portal counts more items than it sent, or the page holds a round number of
 * items) and nothing announces a next page, the common page/offset
 * parameters are tried: each with two small requests, accepted only when the
 * portal answers the first two items and then the next two of the same list.
 */
export async function inspectList(
  http: HttpClient,
  url: URL,
  config: ApiConfig,
): Promise<ListShape> {
  const first = await http.getJson(firstPageUrl(url, config.paging, config.pageSize));
  const input = {
    body: first.body,
    link: first.link,
    totalCount: first.totalCount,
    url: new URL(http.display(url)),
    pageSize: config.pageSize,
    collected: 0,
  };
  const whole = readPage({ ...input, mode: { kind: "none" } });
  const total = first.totalCount ?? envelopeTotal(first.body);
  let how: string | null = null;
  let problem: string | null = null;
  try {
    how = readPage({ ...input, mode: config.paging }).how;
  } catch (error) {
    problem = (error as Error).message;
  }
  const items = whole.items;
  const suspicious =
    config.paging.kind === "auto" &&
    how === null &&
    items.length >= 4 &&
    (problem !== null ||
      (total !== null && total > items.length) ||
      ROUND_COUNTS.has(items.length));
  const found = suspicious ? await probeCounted(http, url, items) : null;
  return { count: items.length, total, envelope: whole.envelope, how, problem, found };
}

async function probeCounted(
  http: HttpClient,
  url: URL,
  items: readonly unknown[],
): Promise<PagingMode | null> {
  const same = (a: readonly unknown[], b: readonly unknown[]) =>
    JSON.stringify(a) === JSON.stringify(b);
  for (const mode of COUNTED_CANDIDATES) {
    if (mode.kind !== "page" && mode.kind !== "offset") continue;
    const at = (position: 0 | 1): URL => {
      const target = new URL(url);
      const value = mode.kind === "page" ? position + 1 : position * 2;
      target.searchParams.set(mode.param, String(value));
      target.searchParams.set(mode.sizeParam, "2");
      return target;
    };
    try {
      const one = await itemsAt(http, at(0));
      if (!same(one, items.slice(0, 2))) continue;
      const two = await itemsAt(http, at(1));
      if (same(two, items.slice(2, 4))) return mode;
    } catch {
      // A portal refusing unknown parameters (400) simply does not page this way.
    }
  }
  return null;
}

async function itemsAt(http: HttpClient, url: URL): Promise<readonly unknown[]> {
  const response = await http.getJson(url);
  return readPage({
    body: response.body,
    link: null,
    totalCount: null,
    url,
    mode: { kind: "none" },
    pageSize: 2,
    collected: 0,
  }).items;
}

/** EVENT_API_PAGING's text for a mode: "auto", "page", "offset:skip,take"... */
export function formatPaging(mode: PagingMode): string {
  if (mode.kind === "auto" || mode.kind === "none") return mode.kind;
  const defaults = mode.kind === "page" ? ["page", "per_page"] : ["offset", "limit"];
  if (mode.param === defaults[0] && mode.sizeParam === defaults[1]) return mode.kind;
  return `${mode.kind}:${mode.param},${mode.sizeParam}`;
}
