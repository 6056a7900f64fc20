import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { ApiError } from "../errors.ts";
import { ApiNotFoundError } from "./errors.ts";
import { HttpClient } from "./http-client.ts";

/**
 * Reads the JSON a published site holds (its manifest, public JSON and build
 * state under /api/), from its output folder (`_site`, a self-hosted server)
 * or its address (Netlify, GitHub Pages, a CDN): the one reader for the
 * shrink guard, the changes, the build state and the WebSub ping. Over HTTP
 * it goes through the portal's client (src/api/http-client.ts): one time
 * limit, retries for transient failures, bounded bodies; a published site
 * needs no token.
 */

/** A folder or an http(s) address of the site's root (without /api/...). */
export type SiteLocation = string;

export interface PublishedSiteOptions {
  /** Time limit of one attempt (default 10 s). */
  readonly timeoutMs?: number;
  /** Retries after a transient failure (default 2). */
  readonly retries?: number;
  readonly signal?: AbortSignal;
}

const PUBLISHED_SITE_TIMEOUT_MS = 10_000;

/** The file is not there (HTTP 404, or no such file in the folder). */
export class PublishedFileMissing extends ApiError {
  override name = "PublishedFileMissing";
}

function isUrl(location: SiteLocation): boolean {
  return /^https?:\/\//i.test(location);
}

export class PublishedSite {
  readonly location: SiteLocation;
  /** Files read from the published site, and their bytes (the check's cost, docs/deploy.md). */
  readonly read = { files: 0, bytes: 0 };
  readonly #options: PublishedSiteOptions;

  constructor(location: SiteLocation, options: PublishedSiteOptions = {}) {
    this.location = isUrl(location) ? location.replace(/\/+$/, "") : location;
    this.#options = options;
  }

  get remote(): boolean {
    return isUrl(this.location);
  }

  /** Where a site path of this site is: its URL, or its file. */
  where(path: string): string {
    return this.remote ? this.location + path : join(this.location, path);
  }

  /**
   * The parsed JSON at a site path ("/api/manifest.json"). Throws
   * PublishedFileMissing when it is not there, and an ApiError saying what
   * went wrong otherwise (unreachable, an HTTP error, not JSON).
   */
  async readJson(path: string): Promise<unknown> {
    const target = this.where(path);
    if (!this.remote) {
      const text = await this.#readLocal(target);
      try {
        return JSON.parse(text);
      } catch {
        throw new ApiError(`${target} is not JSON.`);
      }
    }
    return this.#get(target, { anyContentType: true }, 256 * 1024 * 1024);
  }

  /**
   * The text of a file at a site path ("/digest/latest.html"), at most
   * `maxBytes` of it: larger is an ApiError. Throws as readJson does.
   */
  async readText(path: string, maxBytes: number): Promise<string> {
    const target = this.where(path);
    if (!this.remote) {
      const text = await this.#readLocal(target);
      if (Buffer.byteLength(text) > maxBytes) {
        throw new ApiError(`${target} is larger than ${maxBytes} bytes.`);
      }
      return text;
    }
    return String(await this.#get(target, { text: true }, maxBytes));
  }

  async #get(
    target: string,
    terms: { anyContentType?: boolean; text?: boolean },
    maxResponseBytes: number,
  ): Promise<unknown> {
    const http = new HttpClient({
      token: null,
      auth: { kind: "bearer" },
      server: { name: "the published site", apiHints: false, ...terms },
      concurrency: 4,
      timeoutMs: this.#options.timeoutMs ?? PUBLISHED_SITE_TIMEOUT_MS,
      retries: this.#options.retries ?? 2,
      retryMaxWaitMs: 5_000,
      maxResponseBytes,
      compressed: true,
      signal: this.#options.signal,
    });
    try {
      return (await http.getJson(new URL(target))).body;
    } catch (error) {
      if (error instanceof ApiNotFoundError) {
        throw new PublishedFileMissing(`${target} does not exist (HTTP 404).`, 404);
      }
      throw error;
    } finally {
      this.read.files++;
      this.read.bytes += http.stats.bytes;
      await http.close();
    }
  }

  async #readLocal(target: string): Promise<string> {
    const text = await readLocal(target);
    this.read.files++;
    this.read.bytes += Buffer.byteLength(text);
    return text;
  }
}

async function readLocal(target: string): Promise<string> {
  try {
    return await readFile(target, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") {
      throw new PublishedFileMissing(`${target} does not exist.`);
    }
    throw new ApiError(`${target} cannot be read (${code ?? "unreadable"}).`);
  }
}
