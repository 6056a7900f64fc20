import { decodeHTML } from "entities";

/**
 * Follows every address a built site writes, from its home page: links,
 * assets, forms, iframes, data- attributes of scripts, feed and calendar
 * URLs, the sitemap, JSON documents' URLs. Reports the addresses that do not
 * answer 200 and those on the site's host but outside its folder (a site
 * published under a path prefix must never point at the host's root).
 * Bounded in pages and time.
 */

export interface CrawlProblem {
  readonly url: string;
  /** The page or file that wrote it. */
  readonly from: string;
  readonly problem: string;
}

export interface CrawlResult {
  /** Every address fetched (pathname), with its HTTP status. */
  readonly fetched: ReadonlyMap<string, number>;
  readonly problems: readonly CrawlProblem[];
}

export interface CrawlOptions {
  /** The site's home page, e.g. http://127.0.0.1:4000/events/. */
  readonly start: string;
  /** Other entry points, relative to the home page, as crawlers know them ("robots.txt"). */
  readonly also?: readonly string[];
  readonly maxFiles?: number;
  /** Only a crawl that never ends reaches it: a site of some thousand files takes seconds. */
  readonly maxSeconds?: number;
}

const SKIPPED_SCHEMES = /^(mailto:|tel:|data:|javascript:|geo:|#)/i;

export async function crawlSite(options: CrawlOptions): Promise<CrawlResult> {
  const start = new URL(options.start);
  const prefix = start.pathname.endsWith("/") ? start.pathname : `${start.pathname}/`;
  const maxFiles = options.maxFiles ?? 5000;
  const deadline = Date.now() + (options.maxSeconds ?? 240) * 1000;
  const fetched = new Map<string, number>();
  const problems: CrawlProblem[] = [];
  const entries = [start, ...(options.also ?? []).map((path) => new URL(path, start))];
  const queue = entries.map((url) => ({ url, from: "(start)" }));
  const queued = new Set<string>(entries.map((url) => url.pathname));

  const consider = (raw: string, base: URL, from: string) => {
    const text = raw.trim();
    if (!text || SKIPPED_SCHEMES.test(text)) return;
    let url: URL;
    try {
      // webcal:// is the same file over http(s).
      url = new URL(text.replace(/^webcal:/i, start.protocol), base);
    } catch {
      problems.push({ url: text, from, problem: "not a URL" });
      return;
    }
    if (url.host !== start.host) return;
    // The folder without its slash (SITE_URL as written): hosts redirect it to the folder.
    if (url.pathname === prefix.slice(0, -1) && prefix !== "/") return;
    if (!url.pathname.startsWith(prefix)) {
      problems.push({ url: url.href, from, problem: `outside ${prefix}` });
      return;
    }
    if (queued.has(url.pathname)) return;
    queued.add(url.pathname);
    queue.push({ url, from });
  };

  while (queue.length > 0) {
    if (fetched.size >= maxFiles) throw new Error(`crawl: more than ${maxFiles} files`);
    if (Date.now() > deadline) throw new Error("crawl: out of time");
    const batch = queue.splice(0, 16);
    await Promise.all(
      batch.map(async ({ url, from }) => {
        const response = await fetch(new URL(url.pathname, url));
        fetched.set(url.pathname, response.status);
        if (response.status !== 200) {
          await response.body?.cancel();
          problems.push({ url: url.href, from, problem: `HTTP ${response.status}` });
          return;
        }
        const type = response.headers.get("content-type") ?? "";
        const path = url.pathname;
        if (
          /(html|xml|json|css|calendar|text\/plain)/.test(type) ||
          /\.(ics|json|xml)$/.test(path)
        ) {
          const body = await response.text();
          for (const found of addressesIn(body, type, path)) consider(found, url, url.href);
        } else {
          await response.body?.cancel();
        }
      }),
    );
  }
  return { fetched, problems };
}

/** The addresses a file writes, by its kind. */
export function addressesIn(body: string, type: string, path: string): string[] {
  const found: string[] = [];
  const add = (value: string | undefined) => {
    if (value) found.push(decodeHTML(value));
  };
  if (type.includes("html")) {
    // The embed snippets are shown as code: their addresses count as much as the page's own.
    const snippets = [...body.matchAll(/<code[^>]*>([\s\S]*?)<\/code>/g)]
      .map((m) => decodeHTML(m[1] ?? ""))
      .join("\n");
    for (const m of `${body}\n${snippets}`.matchAll(
      /\s(?:href|src|action|content|data-[a-z-]+)="([^"]*)"/g,
    )) {
      const value = m[1] ?? "";
      // content= and data- attributes hold addresses only sometimes.
      if (/^(?:https?:|webcal:|\/)/.test(value) || m[0].includes("href") || m[0].includes("src")) {
        add(value);
      }
    }
    for (const m of body.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)) {
      for (const value of jsonStrings(JSON.parse(m[1] ?? "null"))) {
        if (/^(?:https?:\/\/|\/[^/])/.test(value)) add(value);
      }
    }
    return found.filter((value) => !/\s/.test(value));
  }
  if (type.includes("css") || path.endsWith(".css")) {
    for (const m of body.matchAll(/url\(\s*["']?([^"')]+)["']?\s*\)/g)) add(m[1]);
    return found;
  }
  if (type.includes("json") || path.endsWith(".json")) {
    for (const value of jsonStrings(JSON.parse(body))) {
      if (/^(?:https?:\/\/|webcal:\/\/|\/[^/])/.test(value)) add(value);
    }
    return found;
  }
  if (type.includes("calendar") || path.endsWith(".ics")) {
    const unfolded = body.replace(/\r?\n[ \t]/g, "");
    for (const m of unfolded.matchAll(/^(?:URL|SOURCE|IMAGE)[^:\n]*:(\S+)$/gm)) add(m[1]);
    return found;
  }
  if (type.includes("xml") || path.endsWith(".xml")) {
    for (const m of body.matchAll(/\s(?:href|url)="([^"]*)"/g)) add(m[1]);
    for (const m of body.matchAll(/<(?:loc|link|guid|id|url)>([^<]+)<\//g)) add(m[1]);
    return found.filter((value) => /^(?:https?:|\/)/.test(value));
  }
  for (const m of body.matchAll(/^Sitemap:\s*(\S+)/gm)) add(m[1]);
  return found;
}

function jsonStrings(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(jsonStrings);
  if (value && typeof value === "object") return Object.values(value).flatMap(jsonStrings);
  return [];
}
