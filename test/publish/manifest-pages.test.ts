import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SiteUrls } from "../../src/model/url-scheme.ts";
import { recordChangedPages } from "../../src/publish/manifest-pages.ts";
import { type OutputFiles, outputFiles } from "../../src/publish/output-files.ts";
import { contentHash } from "../../src/render/published-files.ts";
import { tempDir } from "../helpers/temp-dir.ts";

/*
 * The pages a publish changed go into the staging folder's manifest (for
 * IndexNow); a manifest that then says what the published one says is the
 * published file, kept as every unchanged file is: not a new file that hosts
 * upload again, nor a change the report counts.
 */

const MANIFEST = "api/manifest.json";
const URLS = new SiteUrls("https://events.example.org");
const BUILT = `${JSON.stringify({ version: 1, feedsChanged: [] }, null, 2)}\n`;

/** A staging folder with the manifest as the build state left it, and its files as hashed. */
function staged(): { staging: string; files: OutputFiles & { kept: number } } {
  const staging = tempDir("ecp-staging-");
  mkdirSync(join(staging, "api"));
  writeFileSync(join(staging, MANIFEST), BUILT);
  const bytes = Buffer.byteLength(BUILT);
  return {
    staging,
    files: outputFiles(new Map([[MANIFEST, { hash: contentHash(BUILT), bytes }]]), {
      files: 1,
      bytes,
      pages: 0,
      largestFile: { path: MANIFEST, bytes },
      kept: 0,
    }),
  };
}

/** The published site, its manifest having recorded `paths` as the changed pages. */
function published(paths: readonly string[]) {
  const folder = tempDir("ecp-published-");
  const { staging, files } = staged();
  recordChangedPages(staging, files, { paths, total: paths.length }, URLS);
  const content = readFileSync(join(staging, MANIFEST));
  mkdirSync(join(folder, "api"));
  writeFileSync(join(folder, MANIFEST), content);
  return { folder, hashes: new Map([[MANIFEST, contentHash(content)]]) };
}

describe("manifest-pages", () => {
  it("should keep the published manifest when no page changed since, as it did then", () => {
    const site = published([]);
    const { staging, files } = staged();
    const recorded = recordChangedPages(staging, files, { paths: [], total: 0 }, URLS, site);
    expect(recorded.kept).toBe(1);
    expect(recorded.hashes.get(MANIFEST)).toBe(site.hashes.get(MANIFEST));
    // Left out of the staging folder: the published file stays as it is.
    expect(existsSync(join(staging, MANIFEST))).toBe(false);
  });

  it("should write a manifest of other pages as a new file, and leave the published one as it was", () => {
    const site = published([]);
    const before = readFileSync(join(site.folder, MANIFEST), "utf8");
    const { staging, files } = staged();
    const recorded = recordChangedPages(staging, files, { paths: ["/"], total: 1 }, URLS, site);
    expect(recorded.kept).toBe(0);
    expect(JSON.parse(readFileSync(join(staging, MANIFEST), "utf8"))).toMatchObject({
      pagesChanged: ["https://events.example.org/"],
      pagesChangedCount: 1,
    });
    expect(readFileSync(join(site.folder, MANIFEST), "utf8")).toBe(before);
  });

  it("should count a published manifest it replaces as kept no more (IndexNow set since the last publish)", () => {
    // Published without pages; the built manifest, the same bytes, kept as that file (not staged).
    const folder = tempDir("ecp-published-");
    mkdirSync(join(folder, "api"));
    writeFileSync(join(folder, MANIFEST), BUILT);
    const site = { folder, hashes: new Map([[MANIFEST, contentHash(BUILT)]]) };
    const { staging, files } = staged();
    rmSync(join(staging, MANIFEST));
    const recorded = recordChangedPages(
      staging,
      { ...files, kept: 1 },
      { paths: [], total: 0 },
      URLS,
      site,
    );
    expect(recorded.kept).toBe(0);
    expect(readFileSync(join(staging, MANIFEST), "utf8")).toContain('"pagesChangedCount": 0');
    expect(readFileSync(join(folder, MANIFEST), "utf8")).toBe(BUILT);
  });
});
