import { createHash } from "node:crypto";
import { join, resolve } from "node:path";

/**
 * Where a build keeps what it published, for the next build of the same
 * site: in EVENT_API_CACHE_DIR, in a folder of its own per output folder and
 * SITE_URL. A trial build (`npm run build -- --output /tmp/x`) or a demo build
 * shares the cache folder with the real site's builds; keyed like this, it
 * neither reads nor replaces the real site's record, and the real site's
 * next build compares with what the real site last published.
 *
 * Everything a build keeps for the next build of its site goes into
 * `publishedStateFolder(...)`, beside the state.
 */

export const STATE_FILE = "published-state.json";

/** `npm run build`'s output folder when none is given. */
export const DEFAULT_OUTPUT = "_site";

/**
 * `<cacheDir>/published/<key>`: the key is a hash of the output folder's
 * absolute path and SITE_URL (without a trailing slash), so `_site`,
 * `./_site` and its absolute path are one folder, and a site's state stays
 * where it is when only the cache folder moves.
 */
export function publishedStateFolder(cacheDir: string, output: string, siteUrl: string): string {
  const key = createHash("sha256")
    .update(JSON.stringify([resolve(output), siteUrl.replace(/\/+$/, "")]))
    .digest("hex")
    .slice(0, 16);
  return join(cacheDir, "published", key);
}

/** The published state of the builds of `output` for `siteUrl`. */
export function publishedStatePath(cacheDir: string, output: string, siteUrl: string): string {
  return join(publishedStateFolder(cacheDir, output, siteUrl), STATE_FILE);
}

/**
 * Where earlier versions kept the one state of a cache folder, whatever the
 * output folder. Only a build into the default output folder carries it over
 * (when it was written for the same SITE_URL), so existing sites keep their
 * history: the state of another output folder may as well be a trial's,
 * and such a build reads what it published from its output folder instead
 * (previous-state.ts).
 */
export function legacyStatePath(cacheDir: string, output: string): string | null {
  return resolve(output) === resolve(DEFAULT_OUTPUT) ? join(cacheDir, STATE_FILE) : null;
}
