import { createHash } from "node:crypto";

/**
 * Keys for things the portal may not give an id to (a place, a series of
 * events), made from what editors type: names, addresses, titles. Two
 * spellings an editor would call the same must give the same key, and a key
 * must never depend on the build machine, on the order of the data or on
 * other records, so its address stays put from one build to the next
 * (docs/site.md, "Places" and "Series").
 */

/**
 * The comparable form of a name or address: Unicode compatibility forms
 * folded (NFKD), accents and other combining marks dropped, lower case
 * (locale-independent), every run of characters that are not letters or
 * digits (spaces, punctuation, symbols) made one space, trimmed.
 * "Café  De Pijp," and "cafe de pijp" are the same; "Café De Pijp" and
 * "Café Pijp" are not. Letters of every script are kept.
 */
export function normalizeKeyText(text: string | null | undefined): string {
  if (!text) return "";
  return text
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

const SLUG_MAX = 40;

/**
 * A readable start for a URL segment from normalized text: its ASCII
 * letters and digits, words joined by "-", cut at a word boundary to at most
 * 40 characters; "" when nothing ASCII is left (a name in another script).
 */
export function slugOf(normalized: string): string {
  const words = normalized
    .split(" ")
    .map((word) => word.replace(/[^a-z0-9]/g, ""))
    .filter(Boolean);
  let slug = "";
  for (const word of words) {
    const next = slug ? `${slug}-${word}` : word;
    if (next.length > SLUG_MAX) break;
    slug = next;
  }
  return slug || (words[0]?.slice(0, SLUG_MAX) ?? "");
}

/** The first 10 hex digits (40 bits) of the SHA-256 of `text`: what keeps two slugs apart. */
export function shortHash(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex").slice(0, 10);
}

/** The whole SHA-256 of `text`, for the rare key whose short form another key took. */
export function longHash(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

/** "<slug>-<10 hex>", or the hex alone when the text has no ASCII word. */
export function slugWithHash(normalized: string, identity: string): string {
  const slug = slugOf(normalized);
  const hash = shortHash(identity);
  return slug ? `${slug}-${hash}` : hash;
}

/**
 * One URL segment per identity. Each identity proposes a segment; when two
 * different identities propose the same one (a portal id spelled like a
 * made-up key, or two keys whose short hashes meet), the identity that sorts
 * first by code unit keeps it and each other one gets "__" and the whole
 * SHA-256 of its identity, so the outcome depends on the identities alone,
 * never on the order they were met in.
 */
export function assignSegments(proposed: ReadonlyMap<string, string>): Map<string, string> {
  const bySegment = new Map<string, string[]>();
  for (const [identity, segment] of proposed) {
    const list = bySegment.get(segment);
    if (list) list.push(identity);
    else bySegment.set(segment, [identity]);
  }
  const assigned = new Map<string, string>();
  for (const [segment, identities] of bySegment) {
    if (identities.length === 1) {
      assigned.set(identities[0] as string, segment);
      continue;
    }
    const [first, ...others] = [...identities].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    assigned.set(first as string, segment);
    for (const identity of others) assigned.set(identity, `__${longHash(identity)}`);
  }
  return assigned;
}
