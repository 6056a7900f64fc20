import { createHash } from "node:crypto";
import { ApiUnavailableError } from "../api/errors.ts";
import type { IcsSourceConfig } from "../config/sources.ts";

/**
 * One request for a partner's iCalendar feed, by the build (its text) and by
 * `npm run rebuild-if-changed` (whether it changed): bounded in size
 * (EVENT_API_MAX_RESPONSE_SIZE) and time (EVENT_API_TIMEOUT), and, for the
 * check, conditional on the validators the build recorded (RFC 9110, 13.1):
 * a 304 costs no body at all.
 */

/** What the build state records of a feed, for the next check. */
export interface FeedValidators {
  readonly etag: string | null;
  readonly lastModified: string | null;
  /** feedDigest of the body. */
  readonly digest: string;
}

export type FeedResponse =
  | { readonly notModified: true }
  | {
      readonly notModified: false;
      readonly text: string;
      readonly validators: FeedValidators;
    };

type FeedRequest = Pick<IcsSourceConfig, "url" | "timeoutMs" | "maxBytes">;

/** The feed's text, within its size and time; unreachable or refused is ApiUnavailableError. */
export async function fetchFeed(
  source: FeedRequest,
  options: { readonly signal?: AbortSignal; readonly recorded?: FeedValidators | null } = {},
): Promise<FeedResponse> {
  const timeout = AbortSignal.timeout(source.timeoutMs);
  const { recorded, signal } = options;
  const headers: Record<string, string> = { accept: "text/calendar" };
  if (recorded?.etag) headers["if-none-match"] = recorded.etag;
  if (recorded?.lastModified) headers["if-modified-since"] = recorded.lastModified;
  let response: Response;
  try {
    response = await fetch(source.url, {
      headers,
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
  } catch {
    // The address may hold a private key: it is never printed.
    throw new ApiUnavailableError("the feed could not be reached.");
  }
  if (response.status === 304 && recorded) {
    await response.body?.cancel();
    return { notModified: true };
  }
  if (!response.ok || !response.body) {
    await response.body?.cancel();
    throw new ApiUnavailableError(`the feed answered HTTP ${response.status}.`, response.status);
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > source.maxBytes) {
      throw new ApiUnavailableError(
        `the feed is larger than ${source.maxBytes} bytes (EVENT_API_MAX_RESPONSE_SIZE).`,
      );
    }
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString("utf8");
  return {
    notModified: false,
    text,
    validators: {
      etag: response.headers.get("etag"),
      lastModified: response.headers.get("last-modified"),
      digest: feedDigest(text),
    },
  };
}

/**
 * A digest of what a feed says, for a host that sends no validators. Lines of
 * DTSTAMP are left out: many calendar hosts stamp every VEVENT with the time
 * of the request (RFC 5545, 3.8.7.2, allows it for a feed without METHOD),
 * which would make every check see a change. Line folds (RFC 5545, 3.1) are
 * undone first, so a refolded feed reads the same.
 */
export function feedDigest(text: string): string {
  const lines = text
    .replace(/\r?\n[ \t]/g, "")
    .split(/\r?\n/)
    .filter((line) => !/^DTSTAMP[;:]/i.test(line));
  return `sha256-${createHash("sha256").update(lines.join("\n")).digest("hex")}`;
}
