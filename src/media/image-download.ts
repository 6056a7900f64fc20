import { Agent, type Dispatcher, request } from "undici";
import {
  type HostPolicy,
  hostCheck,
  type LookupFunction,
  publicOnlyLookup,
} from "./address-policy.ts";
import { ImageRefused, outOfTime } from "./image-refused.ts";

/**
 * One event image downloaded within real bounds: a Content-Length over the
 * limit is refused before the body is read, the body is read as a stream
 * and dropped the moment it passes the limit (never held whole first), one
 * deadline covers the whole download (connect, redirects, headers and body:
 * a server sending a byte now and then cannot hold it), redirects are
 * followed a few times with the host checked again on every hop
 * (src/media/address-policy.ts), and the validators of the copy the build
 * keeps are sent along (RFC 9110 13.1.1-13.1.3), so an unchanged image
 * costs a 304 and a replaced one is fetched again.
 *
 * No token is sent: images are public URLs the portal hands out, and the
 * token must never travel to another host. No Accept-Encoding either: the
 * bytes counted are the bytes kept, with no compression bomb to unpack.
 */

export interface DownloadLimits {
  /** Largest image body, in bytes. */
  readonly maxBytes: number;
  /** One deadline for the whole download of one image, in milliseconds. */
  readonly timeoutMs: number;
  /** Redirects followed before the image is refused. */
  readonly maxRedirects: number;
}

/** What a server said identifies the copy it sent (RFC 9110 8.8). */
export interface Validators {
  readonly etag: string | null;
  readonly lastModified: string | null;
}

export type Downloaded =
  | { readonly status: "unchanged" }
  | {
      readonly status: "fetched";
      readonly bytes: Buffer;
      /** The media type the server declared, lower case, without parameters. */
      readonly declaredType: string;
      readonly validators: Validators;
    };

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** Answers worth asking again later (RFC 9110 15.6, RFC 6585 4): the image may be back next build. */
const UNREACHABLE = (status: number) => status >= 500 || status === 429 || status === 408;

const ACCEPT = "image/avif,image/webp,image/png,image/jpeg,image/gif,image/svg+xml;q=0.8";

/**
 * Downloads images for one build: one connection pool for trusted hosts,
 * one whose connections check every address (closed with `close`).
 */
export class ImageDownloader {
  readonly #policy: HostPolicy;
  readonly #limits: DownloadLimits;
  readonly #trusted: Agent;
  readonly #checked: Agent;

  constructor(policy: HostPolicy, limits: DownloadLimits, resolve?: LookupFunction) {
    this.#policy = policy;
    this.#limits = limits;
    this.#trusted = new Agent();
    this.#checked = new Agent({ connect: { lookup: publicOnlyLookup(resolve) } });
  }

  /**
   * The image at `url`; `unchanged` when the server confirms the copy with
   * these validators. `buildSignal` is the deadline of all the build's images.
   * Throws ImageRefused.
   */
  async download(
    url: string,
    validators: Validators | null,
    buildSignal: AbortSignal,
  ): Promise<Downloaded> {
    const { timeoutMs } = this.#limits;
    const imageSignal = AbortSignal.timeout(timeoutMs);
    const signal = AbortSignal.any([imageSignal, buildSignal]);
    try {
      return await this.#follow(url, validators, signal);
    } catch (error) {
      if (error instanceof ImageRefused) throw error;
      if (buildSignal.aborted) {
        throw outOfTime();
      }
      if (imageSignal.aborted) {
        throw new ImageRefused(`not downloaded within ${timeoutMs / 1000} s`, "unreachable");
      }
      // A refusal by the address check surfaces as the connection's error.
      const cause = (error as Error).cause;
      if (cause instanceof ImageRefused) throw cause;
      throw new ImageRefused(`${(error as Error).message}`, "unreachable");
    }
  }

  async #follow(
    start: string,
    validators: Validators | null,
    signal: AbortSignal,
  ): Promise<Downloaded> {
    let url: URL;
    try {
      url = new URL(start);
    } catch {
      throw new ImageRefused("not a URL", "refused");
    }
    for (let hop = 0; ; hop++) {
      const dispatcher: Dispatcher =
        hostCheck(url, this.#policy) === "trusted" ? this.#trusted : this.#checked;
      const response = await request(url, {
        dispatcher,
        method: "GET",
        headers: conditionalHeaders(validators),
        signal,
      });
      const { statusCode, headers, body } = response;
      if (REDIRECTS.has(statusCode)) {
        discard(body);
        const location = header(headers, "location");
        if (!location) throw new ImageRefused(`HTTP ${statusCode} without a Location`, "refused");
        if (hop >= this.#limits.maxRedirects) {
          throw new ImageRefused(`more than ${this.#limits.maxRedirects} redirects`, "refused");
        }
        url = new URL(location, url);
        continue;
      }
      if (statusCode === 304 && validators) {
        discard(body);
        return { status: "unchanged" };
      }
      if (statusCode !== 200) {
        discard(body);
        throw new ImageRefused(
          `HTTP ${statusCode}`,
          UNREACHABLE(statusCode) ? "unreachable" : "refused",
        );
      }
      const declaredType = (header(headers, "content-type") ?? "").split(";")[0]?.trim() ?? "";
      const bytes = await readBounded(body, header(headers, "content-length"), this.#limits);
      return {
        status: "fetched",
        bytes,
        declaredType: declaredType.toLowerCase(),
        validators: {
          etag: header(headers, "etag"),
          lastModified: header(headers, "last-modified"),
        },
      };
    }
  }

  async close(): Promise<void> {
    await Promise.all([this.#trusted.destroy(), this.#checked.destroy()]);
  }
}

function conditionalHeaders(validators: Validators | null): Record<string, string> {
  const headers: Record<string, string> = { accept: ACCEPT };
  if (validators?.etag) headers["if-none-match"] = validators.etag;
  if (validators?.lastModified) headers["if-modified-since"] = validators.lastModified;
  return headers;
}

/** The body, or a refusal as soon as it is known to be over the limit. */
async function readBounded(
  body: Dispatcher.ResponseData["body"],
  contentLength: string | null,
  limits: DownloadLimits,
): Promise<Buffer> {
  const tooLarge = () => new ImageRefused(`larger than ${sizeText(limits.maxBytes)}`, "refused");
  if (contentLength !== null && Number(contentLength) > limits.maxBytes) {
    discard(body);
    throw tooLarge();
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limits.maxBytes) {
      discard(body);
      throw tooLarge();
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size);
}

/** Closes a body not wanted (or no longer): its connection is not kept for another request. */
function discard(body: Dispatcher.ResponseData["body"]): void {
  // Destroying reports an abort to listeners; nothing waits for this body.
  body.on("error", () => {});
  body.destroy();
}

function header(headers: Dispatcher.ResponseData["headers"], name: string): string | null {
  const value = headers[name];
  const first = Array.isArray(value) ? value[0] : value;
  return first === undefined ? null : String(first);
}

/** "10 MB", "512 KB": binary units, as EVENT_API_MAX_RESPONSE_SIZE reads them. */
export function sizeText(bytes: number): string {
  return bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0
    ? `${bytes / (1024 * 1024)} MB`
    : `${Math.round(bytes / 1024)} KB`;
}
