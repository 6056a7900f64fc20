import type { WireRecord } from "../model/wire.ts";

// A details record's digest: of the portal's response body it was unwrapped
// from, as JSON.stringify writes it out. Kept with the body in the details
// store (src/api/details-store.ts), so that an event whose details are
// reused is not written out and hashed again for its normalized event's key
// (src/snapshot/normalize-memo.ts): at 100,000 events those keys took 1.3 s
// of one edited event's build, and the details are the larger part of the
// text; keying by the digest took about 0.3 s off it (docs/performance.md,
// What changed, item 92).

/** The digest of the body `record` was unwrapped from, when its client told it. */
export function detailsDigest(record: WireRecord): string | undefined {
  return digests.get(record);
}

/** Tells the normalized events' keys which body `record` was unwrapped from. */
export function rememberDetailsDigest(record: WireRecord, digest: string): void {
  digests.set(record, digest);
}

const digests = new WeakMap<WireRecord, string>();
