import { PublishedSite } from "../api/published-site.ts";
import { type IndexNowConfig, readIndexNowConfig } from "../config/indexnow.ts";
import { paths, SiteUrls } from "../model/url-scheme.ts";
import { CHANGED_PAGES_LIMIT } from "../publish/changed-pages.ts";
import { type AfterDeployOptions, type AfterDeployResult, stepLines } from "./after-deploy.ts";
import { readBuildState } from "./read-build-state.ts";

/**
 * After a deploy, tells the search engines that take part in IndexNow which
 * pages it changed (https://www.indexnow.org/documentation), so that they
 * crawl those again in minutes rather than at their next visit. The pages are
 * the deploy's own list (`pagesChanged` in manifest.json,
 * src/publish/changed-pages.ts), sent in one JSON POST of at most 10,000
 * addresses (IndexNow's limit) with the site's host, the key and where its
 * key file is. Google does not take part in IndexNow: it reads the sitemap.
 */

export interface PingIndexNowOptions extends AfterDeployOptions {
  /** INDEXNOW_KEY and INDEXNOW_ENDPOINT; null: nothing to do. */
  readonly indexNow: IndexNowConfig | null;
}

export interface PingIndexNowResult extends AfterDeployResult {
  /** The addresses the endpoint accepted. */
  readonly submitted: readonly string[];
}

const PING_TIMEOUT_MS = 10_000;

/** What IndexNow's answers mean (its documentation, "Response format"). */
const REFUSALS: Readonly<Record<number, string>> = {
  400: "the request was not understood",
  403: "the key file was not found at its address, or does not hold the key",
  422: "the addresses are not of the key's host",
  429: "too many requests",
};

export async function pingIndexNow(options: PingIndexNowOptions): Promise<PingIndexNowResult> {
  const { lines, say } = stepLines(options.log);
  if (!options.indexNow) {
    say("INDEXNOW_KEY is not set; no search engine told");
    return { ok: true, submitted: [], lines };
  }
  const { key, endpoint } = options.indexNow;
  const published = new PublishedSite(options.published);
  const state = await readBuildState(published);
  const urls = new SiteUrls(state.siteUrl);
  const host = new URL(urls.siteUrl).host;
  const listed = await listedPages(published, host);
  if (!listed) {
    say(
      "this deploy does not say which pages changed (its build had no earlier publish to compare with, or no INDEXNOW_KEY); no search engine told",
    );
    return { ok: true, submitted: [], lines };
  }
  if (listed.pages.length === 0) {
    say(`no page changed in this deploy; ${endpoint} not told`);
    return { ok: true, submitted: [], lines };
  }
  const fetch = options.fetch ?? globalThis.fetch;
  const timeoutMs = options.timeoutMs ?? PING_TIMEOUT_MS;
  const body = {
    host,
    key,
    keyLocation: urls.absolute(paths.indexNowKey(key)),
    urlList: listed.pages,
  };
  const rest = listed.total - listed.pages.length;
  const more = rest > 0 ? `; ${rest} more changed, left to the engines' own crawl` : "";
  try {
    const response = await fetch(endpoint, {
      method: "POST",
      headers: { "content-type": "application/json; charset=utf-8" },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
    await response.body?.cancel().catch(() => undefined);
    if (!response.ok) {
      const why = REFUSALS[response.status] ?? "an error";
      say(
        `IndexNow ${endpoint} refused ${listed.pages.length} pages (HTTP ${response.status}: ${why})`,
      );
      return { ok: false, submitted: [], lines };
    }
  } catch (error) {
    const why =
      error instanceof Error && error.name === "TimeoutError"
        ? `no answer within ${timeoutMs / 1000} s`
        : "unreachable";
    say(`IndexNow ${endpoint}: ${why}; ${listed.pages.length} changed pages not sent`);
    return { ok: false, submitted: [], lines };
  }
  say(`sent ${listed.pages.length} changed pages to IndexNow ${endpoint}${more}`);
  return { ok: true, submitted: listed.pages, lines };
}

/** The deploy-succeeded step: the settings read once, the engines told; true unless that failed. */
export async function tellSearchEngines(
  deployed: string,
  env: NodeJS.ProcessEnv,
  log: (line: string) => void,
): Promise<boolean> {
  const result = await pingIndexNow({
    indexNow: readIndexNowConfig(env),
    published: deployed,
    log,
  });
  return result.ok;
}

/**
 * The changed pages the deploy's manifest lists, as it is public and read
 * over the network: only addresses of the site's host, at most IndexNow's
 * limit; null when it lists none at all (not known).
 */
async function listedPages(
  published: PublishedSite,
  host: string,
): Promise<{ pages: string[]; total: number } | null> {
  const manifest = (await published.readJson(paths.apiManifest()).catch(() => null)) as {
    pagesChanged?: unknown;
    pagesChangedCount?: unknown;
  } | null;
  if (!Array.isArray(manifest?.pagesChanged)) return null;
  const pages: string[] = [];
  for (const entry of manifest.pagesChanged) {
    if (pages.length >= CHANGED_PAGES_LIMIT) break;
    if (typeof entry !== "string") continue;
    try {
      const url = new URL(entry);
      if (url.host === host && /^https?:$/.test(url.protocol)) pages.push(url.href);
    } catch {}
  }
  const count = manifest.pagesChangedCount;
  const total =
    typeof count === "number" && Number.isSafeInteger(count) && count >= pages.length
      ? count
      : pages.length;
  return { pages, total };
}
