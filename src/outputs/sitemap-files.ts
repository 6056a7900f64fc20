import { escapeHtml } from "../model/sanitize.ts";
import { paths } from "../model/url-scheme.ts";
import { type FileGroup, fileGroup } from "../render/file-group.ts";
import { newest } from "../site/data-updated.ts";
import type { SitemapEntry } from "../site/sitemap.ts";

/**
 * The sitemap (sitemaps.org): `/sitemap.xml` lists every page while they fit
 * in one file; past the protocol's 50,000 URLs it becomes a sitemap index of
 * `/sitemaps/<n>.xml` files of at most 50,000 URLs each, in the same order,
 * each named in the index with its newest `lastmod`. `robots.txt` names
 * `/sitemap.xml` either way. Written as files, one at a time, rather than as
 * an Eleventy page, whose content Eleventy would hold to the end of the build.
 */

/** At most this many URLs in one sitemap file (the sitemaps.org protocol). */
export const SITEMAP_MAX_URLS = 50_000;

const XML_HEAD = '<?xml version="1.0" encoding="utf-8"?>\n';
const NAMESPACE = "http://www.sitemaps.org/schemas/sitemap/0.9";

type SitemapFile =
  | { readonly path: string; readonly entries: readonly SitemapEntry[] }
  | { readonly path: string; readonly parts: readonly { path: string; lastmod: string | null }[] };

/** `absolute`: a site path as an absolute URL at SITE_URL (SiteUrls.absolute). */
export function sitemapFileGroup(
  entries: readonly SitemapEntry[],
  absolute: (path: string) => string,
  maxUrls = SITEMAP_MAX_URLS,
): FileGroup {
  const files: SitemapFile[] = [];
  if (entries.length <= maxUrls) {
    files.push({ path: paths.sitemap(), entries });
  } else {
    const parts: { path: string; lastmod: string | null }[] = [];
    for (let from = 0; from < entries.length; from += maxUrls) {
      const chunk = entries.slice(from, from + maxUrls);
      const path = paths.sitemapPart(parts.length + 1);
      files.push({ path, entries: chunk });
      parts.push({ path, lastmod: newest(chunk.map((entry) => entry.lastmod)) });
    }
    files.push({ path: paths.sitemap(), parts });
  }
  return fileGroup<SitemapFile>({
    phase: "json",
    name: "sitemap",
    items: files,
    path: (file) => file.path,
    render: (file) =>
      "entries" in file ? urlSet(file.entries, absolute) : sitemapIndex(file.parts, absolute),
  });
}

function urlSet(entries: readonly SitemapEntry[], absolute: (path: string) => string): string {
  const urls = entries.map(
    (entry) =>
      `\n  <url><loc>${escapeHtml(absolute(entry.path))}</loc>${lastmod(entry.lastmod)}</url>`,
  );
  return `${XML_HEAD}<urlset xmlns="${NAMESPACE}">${urls.join("")}\n</urlset>\n`;
}

function sitemapIndex(
  parts: readonly { path: string; lastmod: string | null }[],
  absolute: (path: string) => string,
): string {
  const sitemaps = parts.map(
    (part) =>
      `\n  <sitemap><loc>${escapeHtml(absolute(part.path))}</loc>${lastmod(part.lastmod)}</sitemap>`,
  );
  return `${XML_HEAD}<sitemapindex xmlns="${NAMESPACE}">${sitemaps.join("")}\n</sitemapindex>\n`;
}

const lastmod = (value: string | null) => (value ? `<lastmod>${escapeHtml(value)}</lastmod>` : "");
