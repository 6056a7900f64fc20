import { join } from "node:path";
import { publishedStateFolder } from "../changes/state-location.ts";
import { replaceFile } from "./replace-file.ts";

/**
 * Every warning of the last build of a site, for its owner: the report lists
 * the first ten (src/publish/report.ts) and names this file for the rest.
 *
 * It is kept in EVENT_API_CACHE_DIR beside the site's published state (one
 * folder per output folder and SITE_URL: src/changes/state-location.ts), not
 * in the published site: a warning names what the portal sent wrong (ids,
 * field values, the addresses of images it could not fetch), and the portal
 * and its records are the organization's, not the site's visitors'. A trial
 * build into another folder keeps a list of its own. docs/deploy.md,
 * "Reading the build log".
 */

export const BUILD_WARNINGS_FILE = "build-warnings.json";

export interface BuildWarnings {
  readonly version: 1;
  readonly siteUrl: string;
  /** The output folder the build published into, as it was given. */
  readonly output: string;
  /** The build's clock (SITE_NOW when pinned). */
  readonly now: string;
  /** Every warning, in the order of the report. */
  readonly warnings: readonly string[];
}

/** Where the builds of `output` for `siteUrl` keep their warnings. */
export function buildWarningsPath(cacheDir: string, output: string, siteUrl: string): string {
  return join(publishedStateFolder(cacheDir, output, siteUrl), BUILD_WARNINGS_FILE);
}

/**
 * Written by every build that publishes, with no warnings too, so that the
 * list is never an earlier build's; replaced whole, never half written.
 */
export async function writeBuildWarnings(path: string, warnings: BuildWarnings): Promise<void> {
  await replaceFile(path, `${JSON.stringify(warnings, null, 2)}\n`);
}
