import { count } from "../metrics.ts";
import { contentHash } from "../short-hash.ts";
import { noteEvent } from "./shown-reads.ts";
import type { CalendarEvent } from "./types.ts";

/**
 * A digest of the whole event, made once per event object and shared by
 * every output that names the event among its inputs (FileGroup.inputs):
 * the feeds that list it, its download, its card and oEmbed answer. Whole,
 * so that no field an output reads can change unseen.
 */
export function eventDigest(event: CalendarEvent): string {
  noteEvent(event);
  let digest = digests.get(event);
  if (digest === undefined) {
    digest = eventTextDigest(JSON.stringify(event));
    digests.set(event, digest);
  }
  return digest;
}

/** The digest of an event as JSON.stringify writes it out: eventDigest's. */
export function eventTextDigest(text: string): string {
  count("events.digested");
  return contentHash(text);
}

/**
 * The digest of an event read back with it from a file that was written
 * with `eventTextDigest` of the same event's text (the normalized events kept between
 * builds, src/snapshot/normalize-memo.ts), so that a build does not write
 * out and hash again every event it did not change (docs/performance.md,
 * What changed, item 73).
 */
export function rememberEventDigest(event: CalendarEvent, digest: string): void {
  if (!digests.has(event)) digests.set(event, digest);
}

const digests = new WeakMap<CalendarEvent, string>();
