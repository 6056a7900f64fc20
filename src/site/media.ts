import { createHash } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { request } from "undici";
import type { CalendarEvent, PortalSnapshot } from "../model/types.ts";
import { paths, type SiteUrls } from "../model/url-scheme.ts";

/**
 * Event images are copied into the site (`/media/<hash>.<ext>`) so that pages,
 * feeds and the widget do not depend on the portal staying reachable (or on
 * loopback, for the demo), pages need no third-party image requests, and a
 * strict `img-src 'self'` policy is possible.
 *
 * Images are fetched without the API token: they are public URLs the portal
 * hands out, and the token must never travel to another host. A failed
 * download keeps the original URL and adds a warning: an image is never worth
 * failing a build.
 */

const TYPES: Record<string, string> = {
  "image/jpeg": "jpg",
  "image/png": "png",
  "image/gif": "gif",
  "image/webp": "webp",
  "image/avif": "avif",
  "image/svg+xml": "svg",
};

const MAX_BYTES = 10 * 1024 * 1024;

export interface MediaFile {
  /** Site path, e.g. "/media/ab12….jpg". */
  readonly path: string;
  /** Where the bytes are cached between builds. */
  readonly cachePath: string;
}

export interface LocalizedImages {
  readonly snapshot: PortalSnapshot;
  readonly files: readonly MediaFile[];
  readonly warnings: readonly string[];
}

export async function localizeImages(
  snapshot: PortalSnapshot,
  options: { urls: SiteUrls; cacheDir: string; timeoutMs?: number },
): Promise<LocalizedImages> {
  const cacheDir = join(options.cacheDir, "media");
  await mkdir(cacheDir, { recursive: true });
  const urls = [...new Set(snapshot.events.flatMap((e) => (e.image ? [e.image.url] : [])))];
  const localized = new Map<string, MediaFile>();
  // In the events' order, whichever download finishes first: the report reads the same every time.
  const warnings = (
    await Promise.all(
      urls.map(async (url) => {
        try {
          localized.set(url, await cacheImage(url, cacheDir, options.timeoutMs ?? 15_000));
          return [];
        } catch (error) {
          return [`Image ${url} was not copied into the site (${(error as Error).message}).`];
        }
      }),
    )
  ).flat();

  const withLocalImage = (event: CalendarEvent): CalendarEvent => {
    const file = event.image && localized.get(event.image.url);
    if (!event.image || !file) return event;
    return { ...event, image: { ...event.image, url: options.urls.absolute(file.path) } };
  };
  return {
    snapshot: { ...snapshot, events: snapshot.events.map(withLocalImage) },
    // Two URLs with the same bytes share one file.
    files: [
      ...new Map(
        urls.flatMap((url) => {
          const file = localized.get(url);
          return file ? [[file.path, file] as const] : [];
        }),
      ).values(),
    ],
    warnings,
  };
}

async function cacheImage(url: string, cacheDir: string, timeoutMs: number): Promise<MediaFile> {
  // The cache is looked up by URL; the published name is a hash of the bytes,
  // so it stays the same when only the portal's host or port changes.
  const urlKey = createHash("sha256").update(url).digest("hex").slice(0, 32);
  const indexPath = join(cacheDir, `${urlKey}.name`);
  const cachedName = await readFile(indexPath, "utf8").catch(() => null);
  if (cachedName && /^[0-9a-f]{32}\.[a-z]+$/.test(cachedName)) {
    return { path: paths.media(cachedName), cachePath: join(cacheDir, cachedName) };
  }

  const parsed = new URL(url);
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:")
    throw new Error("not an http(s) URL");
  const response = await request(parsed, { headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
  if (response.statusCode !== 200) {
    await response.body.dump();
    throw new Error(`HTTP ${response.statusCode}`);
  }
  const type =
    String(response.headers["content-type"] ?? "")
      .split(";")[0]
      ?.trim()
      .toLowerCase() ?? "";
  const extension = TYPES[type];
  if (!extension) {
    await response.body.dump();
    throw new Error(`unsupported content type "${type}"`);
  }
  const bytes = Buffer.from(await response.body.arrayBuffer());
  if (bytes.length > MAX_BYTES) throw new Error("larger than 10 MB");
  // An SVG is a document: served from our origin, one with scripts could run
  // when opened directly. Only passive SVGs are copied.
  if (extension === "svg" && hasActiveContent(bytes.toString("utf8"))) {
    throw new Error("SVG contains active content");
  }
  const name = `${createHash("sha256").update(bytes).digest("hex").slice(0, 32)}.${extension}`;
  const cachePath = join(cacheDir, name);
  await writeFile(cachePath, bytes);
  await writeFile(indexPath, name);
  return { path: paths.media(name), cachePath };
}

/**
 * Scripts, embedded HTML, event-handler attributes and javascript: URLs in
 * attributes. Only markup counts: text such as an escaped caption reading
 * "onerror=" is inert.
 */
function hasActiveContent(svg: string): boolean {
  return (
    /<(script|foreignObject)\b/i.test(svg) ||
    /<[^>]*\son[a-z]+\s*=|<[^>]*=\s*["']?\s*javascript:/i.test(svg)
  );
}
