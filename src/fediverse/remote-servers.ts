import { isIP } from "node:net";
import { Agent, fetch } from "undici";
import { isPublicAddress, publicOnlyLookup } from "../media/address-policy.ts";

/**
 * The fediverse account's requests to other servers: fetching a signer's key
 * and actor, and posting activities to inboxes. Every address comes from a
 * stranger (a keyId, an actor's inbox), so, as for event images
 * (src/media/address-policy.ts), only public addresses are dialled, checked
 * on the addresses the connection is made to; and every request is bounded
 * in time, and every answer read in size. Tests on loopback allow private
 * addresses, as Fedify's `allowPrivateAddress` does.
 */

export interface RemoteServerOptions {
  /** Loopback and private networks too: for tests only. */
  readonly allowPrivateAddresses?: boolean;
  /** Time limit of one request (default 5 s). */
  readonly timeoutMs?: number;
}

/** Why a remote request was not made or failed, in a line for the function log. */
export class RemoteRefused extends Error {
  override name = "RemoteRefused";
}

const ACCEPT =
  'application/activity+json, application/ld+json; profile="https://www.w3.org/ns/activitystreams"';
const DEFAULT_TIMEOUT_MS = 5_000;
/** An actor with a long profile is a few kilobytes; 256 KB is room and a bound. */
export const MAX_DOCUMENT_BYTES = 256 * 1024;
const MAX_REDIRECTS = 3;

export class RemoteServers {
  readonly #agent: Agent;
  readonly #allowPrivate: boolean;
  readonly #timeoutMs: number;

  constructor(options: RemoteServerOptions = {}) {
    this.#allowPrivate = options.allowPrivateAddresses === true;
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.#agent = new Agent(
      this.#allowPrivate ? {} : { connect: { lookup: publicOnlyLookup() as never } },
    );
  }

  /** The JSON document at `url`, asked for as ActivityStreams; follows a few redirects. */
  async getJson(url: string): Promise<unknown> {
    let target = this.#check(url);
    for (let redirects = 0; ; redirects++) {
      const response = await this.#send(target, {
        method: "GET",
        headers: { accept: ACCEPT },
        redirect: "manual",
      });
      const location = response.headers.get("location");
      if (response.status >= 300 && response.status < 400 && location) {
        await response.body?.cancel().catch(() => undefined);
        if (redirects >= MAX_REDIRECTS) throw new RemoteRefused(`${url}: too many redirects`);
        target = this.#check(new URL(location, target).href);
        continue;
      }
      if (!response.ok) {
        await response.body?.cancel().catch(() => undefined);
        throw new RemoteRefused(`${target.href}: HTTP ${response.status}`);
      }
      const text = await readBounded(response.body, MAX_DOCUMENT_BYTES, target.href);
      try {
        return JSON.parse(text);
      } catch {
        throw new RemoteRefused(`${target.href}: not JSON`);
      }
    }
  }

  /** POSTs `body` with `headers`; the HTTP status, the answer itself unread. */
  async post(url: string, body: string, headers: Record<string, string>): Promise<number> {
    const response = await this.#send(this.#check(url), {
      method: "POST",
      headers: { "content-type": "application/activity+json", ...headers },
      body,
      redirect: "manual",
    });
    await response.body?.cancel().catch(() => undefined);
    return response.status;
  }

  close(): Promise<void> {
    return this.#agent.close();
  }

  async #send(
    url: URL,
    init: { method: string; headers: Record<string, string>; body?: string; redirect: "manual" },
  ) {
    try {
      return await fetch(url, {
        ...init,
        dispatcher: this.#agent,
        signal: AbortSignal.timeout(this.#timeoutMs),
      });
    } catch (error) {
      const cause = (error as { cause?: { message?: string } }).cause?.message;
      const why =
        error instanceof Error && error.name === "TimeoutError"
          ? `no answer within ${this.#timeoutMs / 1000} s`
          : (cause ?? "unreachable");
      throw new RemoteRefused(`${url.href}: ${why}`);
    }
  }

  /** An http(s) URL whose host, if an address, is a public one (https only, but in tests). */
  #check(raw: string): URL {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new RemoteRefused(`${raw.slice(0, 200)}: not a URL`);
    }
    const secure = url.protocol === "https:" || (this.#allowPrivate && url.protocol === "http:");
    if (!secure || url.username || url.password) {
      throw new RemoteRefused(`${url.href.slice(0, 200)}: not an https URL`);
    }
    const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
    if (!this.#allowPrivate && isIP(host) !== 0 && !isPublicAddress(host)) {
      throw new RemoteRefused(`${url.href}: not a public address`);
    }
    return url;
  }
}

/** A body read up to `limit` bytes; the stream is cancelled past it. */
export async function readBounded(
  body: { getReader(): ReadableStreamDefaultReader<Uint8Array> } | null,
  limit: number,
  where: string,
): Promise<string> {
  if (!body) return "";
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    size += read.value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      throw new RemoteRefused(`${where}: larger than ${limit / 1024} KB`);
    }
    chunks.push(read.value);
  }
  return Buffer.concat(chunks).toString("utf8");
}
