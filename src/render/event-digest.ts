import type { CalendarEvent } from "../model/types.ts";
import { contentHash } from "./published-files.ts";

/**
 * A digest of the whole event, made once per event object and shared by
 * every output that names the event among its inputs (FileGroup.inputs):
 * the feeds that list it, its download, its card and oEmbed answer. Whole,
 * so that no field an output reads can change unseen.
 */
export function eventDigest(event: CalendarEvent): string {
  let digest = digests.get(event);
  if (digest === undefined) {
    digest = contentHash(JSON.stringify(event));
    digests.set(event, digest);
  }
  return digest;
}

const digests = new WeakMap<CalendarEvent, string>();
