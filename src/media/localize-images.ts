import { join } from "node:path";
import { Semaphore } from "../api/semaphore.ts";
import type { ImagesConfig } from "../config/images.ts";
import { count } from "../metrics.ts";
import type { CalendarEvent, PortalSnapshot } from "../model/types.ts";
import { paths, type SiteUrls } from "../model/url-scheme.ts";
import type { HostPolicy, LookupFunction } from "./address-policy.ts";
import { type CheckedImage, checkImage } from "./image-check.ts";
import { type DownloadLimits, ImageDownloader } from "./image-download.ts";
import { ImageRefused } from "./image-refused.ts";
import { type ImageFile, ImageStore } from "./image-store.ts";
import { rasterSize, SvgRasterizer } from "./svg-raster.ts";

/**
 * Event images are copied into the site (`/media/<hash>.<ext>`) so that pages,
 * feeds and the widget do not depend on the portal staying reachable (or on
 * loopback, for the demo), pages need no third-party image requests, and a
 * strict `img-src 'self'` policy is possible.
 *
 * Only what passed every check is published: downloaded within the limits
 * (src/media/image-download.ts) from a host the policy allows
 * (src/media/address-policy.ts), the file what its type says, whole, and of
 * a bounded number of pixels (src/media/image-check.ts), an SVG drawn into a
 * PNG (src/media/svg-raster.ts). An image that fails keeps nothing: the
 * event has no image (never the portal's URL, which would make visitors'
 * browsers fetch what the build refused), and a warning names the calendar,
 * the event and the reason. Only an image that could not be reached this
 * time keeps the copy an earlier build published. An image is never worth
 * failing a build.
 */

export interface ImageLimits extends DownloadLimits {
  /** One deadline for all the images of a build (downloads and drawings), in milliseconds. */
  readonly totalMs: number;
  /** Downloads at once. */
  readonly concurrency: number;
  /** Largest picture, in pixels (width times height, from the file's header). */
  readonly maxPixels: number;
  /** Deadline for drawing one SVG, in milliseconds. */
  readonly drawMs: number;
}

/** docs/site.md, "Images", has why these. */
export const IMAGE_LIMITS: ImageLimits = {
  maxBytes: 10 * 1024 * 1024,
  timeoutMs: 20_000,
  maxRedirects: 5,
  totalMs: 120_000,
  concurrency: 4,
  maxPixels: 40_000_000,
  drawMs: 5_000,
};

export interface MediaFile {
  /** Site path, e.g. "/media/ab12….png". */
  readonly path: string;
  /** Where the bytes are kept between builds. */
  readonly cachePath: string;
}

export interface LocalizedImages {
  readonly snapshot: PortalSnapshot;
  readonly files: readonly MediaFile[];
  readonly warnings: readonly string[];
}

export interface LocalizeImagesOptions {
  readonly urls: SiteUrls;
  readonly cacheDir: string;
  /** The portal's API URL: its origin is trusted (the build already talks to it). */
  readonly portalUrl: string | null;
  readonly images: ImagesConfig;
  /** Tests make the limits short. */
  readonly limits?: Partial<ImageLimits>;
  /** Tests answer name lookups themselves. */
  readonly resolve?: LookupFunction;
}

/** What became of one URL. */
type Outcome =
  | { readonly file: ImageFile; readonly note: string | null }
  | { readonly file: null; readonly note: string };

export async function localizeImages(
  snapshot: PortalSnapshot,
  options: LocalizeImagesOptions,
): Promise<LocalizedImages> {
  const limits = { ...IMAGE_LIMITS, ...options.limits };
  const store = await ImageStore.open(join(options.cacheDir, "media"));
  const policy: HostPolicy = {
    allowOrigins: new Set(options.portalUrl ? [new URL(options.portalUrl).origin] : []),
    allowHosts: new Set(options.images.allowHosts),
  };
  const downloader = new ImageDownloader(policy, limits, options.resolve);
  const rasterizer = new SvgRasterizer(limits.drawMs);
  const buildSignal = AbortSignal.timeout(limits.totalMs);
  const gate = new Semaphore(limits.concurrency);
  const urls = [...new Set(snapshot.events.flatMap((e) => (e.image ? [e.image.url] : [])))];
  const outcomes = new Map<string, Outcome>();
  try {
    await Promise.all(
      urls.map(async (url) => {
        outcomes.set(url, await publishImage(url));
      }),
    );
  } finally {
    await Promise.all([downloader.close(), rasterizer.close()]);
  }
  count("images.drawn", rasterizer.drawn);

  async function publishImage(url: string): Promise<Outcome> {
    const earlier = await store.forUrl(url);
    try {
      // The gate holds downloads only: an SVG waiting to be drawn holds no download's place.
      const release = await gate.acquire();
      const got = await downloader
        .download(url, earlier?.validators ?? null, buildSignal)
        .finally(release);
      count("images.requested");
      // Asked with the validators of the earlier copy only.
      if (got.status === "unchanged") return { file: earlier as ImageFile, note: null };
      const checked = checkImage(got.bytes, got.declaredType, limits.maxPixels);
      const file = checked.format === "svg" ? await drawn(checked) : await kept(checked);
      await store.rememberUrl(url, { ...file, validators: got.validators });
      return { file, note: null };
    } catch (error) {
      const refusal =
        error instanceof ImageRefused ? error : new ImageRefused(String(error), "refused");
      if (refusal.kind === "unreachable" && earlier) {
        return { file: earlier, note: `kept as an earlier build published it: ${refusal.message}` };
      }
      return { file: null, note: `not published: ${refusal.message}` };
    }
  }

  function kept(image: CheckedImage): Promise<ImageFile> {
    return store.keep(image.bytes, image.format, image);
  }

  async function drawn(svg: CheckedImage): Promise<ImageFile> {
    const earlier = await store.drawingOf(svg.bytes);
    if (earlier) return earlier;
    const size = rasterSize(svg.width, svg.height);
    const png = await rasterizer.draw(svg.bytes, size.width, size.height, buildSignal);
    const file = await store.keep(png, "png", size);
    await store.rememberDrawing(svg.bytes, file);
    return file;
  }

  // In the events' order: the report reads the same every time.
  const warnings: string[] = [];
  const withLocalImage = (event: CalendarEvent): CalendarEvent => {
    if (!event.image) return event;
    const outcome = outcomes.get(event.image.url) as Outcome;
    if (outcome.note) {
      warnings.push(
        `calendar "${event.calendarId}", event "${event.id}": image ${shortUrl(event.image.url)} ${outcome.note}`,
      );
    }
    if (!outcome.file) return { ...event, image: null };
    const { name, width, height } = outcome.file;
    const url = options.urls.absolute(paths.media(name));
    return { ...event, image: { ...event.image, url, width, height } };
  };
  const events = snapshot.events.map(withLocalImage);
  const files = new Map<string, MediaFile>();
  for (const url of urls) {
    const outcome = outcomes.get(url) as Outcome;
    if (!outcome.file) continue;
    const { name } = outcome.file;
    files.set(name, { path: paths.media(name), cachePath: store.path(name) });
  }
  return { snapshot: { ...snapshot, events }, files: [...files.values()], warnings };
}

/** A portal's URL in a warning line: long ones cut (URL text is already percent-encoded). */
function shortUrl(url: string): string {
  return url.length > 120 ? `${url.slice(0, 117)}...` : url;
}
