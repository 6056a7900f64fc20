import { setTimeout as sleep } from "node:timers/promises";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { Agent, type Dispatcher } from "undici";
import type { AuthMode } from "../config/api.ts";
import { ApiError, AuthError } from "../errors.ts";
import { withinWireDepth } from "../model/wire-depth.ts";
import { authorize, createRedactor, formatAuth, withoutToken } from "./auth.ts";
import { ApiNotFoundError, ApiUnavailableError, formatMs } from "./errors.ts";
import { backoffMs, isRetryableStatus, isTransientNetworkError, parseRetryAfter } from "./retry.ts";
import { Semaphore } from "./semaphore.ts";

export interface HttpClientOptions {
  /** EVENT_API_URL: the token is only ever sent to its origin. */
  readonly baseUrl?: string;
  /** Null for a server that needs none (a published site): nothing is sent, nothing to redact. */
  readonly token: string | null;
  readonly auth: AuthMode;
  /**
   * Who answers, as messages name it: the portal (the default, with hints at
   * the EVENT_API_* settings), or another server such as a published site.
   */
  readonly server?: ServerTerms;
  readonly concurrency: number;
  readonly timeoutMs: number;
  readonly retries: number;
  readonly retryMaxWaitMs: number;
  /** Larger bodies are stopped (EVENT_API_MAX_RESPONSE_SIZE); default 64 MiB. */
  readonly maxResponseBytes?: number;
  /**
   * Ask for gzip or Brotli (a published site: the check reads its build state
   * every minute, and hosts compress JSON several times over). The limit above
   * holds for the body once decompressed.
   */
  readonly compressed?: boolean;
  readonly signal?: AbortSignal;
  /** Injected for tests of the backoff; defaults to Math.random. */
  readonly random?: () => number;
}

export interface ConditionalHeaders {
  readonly etag?: string | null;
  readonly lastModified?: string | null;
}

export interface JsonResponse {
  /** 200-299, or 304 when a conditional request still matches. */
  readonly status: number;
  /** Parsed JSON; null for 304. */
  readonly body: unknown;
  readonly etag: string | null;
  readonly lastModified: string | null;
  /** Link header (RFC 8288), with any token parameter removed from its URLs. */
  readonly link: string | null;
  readonly totalCount: number | null;
}

export interface ServerTerms {
  /** "the portal", "the published site". */
  readonly name: string;
  /** Whether messages point at the EVENT_API_* settings. */
  readonly apiHints: boolean;
  /** Whether any well-formed JSON body counts, whatever its Content-Type (static hosts vary). */
  readonly anyContentType?: boolean;
  /** Whether the body is text to keep as it is (a published page), not JSON: `body` is the string. */
  readonly text?: boolean;
}

const PORTAL: ServerTerms = { name: "the portal", apiHints: true };

export interface HttpStats {
  requests: number;
  retries: number;
  notModified: number;
  /** Bytes of the response bodies read (a 304 has none). */
  bytes: number;
}

const JSON_TYPE = /^application\/([\w.+-]+\+)?json\s*(;|$)/i;
/** How much of a rejection's body an AuthError keeps: enough for any message a portal writes. */
const KEPT_BODY = 4096;
/** Far above any calendar list we expect; stops a runaway response from eating memory. */
const DEFAULT_MAX_BODY_BYTES = 64 * 1024 * 1024;

/**
 * GETs JSON from the portal (or another server, such as a published site):
 * keep-alive connections (undici Agent, one pool per origin), at most
 * `concurrency` requests in flight, a time limit per attempt, retries with
 * backoff for transient failures, and errors whose messages never contain
 * the token.
 */
export class HttpClient {
  readonly stats: HttpStats = { requests: 0, retries: 0, notModified: 0, bytes: 0 };
  readonly redact: (text: string) => string;
  readonly #options: HttpClientOptions;
  readonly #agent: Agent;
  readonly #slots: Semaphore;
  /** "The portal" / "the portal", as messages begin or continue. */
  readonly #The: string;
  readonly #the: string;
  readonly #hints: boolean;

