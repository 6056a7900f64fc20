import type { Place } from "../model/types.ts";
import { encodeIdSegment } from "../model/url-scheme.ts";
import { normalizeKeyText, slugWithHash } from "./key-text.ts";

/**
 * Which events happen at the same place, and the address of its page
 * (docs/site.md, "Places"):
 *
 * - a place the portal gives an id (`location.id`, or the field map's
 *   `placeId`) is that id: its page is `/places/<id>/` (the id as every
 *   portal id becomes a segment: src/model/url-scheme.ts), whatever its name
 *   or address say;
 * - any other place is its name and its address (the one-line form), each
 *   normalized (normalizeKeyText: case, spaces, punctuation and accents do not
 *   count): its page is `/places/<slug of the name>-<10 hex of a SHA-256 of
 *   both>/`, so two places of the same name at different addresses get two
 *   pages, and the same place typed twice gets one;
 * - a place with neither a name nor an address (coordinates only), and an
 *   online event, has no page.
 */

/** What tells one place from another: "id" and the portal's id, or "at", the normalized name and address. */
export function placeIdentity(place: Place | null | undefined): string | null {
  if (!place) return null;
  if (place.id) return `id\u0000${place.id}`;
  const name = normalizeKeyText(place.name);
  const address = normalizeKeyText(place.address?.formatted);
  if (!name && !address) return null;
  return `at\u0000${name}\u0000${address}`;
}

/** The segment a place asks for before collisions are settled (key-text.ts, assignSegments). */
export function proposedPlaceSegment(identity: string, place: Place): string {
  if (place.id) return encodeIdSegment(place.id);
  const shown = normalizeKeyText(place.name) || normalizeKeyText(place.address?.formatted);
  return slugWithHash(shown, identity);
}

/** The name a place goes by on its page and in lists: its name, else its address. */
export function placeName(place: Place): string {
  return place.name ?? place.address?.formatted ?? "";
}
