import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
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
const ONE_LANGUAGE = [{ lang: "en-GB", url: SITE }];

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
    const content = group.render(item);
    writeFileSync(
      file,
      typeof content === "string" || content instanceof Uint8Array ? content : content.join(""),
    );
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
    const files = write(sitemapFileGroup(list, ONE_LANGUAGE, { urls: 5 }));
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
      const files = write(sitemapFileGroup(list, ONE_LANGUAGE, { urls: 2 }));
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

  describe("of a site in several languages", () => {
    const LANGUAGES = [
      { lang: "en", url: SITE },
      { lang: "fr", url: `${SITE}/fr` },
      { lang: "pt-BR", url: `${SITE}/pt-br` },
    ];

    it.skipIf(!hasPython)(
      "should list each language's pages, each with every translation and x-default as alternates",
      () => {
        const list = entries(3);
        const files = write(sitemapFileGroup(list, LANGUAGES));
        expect(Object.keys(files)).toEqual(["/sitemap.xml"]);
        const sitemap = Object.values(parseSitemaps([files["/sitemap.xml"] as string]))[0];
        expect(sitemap?.items.map((item) => item.loc)).toEqual(
          LANGUAGES.flatMap(({ url }) => list.map((entry) => `${url}${entry.path}`)),
        );
        for (const item of sitemap?.items ?? []) {
          const path = list.find((entry) => item.loc.endsWith(entry.path))?.path;
          expect(item.alternates).toEqual([
            ...LANGUAGES.map(({ lang, url }) => ({
              rel: "alternate",
              hreflang: lang,
              href: `${url}${path}`,
            })),
            { rel: "alternate", hreflang: "x-default", href: `${SITE}${path}` },
          ]);
        }
      },
    );

    it.skipIf(!hasPython)(
      "should cut its files at the protocol's bytes as well as its URLs, the alternates counted",
      () => {
        const list = entries(6);
        const files = write(sitemapFileGroup(list, LANGUAGES, { bytes: 4_000 }));
        const parts = Object.keys(files).filter((path) => path.startsWith("/sitemaps/"));
        expect(parts.length).toBeGreaterThan(1);
        const parsed = parseSitemaps(Object.values(files));
        for (const part of parts) {
          const file = files[part] as string;
          expect(readFileSync(file).byteLength).toBeLessThanOrEqual(4_000);
          expect(parsed[file]?.kind).toBe("urlset");
        }
        expect(
          parts.flatMap((part) => parsed[files[part] as string]?.items.map((i) => i.loc) ?? []),
        ).toHaveLength(LANGUAGES.length * list.length);
      },
    );
  });
});
