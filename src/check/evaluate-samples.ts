import type { FieldMap } from "../model/field-map.ts";
import { unmappedFields } from "../model/field-map.ts";
import { normalizeCalendar } from "../model/normalize-calendar.ts";
import { normalizeEvent } from "../model/normalize-event.ts";
import type { Calendar, CalendarEvent } from "../model/types.ts";
import type { WireRecord } from "../model/wire.ts";
import { eventName } from "./evaluate-records.ts";

/** What check-api fetched: the selected calendars with their listed events, and some details. */
export interface Samples {
  readonly calendars: ReadonlyArray<{
    readonly record: WireRecord;
    readonly events: readonly WireRecord[];
  }>;
  /** Details of some events (unwrapped), by calendar index. */
  readonly details: ReadonlyArray<{
    readonly calendar: number;
    readonly listed: WireRecord;
    readonly details: WireRecord;
  }>;
}

export interface Evaluation {
  readonly listed: number;
  readonly usable: number;
  /** One line per skipped record. */
  readonly problems: readonly string[];
  /** Wire fields nothing reads: "calendar.x", "event.x" (lists), "details.x" (details only). */
  readonly unread: readonly string[];
  /** The first sampled event with its details, as it would be published. */
  readonly sample: CalendarEvent | null;
  /** Optional event fields empty in every sampled event. */
  readonly emptyOptional: readonly string[];
  /** Why the settings do not work, each a sentence; empty when they do. */
  readonly failures: readonly string[];
}

/** Fields an event page shows when the portal has them. */
const OPTIONAL_EVENT_FIELDS = [
  "summary",
  "description",
  "location",
  "onlineUrl",
  "image",
  "categories",
  "organizer",
  "registrationUrl",
] as const;

/**
 * Reads the samples with a field map as the build would, and says whether
 * the result is worth publishing. Besides "no event could be read", two
 * silent failures count: details that add nothing to the list while they
 * carry fields nothing reads, and most optional fields empty in every sampled
 * event while the records carry unread fields. Both mean the portal sends
 * more than we read, usually under names or envelopes the field map lacks.
 */
export function evaluateSamples(
  samples: Samples,
  options: { readonly fieldMap: FieldMap; readonly defaultTimeZone: string },
): Evaluation {
  const problems: string[] = [];
  const unread = new Set<string>();
  const calendars: (Calendar | null)[] = [];
  let listed = 0;
  let usable = 0;
  for (const { record, events } of samples.calendars) {
    for (const field of unmappedFields(record, "calendar", options.fieldMap))
      unread.add(`calendar.${field}`);
    const calendar = normalizeCalendar(record, options);
    calendars.push(calendar.ok ? calendar.value : null);
    if (!calendar.ok) {
      problems.push(`a calendar record was skipped (${calendar.reason})`);
      continue;
    }
    for (const [position, event] of events.entries()) {
      listed++;
      for (const field of unmappedFields(event, "event", options.fieldMap))
        unread.add(`event.${field}`);
      const result = normalizeEvent(event, null, calendar.value, options);
      if (result.ok) usable++;
      else
        problems.push(
          `calendar "${calendar.value.id}", ${eventName(event, position, options.fieldMap)}: ${result.reason}`,
        );
    }
  }

  let sample: CalendarEvent | null = null;
  let addsSomething = false;
  const detailsUnread = new Set<string>();
  const filled = new Set<string>();
  for (const { calendar: index, listed: event, details } of samples.details) {
    const calendar = calendars[index];
    if (!calendar) continue;
    for (const field of unmappedFields(details, "event", options.fieldMap)) {
      if (!unread.has(`event.${field}`)) detailsUnread.add(`details.${field}`);
    }
    const alone = normalizeEvent(event, null, calendar, options);
    const full = normalizeEvent(event, details, calendar, options);
    if (JSON.stringify(alone) !== JSON.stringify(full)) addsSomething = true;
    if (!full.ok) continue;
    sample ??= full.value;
    for (const field of OPTIONAL_EVENT_FIELDS) {
      const value = full.value[field === "description" ? "descriptionHtml" : field];
      if (!isEmpty(value)) filled.add(field);
    }
  }
  for (const field of detailsUnread) unread.add(field);

  const failures: string[] = [];
  if (listed > 0 && usable === 0) {
    failures.push(
      `No listed event could be read; the first: ${problems.find((p) => p.startsWith('calendar "'))}.`,
    );
  }
  const eventUnread = [...unread].filter((field) => !field.startsWith("calendar.")).sort();
  if (samples.details.length > 0 && !addsSomething && detailsUnread.size > 0) {
    failures.push(
      `The details records add nothing to the list records, while they carry fields nothing reads: ${[...detailsUnread].sort().join(", ")}. Map them with EVENT_API_FIELD_MAP.`,
    );
  }
  const emptyOptional = sample ? OPTIONAL_EVENT_FIELDS.filter((field) => !filled.has(field)) : [];
  if (sample && emptyOptional.length > OPTIONAL_EVENT_FIELDS.length / 2 && eventUnread.length > 0) {
    failures.push(
      `Most optional event fields are empty in every sampled event (${emptyOptional.join(", ")}), while the records carry fields nothing reads: ${eventUnread.join(", ")}. Map them with EVENT_API_FIELD_MAP.`,
    );
  }
  return {
    listed,
    usable,
    problems,
    unread: [...unread].sort(),
    sample,
    emptyOptional,
    failures,
  };
}

function isEmpty(value: unknown): boolean {
  return value === null || value === "" || (Array.isArray(value) && value.length === 0);
}
