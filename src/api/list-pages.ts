import type { PagingMode } from "../config/api.ts";
import { ApiError } from "../errors.ts";
import { firstPageUrl, readPage } from "./paging.ts";

/**
 * Walks the pages of one list of the portal (the calendars, a calendar's
 * events) by its paging rules (src/api/paging.ts): the one walker of the
 * build's fetch (src/api/portal-client.ts) and the rebuild check
 * (src/rebuild/list-walk.ts). How a page is fetched is theirs: the build asks
 * through its response cache, the check with the validators the build state
 * recorded, and may learn without a body that a page is unchanged.
 */

/** A list holds at most this many pages; beyond it the portal's paging is broken. */
export const MAX_PAGES = 10_000;

/** What fetching one page gave: its body and headers, or "unchanged" and where the next one is. */
export type FetchedPage<R extends ListResponse = ListResponse> =
  | { readonly kind: "body"; readonly response: R }
  | {
      readonly kind: "unchanged";
      /** Items the page held when it was last read (counted paging needs the running total). */
      readonly items: number;
      readonly next: URL | null;
    };

export interface ListResponse {
  readonly body: unknown;
  readonly link: string | null;
  readonly totalCount: number | null;
}

export type WalkedPage<R extends ListResponse = ListResponse> =
  | { readonly notModified: true; readonly index: number; readonly url: URL }
  | {
      readonly notModified: false;
      readonly index: number;
      readonly url: URL;
      readonly response: R;
      readonly items: readonly unknown[];
      /** Items on the pages before this one. */
      readonly offset: number;
    };

export interface WalkOptions<R extends ListResponse> {
  /** The list's address, before any paging parameter. */
  readonly list: URL;
  readonly paging: PagingMode;
  readonly pageSize: number;
  /** The URL as it may be shown (token removed). */
  readonly display: (url: URL) => string;
  fetchPage(url: URL, index: number): Promise<FetchedPage<R>>;
  onPage(page: WalkedPage<R>): void;
}

export async function walkListPages<R extends ListResponse>(
  options: WalkOptions<R>,
): Promise<void> {
  const seen = new Set<string>();
  let collected = 0;
  let next: URL | null = firstPageUrl(options.list, options.paging, options.pageSize);
  for (let index = 0; next; index++) {
    const url: URL = next;
    const shown = options.display(url);
    if (seen.has(shown)) {
      throw new ApiError(`The portal's paging repeats ${shown}; stopped to avoid a loop.`);
    }
    if (seen.size >= MAX_PAGES) {
      throw new ApiError(
        `The list at ${options.display(options.list)} has more than ${MAX_PAGES} pages; stopped.`,
      );
    }
    seen.add(shown);
    const fetched = await options.fetchPage(url, index);
    if (fetched.kind === "unchanged") {
      options.onPage({ notModified: true, index, url });
      collected += fetched.items;
      next = fetched.next;
      continue;
    }
    let page: ReturnType<typeof readPage>;
    try {
      page = readPage({
        ...fetched.response,
        url: new URL(shown),
        mode: options.paging,
        pageSize: options.pageSize,
        collected,
      });
    } catch (error) {
      throw new ApiError(`Unexpected answer for ${shown}: ${(error as Error).message}.`);
    }
    options.onPage({
      notModified: false,
      index,
      url,
      response: fetched.response,
      items: page.items,
      offset: collected,
    });
    collected += page.items.length;
    next = page.next;
  }
}