  constructor(options: HttpClientOptions) {
    this.#options = options;
    const server = options.server ?? PORTAL;
    this.#the = server.name;
    this.#The = server.name.charAt(0).toUpperCase() + server.name.slice(1);
    this.#hints = server.apiHints;
    this.redact = options.token === null ? (text) => text : createRedactor(options.token);
    this.#slots = new Semaphore(options.concurrency);
    this.#agent = new Agent({
      connections: options.concurrency,
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      keepAliveTimeout: 10_000,
    });
  }

  /** The URL as it may be shown: token parameter removed. */
  display(url: URL): string {
    return this.redact(withoutToken(url, this.#options.auth).href);
  }

  /**
   * An endless or runaway body is not a network problem: say what was stopped,
   * at which limit, and (for the portal) which setting moves it. Not retried
   * (the next attempt would read as much again); EVENT_API_ALLOW_STALE may
   * still cover it.
   */
  #tooLarge(shown: string, limit: number, announced: number | null): ApiError {
    const size = formatBytes(limit);
    const what =
      announced === null
        ? `went on past ${size} and was stopped (an endless or runaway response)`
        : `announced ${formatBytes(announced)}, more than the ${size} allowed, and was not read`;
    const limitHint = this.#hints
      ? ` The limit is EVENT_API_MAX_RESPONSE_SIZE=${size}: raise it if the portal really sends this much, or page its lists (EVENT_API_PAGING).`
      : "";
    return new ApiUnavailableError(`${this.#The}'s answer for ${shown} ${what}.${limitHint}`);
  }

  /** "; check EVENT_API_URL" and the like, for the portal only. */
  #hint(text: string): string {
    return this.#hints ? `; ${text}` : "";
  }

  async getJson(target: URL, conditional: ConditionalHeaders = {}): Promise<JsonResponse> {
    const { retries, retryMaxWaitMs } = this.#options;
    for (let attempt = 0; ; attempt++) {
      const outcome = await this.#attempt(target, conditional);
      if (outcome.ok) return outcome.response;
      if (!outcome.retryable || attempt >= retries) throw this.#finalError(outcome.error, attempt);
      this.stats.retries++;
      const wait = outcome.retryAfterMs ?? backoffMs(attempt, retryMaxWaitMs, this.#options.random);
      await sleep(Math.min(wait, retryMaxWaitMs), undefined, { signal: this.#options.signal });
    }
  }

  async close(): Promise<void> {
    await this.#agent.close();
  }

  async #attempt(target: URL, conditional: ConditionalHeaders): Promise<Attempt> {
    const release = await this.#slots.acquire();
    try {
      return await this.#send(target, conditional);
    } finally {
      release();
    }
  }

  async #send(target: URL, conditional: ConditionalHeaders): Promise<Attempt> {
    const url = new URL(target);
    const home = this.#options.baseUrl ? new URL(this.#options.baseUrl).origin : url.origin;
    if (url.origin !== home) {
      // A next-page link to another site must not carry the token there.
      return failed(
        new ApiError(
          `The portal points at ${this.display(url)}, another site than EVENT_API_URL (${home}); the token is only ever sent to EVENT_API_URL's site, so this was not requested.`,
        ),
      );
    }
    const headers: Record<string, string> = {
      accept: this.#options.server?.text ? "*/*" : "application/json",
      "user-agent": "event-calendar-publisher",
      ...(this.#options.compressed ? { "accept-encoding": "br, gzip" } : {}),
    };
    if (this.#options.token !== null) {
      authorize(url, headers, this.#options.auth, this.#options.token);
    }
    if (conditional.etag) headers["if-none-match"] = conditional.etag;
    if (conditional.lastModified) headers["if-modified-since"] = conditional.lastModified;
    const shown = this.display(url);
    const timeout = AbortSignal.timeout(this.#options.timeoutMs);
    const signal = this.#options.signal
      ? AbortSignal.any([this.#options.signal, timeout])
      : timeout;

    this.stats.requests++;
    let response: Dispatcher.ResponseData;
    try {
      response = await this.#agent.request({
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method: "GET",
        headers,
        signal,
      });
    } catch (error) {
      return this.#networkFailure(error, url, shown, timeout);
    }

    const header = (name: string): string | null => {
      const value = response.headers[name];
      return (Array.isArray(value) ? value.join(", ") : value) ?? null;
    };
    const status = response.statusCode;
    if (status === 304) {
      await response.body.dump();
      this.stats.notModified++;
      return { ok: true, response: this.#response(304, null, header) };
    }
    const limit = this.#options.maxResponseBytes ?? DEFAULT_MAX_BODY_BYTES;
    const announced = Number(header("content-length") ?? Number.NaN);
    if (announced > limit) {
      response.body.destroy();
      return failed(this.#tooLarge(shown, limit, announced));
    }
    let text: string;
    try {
      const encoding = this.#options.compressed ? header("content-encoding") : null;
      text = await readText(response.body, limit, this.stats, encoding);
    } catch (error) {
      if (errorCode(error) === "EFBIG") return failed(this.#tooLarge(shown, limit, null));
      return this.#networkFailure(error, url, shown, timeout, true);
    }
    if (status >= 200 && status < 300 && this.#options.server?.text) {
      return { ok: true, response: this.#response(status, text, header) };
    }
    if (status >= 200 && status < 300) {
      const type = header("content-type");
      if (type && !JSON_TYPE.test(type) && !this.#options.server?.anyContentType) {
        return failed(
          new ApiError(
            `${this.#The} answered ${shown} with ${type.split(";")[0]} instead of JSON${this.#hint("check that EVENT_API_URL points at the API, not a web page")}.`,
            status,
          ),
        );
      }
      try {
        // Nesting no record needs is cut here, before any recursive code sees it.
        const body = withinWireDepth(JSON.parse(text));
        return { ok: true, response: this.#response(status, body, header) };
      } catch (cause) {
        // A truncated body (dropped connection, proxy hiccup) is worth another try.
        return failed(
          new ApiUnavailableError(`${this.#The} sent invalid JSON for ${shown}.`, status, {
            cause: this.#clean(cause),
          }),
          true,
        );
      }
    }
    return this.#statusFailure(status, shown, text, header);
  }

  #response(status: number, body: unknown, header: (name: string) => string | null): JsonResponse {
    const link = header("link");
    const total = Number(header("x-total-count") ?? Number.NaN);
    return {
      status,
      body,
      etag: header("etag"),
      lastModified: header("last-modified"),
      link: link ? this.#cleanLink(link) : null,
      totalCount: Number.isInteger(total) && total >= 0 ? total : null,
    };
  }

  /** Portals often echo the request query (our token, in query mode) into Link URLs. */
  #cleanLink(link: string): string {
    const auth = this.#options.auth;
    if (auth.kind !== "query") return this.redact(link);
    return this.redact(
      link.replace(/<([^>]*)>/g, (whole, inner: string) => {
        try {
          const parsed = new URL(inner);
          return `<${withoutToken(parsed, auth).href}>`;
        } catch {
          return whole;
        }
      }),
    );
  }

  #statusFailure(
    status: number,
    shown: string,
    text: string,
    header: (name: string) => string | null,
  ): Attempt {
    const detail = problemDetail(text, this.redact);
    if (status === 401 || status === 403) {
      const sentAs = formatAuth(this.#options.auth);
      return failed(
        new AuthError(
          `The portal rejected the token (HTTP ${status}) for ${shown}, sent as EVENT_API_AUTH=${sentAs}${detail}. If the token is new, the portal may expect it elsewhere: npm run check-api tries the common placements. Otherwise ask the Organization Administrator for a new one and set it in EVENT_API_TOKEN.`,
          status,
          // Redacted before it is cut, so no part of the token survives at the cut.
          { challenge: header("www-authenticate"), body: this.redact(text).slice(0, KEPT_BODY) },
        ),
      );
    }
    if (status === 404) {
      return failed(new ApiNotFoundError(`${this.#The} has nothing at ${shown} (HTTP 404).`, 404));
    }
    if (isRetryableStatus(status)) {
      const retryAfterMs = parseRetryAfter(header("retry-after") ?? undefined);
      const what = status === 429 ? "is limiting our request rate" : "failed";
      return {
        ok: false,
        retryable: true,
        retryAfterMs,
        error: new ApiUnavailableError(
          `${this.#The} ${what} (HTTP ${status}) for ${shown}${detail}.`,
          status,
        ),
      };
    }
    return failed(
      new ApiError(
        `${this.#The} refused ${shown} (HTTP ${status})${detail}${this.#hint("check EVENT_API_URL and EVENT_API_AUTH")}.`,
        status,
      ),
    );
  }

  #networkFailure(
    error: unknown,
    url: URL,
    shown: string,
    timeout: AbortSignal,
    answering = false,
  ): Attempt {
    if (this.#options.signal?.aborted) throw this.#options.signal.reason;
    const code = errorCode(error);
    const cause = this.#clean(error);
    const host = url.host;
    if (timeout.aborted || code === "UND_ERR_HEADERS_TIMEOUT" || code === "UND_ERR_BODY_TIMEOUT") {
      const what = answering ? "did not finish answering" : "did not answer";
      return failed(
        new ApiUnavailableError(
          `${this.#The} ${what} ${shown} within ${formatMs(this.#options.timeoutMs)}${this.#hints ? " (EVENT_API_TIMEOUT)" : ""}.`,
          undefined,
          { cause },
        ),
        true,
      );
    }
    if (code === "ENOTFOUND") {
      return failed(
        new ApiUnavailableError(
          `Cannot find the host "${url.hostname}" (DNS)${this.#hint("check EVENT_API_URL")}.`,
          undefined,
          { cause },
        ),
      );
    }
    if (code === "ECONNREFUSED") {
      return failed(
        new ApiUnavailableError(
          `Cannot reach ${this.#the} at ${host}: connection refused${this.#hint("check EVENT_API_URL and that the portal is up")}.`,
          undefined,
          { cause },
        ),
        true,
      );
    }
    return failed(
      new ApiUnavailableError(
        `Cannot reach ${this.#the} at ${host}: ${code ?? "network error"} for ${shown}.`,
        undefined,
        { cause },
      ),
      isTransientNetworkError(code) || code === undefined,
    );
  }

  #finalError(error: ApiError, attempt: number): ApiError {
    if (attempt === 0 || !(error instanceof ApiUnavailableError)) return error;
    const message = `${error.message.replace(/\.$/, "")} (after ${attempt + 1} attempts).`;
    return new ApiUnavailableError(message, error.status, { cause: error.cause });
  }

  /** A cause safe to keep: same class of information, token removed from its message. */
  #clean(error: unknown): Error {
    const message = error instanceof Error ? error.message : String(error);
    const clean = new Error(this.redact(message));
    clean.name = error instanceof Error ? error.name : "Error";
    const code = errorCode(error);
    if (code) Object.assign(clean, { code });
    return clean;
  }
}

type Attempt =
  | { readonly ok: true; readonly response: JsonResponse }
  | {
      readonly ok: false;
      readonly retryable: boolean;
      readonly retryAfterMs?: number | null;
      readonly error: ApiError;
    };

function failed(error: ApiError, retryable = false): Attempt {
  return { ok: false, retryable, error };
}

function errorCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current instanceof Error; depth++) {
    const code = (current as Error & { code?: unknown }).code;
    if (typeof code === "string") return code;
    current = current.cause ?? (current as Error & { errors?: unknown[] }).errors?.[0];
  }
  return undefined;
}

/** The body as text, at most `limit` bytes once decoded; `stats.bytes` counts what came over the wire. */
async function readText(
  body: Dispatcher.ResponseData["body"],
  limit: number,
  stats: HttpStats,
  encoding: string | null = null,
): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += (chunk as Buffer).length;
    stats.bytes += (chunk as Buffer).length;
    if (size > limit) {
      body.destroy();
      throw tooLargeError(limit);
    }
    chunks.push(chunk as Buffer);
  }
  const wire = Buffer.concat(chunks);
  const decode = encoding ? DECODERS[encoding.trim().toLowerCase()] : undefined;
  if (!decode) return wire.toString("utf8");
  try {
    // maxOutputLength stops a small body that inflates without bound.
    return decode(wire, { maxOutputLength: limit }).toString("utf8");
  } catch (error) {
    if (error instanceof RangeError) throw tooLargeError(limit);
    throw error;
  }
}

