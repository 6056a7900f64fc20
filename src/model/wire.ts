/**
 * Records as the portal sends them: JSON objects whose field names and shapes
 * we do not control (docs/api.md describes the reference portal's). Only the
 * normalizer in src/model turns them into domain types.
 */
export type WireRecord = Readonly<Record<string, unknown>>;

/** One event as listed in a calendar, with its details record when fetched. */
export interface WireEvent {
  readonly listed: WireRecord;
  readonly details: WireRecord | null;
}

/** Everything fetched for one calendar. */
export interface WireCalendar {
  readonly record: WireRecord;
  readonly events: readonly WireEvent[];
}
