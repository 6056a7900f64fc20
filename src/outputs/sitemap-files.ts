import type { SiteLanguage } from "../config/site-languages.ts";
import { escapeHtml } from "../model/sanitize.ts";
import { absoluteUrl, paths } from "../model/url-scheme.ts";
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
 *
 * A site in several languages (SITE_LANGUAGES) has one sitemap, at its root:
 * every page of each language, each with the addresses of all its
 * translations and `x-default` (the root language's) as
 * `<xhtml:link rel="alternate" hreflang>` (Google's sitemap form of hreflang:
 * https://developers.google.com/search/docs/specialty/international/localized-versions#sitemap).
 * Those alternates make each URL's entry as long as the languages are many,
 * so its files are cut at 50 MB as well as at 50,000 URLs (the protocol's
 * two limits).
 */

/** At most this many URLs in one sitemap file (the sitemaps.org protocol). */
export const SITEMAP_MAX_URLS = 50_000;

/** At most this many bytes in one sitemap file, uncompressed (the sitemaps.org protocol). */
export const SITEMAP_MAX_BYTES = 52_428_800;

const XML_HEAD = '<?xml version="1.0" encoding="utf-8"?>\n';
const NAMESPACE = "http://www.sitemaps.org/schemas/sitemap/0.9";
const XHTML_NAMESPACE = "http://www.w3.org/1999/xhtml";

/** One URL of the sitemap: a page (`entry`) of one language (its index in the site's languages). */
interface SitemapUrl {
  readonly entry: SitemapEntry;
  readonly language: number;
}

type SitemapFile =
  | { readonly path: string; readonly urls: readonly SitemapUrl[] }
  | { readonly path: string; readonly parts: readonly { path: string; lastmod: string | null }[] };

/**
 * `languages`: the site's (SiteConfig.languages), the root's first, where
 * each entry's page is published; one for a site in one language.
 */
export function sitemapFileGroup(
  entries: readonly SitemapEntry[],
  languages: readonly Pick<SiteLanguage, "lang" | "url">[],
  limits: { readonly urls?: number; readonly bytes?: number } = {},
): FileGroup {
  const maxUrls = limits.urls ?? SITEMAP_MAX_URLS;
  const maxBytes = limits.bytes ?? SITEMAP_MAX_BYTES;
  const urls = languages.flatMap((_, language) => entries.map((entry) => ({ entry, language })));
  const render = (url: SitemapUrl) => urlElement(url, languages);
  const files: SitemapFile[] = [];
  const chunks = chunksOf(urls, maxUrls, languages.length > 1 ? maxBytes : null, render);
  if (chunks.length === 1) {
    files.push({ path: paths.sitemap(), urls });
  } else {
    const parts: { path: string; lastmod: string | null }[] = [];
    for (const chunk of chunks) {
      const path = paths.sitemapPart(parts.length + 1);
      files.push({ path, urls: chunk });
      parts.push({ path, lastmod: newest(chunk.map((url) => url.entry.lastmod)) });
    }
    files.push({ path: paths.sitemap(), parts });
  }
  const root = languages[0]?.url ?? "";
  return fileGroup<SitemapFile>({
    phase: "json",
    name: "sitemap",
    items: files,
    path: (file) => file.path,
    render: (file) =>
      "urls" in file
        ? urlSet(file.urls, render, languages.length > 1)
        : sitemapIndex(file.parts, (path) => absoluteUrl(root, path)),
  });
}

/**
 * The URLs in files of at most `maxUrls` and, where entries carry
 * alternates, `maxBytes` (measured as written, one URL at a time); one
 * file when they fit.
 */
function chunksOf(
  urls: readonly SitemapUrl[],
  maxUrls: number,
  maxBytes: number | null,
  render: (url: SitemapUrl) => string,
): SitemapUrl[][] {
  const room = maxBytes === null ? 0 : maxBytes - urlSetOverhead(true);
  const chunks: SitemapUrl[][] = [[]];
  let bytes = 0;
  for (const url of urls) {
    const size = maxBytes === null ? 0 : Buffer.byteLength(render(url));
    let chunk = chunks.at(-1) as SitemapUrl[];
    if (chunk.length >= maxUrls || (chunk.length > 0 && bytes + size > room)) {
      chunk = [];
      chunks.push(chunk);
      bytes = 0;
    }
    chunk.push(url);
    bytes += size;
  }
  return chunks;
}

function urlElement(
  { entry, language }: SitemapUrl,
  languages: readonly Pick<SiteLanguage, "lang" | "url">[],
): string {
  const loc = escapeHtml(absoluteUrl(languages[language]?.url ?? "", entry.path));
  if (languages.length < 2) return `\n  <url><loc>${loc}</loc>${lastmod(entry.lastmod)}</url>`;
  // Every translation, the page itself included, and the root language's as x-default.
  const alternates = [
    ...languages.map((other) => ({ hreflang: other.lang, url: other.url })),
    { hreflang: "x-default", url: languages[0]?.url ?? "" },
  ].map(
    ({ hreflang, url }) =>
      `\n    <xhtml:link rel="alternate" hreflang="${escapeHtml(hreflang)}" href="${escapeHtml(absoluteUrl(url, entry.path))}"/>`,
  );
  return `\n  <url><loc>${loc}</loc>${lastmod(entry.lastmod)}${alternates.join("")}\n  </url>`;
}

function urlSet(
  urls: readonly SitemapUrl[],
  render: (url: SitemapUrl) => string,
  alternates: boolean,
): string {
  return `${urlSetStart(alternates)}${urls.map(render).join("")}\n</urlset>\n`;
}

function urlSetStart(alternates: boolean): string {
  const xhtml = alternates ? ` xmlns:xhtml="${XHTML_NAMESPACE}"` : "";
  return `${XML_HEAD}<urlset xmlns="${NAMESPACE}"${xhtml}>`;
}

function urlSetOverhead(alternates: boolean): number {
  return Buffer.byteLength(`${urlSetStart(alternates)}\n</urlset>\n`);
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
