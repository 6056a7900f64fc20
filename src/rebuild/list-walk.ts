import { findLink } from "../api/link-header.ts";
import { firstPageUrl, readPage } from "../api/paging.ts";
import { MAX_PAGES, type PortalClient } from "../api/portal-client.ts";
import type { ApiConfig } from "../config/api.ts";
import { ApiError } from "../errors.ts";
import { type RecordedPage, relativeToApi } from "./list-recorder.ts";

/**
 * Reads one list again, page by page, through the project's HTTP client
 * (auth modes, retries, redaction) and paging rules, sending each page the
 * validators the build state recorded for it. A page that answers 304
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
  // A portal that announced pages in Link headers means "no more" when it sends none.
  let linkSeen = false;
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
    let response = await client.http.getJson(next, conditional);
    const linkSeenBefore = linkSeen;
    if (response.link) linkSeen = true;
    if (response.status === 304) {
      const recordedNext = following?.path ? new URL(`${config.baseUrl}/${following.path}`) : null;
      // The body is unchanged, but a header may announce a page the build did not see
      // (events appended after a full last page): follow what the portal says now.
      const announced = findLink(response.link, "next", new URL(shown));
      const mayHaveGrown =
        !following &&
        !announced &&
        response.link === null &&
        !linkSeenBefore &&
        looksFull(mine, index === 0 ? undefined : recorded[0], config);
      if (!mayHaveGrown) {
        pages.push({ notModified: true, index });
        collected += mine?.items ?? 0;
        next =
          announced &&
          (!recordedNext || client.http.display(announced) !== client.http.display(recordedNext))
            ? announced
            : recordedNext;
        continue;
      }
      // A full last page whose 304 says nothing of a next one: read it again to know.
      response = await client.http.getJson(next);
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

/**
 * The last recorded page may be full: it held as many items as the first page,
 * or, for a one-page list, as many as the page size the client asked for.
 */
function looksFull(
  page: RecordedPage | undefined,
  first: RecordedPage | undefined,
  config: ApiConfig,
): boolean {
  if (!page || page.items === 0) return false;
  if (first) return page.items >= first.items;
  const sizeAsked = config.paging.kind !== "auto" || config.paging.sizeParam !== null;
  return config.paging.kind !== "none" && sizeAsked && page.items >= config.pageSize;
}
