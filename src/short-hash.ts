import { hash } from "node:crypto";

/**
 * The first `length` characters of a digest of `content` in base64url, as a
 * text of their own. A cut of 13 characters or more by `slice` is, in V8, a
 * view of the whole text that keeps all of it alive: 22 characters cut from
 * the 43 of a SHA-256 held 105 bytes of heap, where a text of their own holds
 * 49 (docs/performance.md, What changed, item 65, has the command). A build
 * holds one or two such digests for each file of the site (its hash, its
 * inputs' digest): up to 1.1 million at 100,000 events. A plain module: it
 * imports nothing of the project.
 */
export function shortHash(
  algorithm: "sha1" | "sha256",
  content: string | Uint8Array,
  length: number,
): string {
  // Copied through bytes: a text made from bytes is one of its own, with no view of another.
  return Buffer.from(hash(algorithm, content, "base64url"), "latin1").toString("latin1", 0, length);
}

/** How many characters `contentHash` gives. */
export const HASH_LENGTH = 22;

/** 128 bits of SHA-256: plenty to tell files apart, half the size of the whole hash. */
export function contentHash(content: string | Uint8Array): string {
  // The one-shot form: no Hash object per call (a few hundred thousand calls a large build).
  return shortHash("sha256", content, HASH_LENGTH);
}
