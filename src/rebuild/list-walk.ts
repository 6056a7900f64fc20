import { firstPageUrl, readPage } from "../api/paging.ts";
import { MAX_PAGES, type PortalClient } from "../api/portal-client.ts";
import type { ApiConfig } from "../config/api.ts";
import { ApiError } from "../errors.ts";
import { type RecordedPage, relativeToApi } from "./list-recorder.ts";

/**
 * Reads one list again, page by page, through the project's HTTP client
 * (auth modes, retries, redaction) and paging rules, sending each page the
 * validators the published state recorded for it. A page that answers 304
 * is unchanged, and its successor is the one recorded next: its body is never
 * transferred.
 */

export type WalkedPage =
  | { readonly notModified: true; readonly index: number }
  | { readonly notModified: false; readonly items: readonly unknown[] };

export async function walkList(
  client: PortalClient,
  config: ApiConfig,
  list: URL,
  recorded: readonly RecordedPage[],
): Promise<WalkedPage[]> {
  const pages: WalkedPage[] = [];
  const seen = new Set<string>();
  let collected = 0;
  let next: URL | null = firstPageUrl(list, config.paging, config.pageSize);
  while (next) {
    const shown = client.http.display(next);
    if (seen.has(shown)) {
      throw new ApiError(`The portal's paging repeats ${shown}; stopped to avoid a loop.`);
    }
    if (seen.size >= MAX_PAGES) {
      throw new ApiError(
        `The list at ${client.http.display(list)} has more than ${MAX_PAGES} pages; stopped.`,
      );
    }
    seen.add(shown);
    const index = pages.length;
    const mine = recorded[index];
    const path = relativeToApi(shown, config.baseUrl);
    const following = recorded[index + 1];
    // A 304 is only useful when the next page's address is known without the body.
    const conditional =
      mine && path !== null && mine.path === path && following?.path !== null ? mine : {};
    const response = await client.http.getJson(next, conditional);
    if (response.status === 304) {
      pages.push({ notModified: true, index });
      collected += mine?.items ?? 0;
      next = following?.path ? new URL(`${config.baseUrl}/${following.path}`) : null;
      continue;
    }
    let page: ReturnType<typeof readPage>;
    try {
      page = readPage({
        body: response.body,
        link: response.link,
        totalCount: response.totalCount,
        url: new URL(shown),
        mode: config.paging,
        pageSize: config.pageSize,
        collected,
      });
    } catch (error) {
      throw new ApiError(`Unexpected answer for ${shown}: ${(error as Error).message}.`);
    }
    pages.push({ notModified: false, items: page.items });
    collected += page.items.length;
    next = page.next;
  }
  return pages;
}
