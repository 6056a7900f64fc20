import { findLink } from "../api/link-header.ts";
import { type FetchedPage, type WalkedPage, walkListPages } from "../api/list-pages.ts";
import { type RecordedPage, relativeToApi } from "../api/list-recorder.ts";
import type { PortalClient } from "../api/portal-client.ts";
import type { ApiConfig } from "../config/api.ts";

/**
 * Reads one list again, page by page, through the project's HTTP client
 * (auth modes, retries, redaction) and the build's paging walker
 * (src/api/list-pages.ts), sending each page the validators the build state
 * recorded for it. A page that answers 304 is unchanged, and its successor
 * is the one recorded next: its body is never transferred.
 */

export async function walkList(
  client: PortalClient,
  config: ApiConfig,
  list: URL,
  recorded: readonly RecordedPage[],
): Promise<WalkedPage[]> {
  const pages: WalkedPage[] = [];
  // A portal that announced pages in Link headers means "no more" when it sends none.
  let linkSeen = false;
  const fetchPage = async (next: URL, index: number): Promise<FetchedPage> => {
    const shown = client.http.display(next);
    const mine = recorded[index];
    const path = relativeToApi(shown, config.baseUrl);
    const following = recorded[index + 1];
    // A 304 is only useful when the next page's address is known without the body.
    const conditional =
      mine && path !== null && mine.path === path && following?.path !== null ? mine : {};
    const response = await client.http.getJson(next, conditional);
    const linkSeenBefore = linkSeen;
    if (response.link) linkSeen = true;
    if (response.status !== 304) return { kind: "body", response };
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
    if (mayHaveGrown) {
      // A full last page whose 304 says nothing of a next one: read it again to know.
      return { kind: "body", response: await client.http.getJson(next) };
    }
    const follow =
      announced &&
      (!recordedNext || client.http.display(announced) !== client.http.display(recordedNext))
        ? announced
        : recordedNext;
    return { kind: "unchanged", items: mine?.items ?? 0, next: follow };
  };
  await walkListPages({
    list,
    paging: config.paging,
    pageSize: config.pageSize,
    display: (url) => client.http.display(url),
    fetchPage,
    onPage: (page) => pages.push(page),
  });
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
