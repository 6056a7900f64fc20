import { paths } from "../model/url-scheme.ts";
import type { FileHashes } from "../render/published-files.ts";

/**
 * Which pages a publish changed, for the search engines told of them after
 * the deploy (IndexNow, src/rebuild/indexnow-ping.ts): the site's pages
 * (`…/index.html`) added, changed or removed since the last publish, as site
 * paths ("/calendars/culture/"). Removed ones too: IndexNow asks for them, so
 * that engines drop them sooner. The embed pages are left out: they are for
 * other sites' frames, and say `noindex`.
 *
 * Bounded: IndexNow takes 10,000 addresses a request, and a deploy that
 * changes every page (a new template) would otherwise list them all. The
 * most important come first: the shallowest paths (the home page, the
 * calendars, categories, places), then the deeper ones, each level in
 * order; the rest wait for the engines' own crawl of the sitemap.
 */

/** IndexNow's limit of addresses in one request. */
export const CHANGED_PAGES_LIMIT = 10_000;

export interface ChangedPages {
  /** At most `limit` site paths, the most important first. */
  readonly paths: readonly string[];
  /** How many pages changed in all. */
  readonly total: number;
}

const PAGE = /(?:^|\/)index\.html$/;
/** Folders of pages not to index (as output paths, "embed/"). */
const LEFT_OUT = [paths.embedGuide().slice(1)];

export function changedPages(
  previous: FileHashes,
  next: FileHashes,
  limit = CHANGED_PAGES_LIMIT,
): ChangedPages {
  const changed: string[] = [];
  for (const [path, hash] of next) {
    if (isPage(path) && previous.get(path) !== hash) changed.push(path);
  }
  for (const path of previous.keys()) {
    if (isPage(path) && !next.has(path)) changed.push(path);
  }
  const sitePaths = changed.map((path) => `/${path.replace(PAGE, "")}`.replace(/([^/])$/, "$1/"));
  sitePaths.sort((a, b) => depth(a) - depth(b) || (a < b ? -1 : a > b ? 1 : 0));
  return { paths: sitePaths.slice(0, Math.max(0, limit)), total: sitePaths.length };
}

function isPage(path: string): boolean {
  return PAGE.test(path) && !LEFT_OUT.some((folder) => path.startsWith(folder));
}

function depth(path: string): number {
  let slashes = 0;
  for (const char of path) if (char === "/") slashes++;
  return slashes;
}
