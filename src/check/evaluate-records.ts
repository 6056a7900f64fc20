import type { FieldMap } from "../model/field-map.ts";
import { pickEventField } from "../model/field-map.ts";
import { normalizeCalendar } from "../model/normalize-calendar.ts";
import { normalizeEvent } from "../model/normalize-event.ts";
import type { WireRecord } from "../model/wire.ts";

/** Every listed event of the selected calendars with its details, as a build reads them. */
export type Records = ReadonlyArray<{
  readonly record: WireRecord;
  readonly events: ReadonlyArray<{
    readonly listed: WireRecord;
    /** Null when not asked for (the event has no id to ask with) or gone (`gone`). */
    readonly details: WireRecord | null;
    /** Listed, but its details answer 404: the build skips it. */
    readonly gone?: boolean;
  }>;
}>;

export interface RecordsReport {
  readonly listed: number;
  /** Events the build publishes, whole or cut. */
  readonly publishable: number;
  /** One line per record the build skips or cuts: which, and what it does. */
  readonly lines: readonly string[];
}

/**
 * What a build will do with every record: each event read with its details
 * by the build's own normalizer, so that `npm run check-api` says of each
 * record what the build will (skip it, cut it, or publish it as it is), and
 * counts as publishable only what the build publishes.
 */
export function evaluateRecords(
  records: Records,
  options: { readonly fieldMap: FieldMap; readonly defaultTimeZone: string },
): RecordsReport {
  const lines: string[] = [];
  let listed = 0;
  let publishable = 0;
  records.forEach(({ record, events }, index) => {
    listed += events.length;
    const calendar = normalizeCalendar(record, options);
    if (!calendar.ok) {
      lines.push(
        `calendar #${index + 1} in the list: skipped with its ${events.length} events (${calendar.reason})`,
      );
      return;
    }
    const { id } = calendar.value;
    for (const note of calendar.notes) lines.push(`calendar "${id}": ${note}`);
    events.forEach(({ listed: event, details, gone }, position) => {
      const name = `${eventName(event, position, options.fieldMap)} in calendar "${id}"`;
      if (gone) {
        lines.push(`${name}: skipped (listed, but its details answer 404)`);
        return;
      }
      const result = normalizeEvent(event, details, calendar.value, options);
      if (!result.ok) {
        lines.push(`${name}: skipped (${result.reason})`);
        return;
      }
      publishable++;
      for (const note of result.notes) lines.push(`${name}: ${note}`);
    });
  });
  return { listed, publishable, lines };
}

/**
 * How a line names an event: by the id its record holds, read through the
 * field map as the build reads it (a portal's `ref` or `data.uuid`), even
 * one the build cannot use; else by its place in the calendar's list. JSON
 * quoting shows what a terminal would hide (a lone surrogate as \ud800, a
 * control character escaped).
 */
export function eventName(event: WireRecord, position: number, map: FieldMap): string {
  const id = pickEventField([event], "id", map);
  if (typeof id === "number" || (typeof id === "string" && id.trim() !== ""))
    return `event ${JSON.stringify(String(id).slice(0, 128))}`;
  return `event ${position + 1} in the list (no id)`;
}
