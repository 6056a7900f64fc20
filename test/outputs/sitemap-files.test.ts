import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { SITEMAP_MAX_URLS, sitemapFileGroup } from "../../src/outputs/sitemap-files.ts";
import type { FileGroup } from "../../src/render/file-group.ts";
import type { SitemapEntry } from "../../src/site/sitemap.ts";
import { parseSitemaps } from "../helpers/python-readers.ts";
import { hasPythonModule } from "../helpers/system-packages.ts";
import { tempDir } from "../helpers/temp-dir.ts";

/**
 * The sitemap as files: one `sitemap.xml` while the pages fit in one file,
 * a sitemap index of files of at most 50,000 URLs beyond, read back by
 * Python's strict XML parser as a search engine would read them.
 */

// Evaluated at collection: skips with a printed reason here, throws in CI.
const hasPython = hasPythonModule("xml.etree.ElementTree");
const SITE = "https://events.example.org/club";
const absolute = (path: string) => `${SITE}${path}`;

function entries(count: number): SitemapEntry[] {
  return Array.from({ length: count }, (_, i) => ({
    // A path with characters XML must escape, once.
    path: i === 2 ? "/search/?q=a&b=<c>/" : `/calendars/c/events/e${i}/`,
    lastmod: i % 3 === 0 ? null : `2026-11-${String(10 + i).padStart(2, "0")}T08:00:00Z`,
  }));
}

/** Writes a group's files into a folder; returns their paths by site path. */
function write(group: FileGroup): Record<string, string> {
  const dir = tempDir("ecp-sitemap-");
  const files: Record<string, string> = {};
  for (const item of group.items) {
    const sitePath = group.path(item);
    const file = join(dir, sitePath);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, group.render(item));
    files[sitePath] = file;
  }
  return files;
}

describe("sitemap files", () => {
  it("should follow the sitemaps.org limit of 50,000 URLs a file", () => {
    expect(SITEMAP_MAX_URLS).toBe(50_000);
  });

  it.skipIf(!hasPython)("should list every page in one sitemap.xml while they fit", () => {
    const list = entries(5);
    const files = write(sitemapFileGroup(list, absolute, 5));
    expect(Object.keys(files)).toEqual(["/sitemap.xml"]);
    const parsed = parseSitemaps([files["/sitemap.xml"] as string]);
    const sitemap = Object.values(parsed)[0];
    expect(sitemap?.kind).toBe("urlset");
    expect(sitemap?.items).toEqual(
      list.map((entry) => ({ loc: absolute(entry.path), lastmod: entry.lastmod })),
    );
  });

  it.skipIf(!hasPython)(
    "should become an index of files of at most the limit, in order, each with its newest lastmod",
    () => {
      const list = entries(5);
      const files = write(sitemapFileGroup(list, absolute, 2));
      expect(Object.keys(files).sort()).toEqual([
        "/sitemap.xml",
        "/sitemaps/1.xml",
        "/sitemaps/2.xml",
        "/sitemaps/3.xml",
      ]);
      const parsed = parseSitemaps(Object.values(files));
      const index = parsed[files["/sitemap.xml"] as string];
      expect(index?.kind).toBe("sitemapindex");
      expect(index?.items.map((item) => item.loc)).toEqual([
        `${SITE}/sitemaps/1.xml`,
        `${SITE}/sitemaps/2.xml`,
        `${SITE}/sitemaps/3.xml`,
      ]);
      // Entries 0-1, 2-3 and 4: the newest of each file's known lastmods.
      expect(index?.items.map((item) => item.lastmod)).toEqual([
        "2026-11-11T08:00:00Z",
        "2026-11-12T08:00:00Z",
        "2026-11-14T08:00:00Z",
      ]);
      const parts = [1, 2, 3].map((n) => parsed[files[`/sitemaps/${n}.xml`] as string]);
      for (const part of parts) {
        expect(part?.kind).toBe("urlset");
        expect(part?.items.length).toBeLessThanOrEqual(2);
      }
      expect(parts.flatMap((part) => part?.items.map((item) => item.loc))).toEqual(
        list.map((entry) => absolute(entry.path)),
      );
    },
  );
});
