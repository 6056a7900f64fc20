import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { SiteUrls } from "../model/url-scheme.ts";
import { paths } from "../model/url-scheme.ts";
import { contentHash } from "../render/published-files.ts";
import type { ChangedPages } from "./changed-pages.ts";
import type { OutputFiles } from "./output-files.ts";

/**
 * Records the pages a publish changed in the staging folder's manifest.json,
 * the one build-info file (docs/public-json.md), beside `feedsChanged`: after
 * the deploy, the IndexNow step reads them from the deployed site
 * (src/rebuild/indexnow-ping.ts), which is all a host's function can read.
 * As addresses, as IndexNow takes them. Returns the files with the
 * manifest's new hash and size.
 */
export function recordChangedPages<T extends OutputFiles>(
  staging: string,
  files: T,
  pages: ChangedPages,
  urls: SiteUrls,
): T {
  const sitePath = paths.apiManifest().slice(1);
  const target = join(staging, sitePath);
  const manifest = JSON.parse(readFileSync(target, "utf8")) as Record<string, unknown>;
  const content = Buffer.from(
    `${JSON.stringify(
      {
        ...manifest,
        pagesChanged: pages.paths.map((path) => urls.absolute(path)),
        pagesChangedCount: pages.total,
      },
      null,
      2,
    )}\n`,
  );
  // Replaced, never written in place: a staging file may be a link to a published one.
  const temporary = `${target}.${process.pid}.tmp`;
  writeFileSync(temporary, content);
  renameSync(temporary, target);
  const before = files.sizes.get(sitePath) ?? 0;
  const hashes = new Map(files.hashes).set(sitePath, contentHash(content));
  const sizes = new Map(files.sizes).set(sitePath, content.byteLength);
  // The manifest only grows here: it is the largest file if it was, or if it now is.
  const largest = files.largestFile;
  const largestFile =
    !largest || largest.path === sitePath || content.byteLength > largest.bytes
      ? { path: sitePath, bytes: content.byteLength }
      : largest;
  return {
    ...files,
    hashes,
    sizes,
    bytes: files.bytes - before + content.byteLength,
    largestFile,
  };
}
