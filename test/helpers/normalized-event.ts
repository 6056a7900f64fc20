import { EMPTY_FIELD_MAP, type FieldMap } from "../../src/model/field-map.ts";
import { normalizeEvent } from "../../src/model/normalize-event.ts";
import type { Calendar, CalendarEvent } from "../../src/model/types.ts";
import type { WireRecord } from "../../src/model/wire.ts";

/**
 * Where a test's wire record is read: its calendar (the community calendar in
 * Amsterdam unless said), and the details record and field map if any.
 */
export interface ReadIn {
  readonly calendar?: Pick<Calendar, "id" | "timeZone">;
  readonly details?: WireRecord | null;
  readonly fieldMap?: FieldMap;
}

/**
 * A wire record as the build's normalizer reads it, with Amsterdam as the
 * default zone; a record the normalizer skips fails the test with its reason.
 */
export function normalizedEvent(listed: WireRecord, where: ReadIn = {}): CalendarEvent {
  const calendar = where.calendar ?? { id: "community", timeZone: "Europe/Amsterdam" };
  const result = normalizeEvent(listed, where.details ?? null, calendar, {
    fieldMap: where.fieldMap ?? EMPTY_FIELD_MAP,
    defaultTimeZone: "Europe/Amsterdam",
  });
  if (!result.ok) throw new Error(result.reason);
  return result.value;
}
