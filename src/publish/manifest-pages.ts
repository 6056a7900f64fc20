import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { SiteUrls } from "../model/url-scheme.ts";
import { paths } from "../model/url-scheme.ts";
import {
  contentHash,
  keepPublished,
  knownFile,
  type PublishedFiles,
  siteFile,
} from "../render/published-files.ts";
import type { ChangedPages } from "./changed-pages.ts";
import { type OutputFiles, outputFiles } from "./output-files.ts";

/**
 * Records the pages a publish changed in the staging folder's manifest.json,
 * the one build-info file (docs/public-json.md), beside `feedsChanged`: after
 * the deploy, the IndexNow step reads them from the deployed site
 * (src/rebuild/indexnow-ping.ts), which is all a host's function can read.
 * As addresses, as IndexNow takes them. Returns the files with the
 * manifest's new hash and size. A manifest that says what the published one
 * says (no page or feed changed since, at the same clock) is the published
 * copy, kept as every unchanged file is (keepPublished), not a new file that
 * hosts upload again.
 */
export function recordChangedPages<T extends OutputFiles & { readonly kept: number }>(
  staging: string,
  files: T,
  pages: ChangedPages,
  urls: SiteUrls,
  published: PublishedFiles | null = null,
): T {
  const sitePath = paths.apiManifest().slice(1);
  const target = join(staging, sitePath);
  // The manifest before the pages were added may have been the published copy (hashOutput),
  // which stays in the published folder.
  const wasKept = files.hashes.has(sitePath) && !existsSync(target);
  const source = published ? siteFile(staging, published.folder, sitePath) : target;
  const manifest = JSON.parse(readFileSync(source, "utf8")) as Record<string, unknown>;
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
  const file = { hash: contentHash(content), bytes: content.byteLength };
  const kept = keepPublished(published, sitePath, file);
  if (kept) rmSync(target, { force: true });
  else {
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, content);
  }
  const before = files.sizes.get(sitePath) ?? 0;
  const record = new Map(files.record).set(
    sitePath,
    knownFile(file.hash, file.bytes, undefined, kept),
  );
  // The manifest only grows here: it is the largest file if it was, or if it now is.
  const largest = files.largestFile;
  const largestFile =
    !largest || largest.path === sitePath || content.byteLength > largest.bytes
      ? { path: sitePath, bytes: content.byteLength }
      : largest;
  return outputFiles(record, {
    ...files,
    bytes: files.bytes - before + content.byteLength,
    largestFile,
    kept: files.kept - (wasKept ? 1 : 0) + (kept ? 1 : 0),
  });
}
