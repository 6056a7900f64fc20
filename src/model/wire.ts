/**
 * Records as the portal sends them: JSON objects whose field names and shapes
 * we do not control (docs/api.md describes the reference portal's). Only the
 * normalizer in src/model turns them into domain types.
 */
export type WireRecord = Readonly<Record<string, unknown>>;

/** One event as listed in a calendar, with its details record when fetched. */
export interface WireEvent {
  readonly listed: WireRecord;
  /** May be made on first read, from the body kept by the last build (src/api/portal-client.ts). */
  readonly details: WireRecord | null;
  /**
   * The digest of the response body the details were unwrapped from, where
   * the client knows it: what the normalized events' memo keys them by
   * (src/snapshot/normalize-memo.ts), so that an event whose details are
   * reused is not written out and hashed again, nor its details read.
   */
  readonly detailsDigest?: string;
}

/** Everything fetched for one calendar. */
export interface WireCalendar {
  readonly record: WireRecord;
  readonly events: readonly WireEvent[];
}