const DECODERS: Readonly<
  Record<string, (data: Buffer, options: { maxOutputLength: number }) => Buffer>
> = { gzip: gunzipSync, br: brotliDecompressSync };

function tooLargeError(limit: number): Error {
  return Object.assign(new Error(`response larger than ${limit} bytes`), { code: "EFBIG" });
}

/** "64MB", "1.5MB", "512KB": binary units, as EVENT_API_MAX_RESPONSE_SIZE reads them. */
function formatBytes(bytes: number): string {
  const units: ReadonlyArray<readonly [string, number]> = [
    ["GB", 1024 ** 3],
    ["MB", 1024 ** 2],
    ["KB", 1024],
  ];
  for (const [unit, size] of units) {
    if (bytes >= size) return `${Math.round((bytes / size) * 10) / 10}${unit}`;
  }
  return `${bytes}B`;
}

/** RFC 9457 problem details give a human explanation worth passing on. */
function problemDetail(text: string, redact: (text: string) => string): string {
  try {
    const problem = JSON.parse(text) as { detail?: unknown; title?: unknown };
    const detail = typeof problem.detail === "string" ? problem.detail : problem.title;
    return typeof detail === "string" && detail.trim()
      ? `: ${redact(detail.trim().replace(/\s+/g, " ").slice(0, 200)).replace(/\.+$/, "")}`
      : "";
  } catch {
    return "";
  }
}
