import { cutText } from "./cut-text.ts";
import { type NormalizeOptions, normalizeCalendar } from "./normalize-calendar.ts";
import { normalizeEvent } from "./normalize-event.ts";
import { compareCodeUnits, sortedByStart } from "./order.ts";
import type { Calendar, CalendarEvent, PortalSnapshot } from "./types.ts";
import { wellFormedText } from "./well-formed-text.ts";
import type { WireCalendar } from "./wire.ts";

export interface SnapshotInput {
  /** API base URL without credentials or query string. */
  readonly source: string;
  readonly fetchedAt: string;
  readonly calendars: readonly WireCalendar[];
  /** Warnings raised while fetching (for example a listed event whose details are gone). */
  readonly warnings?: readonly string[];
}

export interface SnapshotNormalizeOptions extends NormalizeOptions {
  /** Called with each warning as it is found, so progress output can show it at once. */
  readonly onWarning?: (warning: string) => void;
  /** Replaces normalizeEvent, e.g. with one that remembers earlier builds' results. */
  readonly normalizeEvent?: typeof normalizeEvent;
}

/**
 * Wire records to one frozen PortalSnapshot. A bad record is skipped with a
 * warning naming its calendar, event id and reason; one bad event never fails
 * the build. Duplicates (same calendar and event id, as happens when a list
 * changes while being paged) keep the newest record.
 */
export function normalizeSnapshot(
  input: SnapshotInput,
  options: SnapshotNormalizeOptions,
): PortalSnapshot {
  const warnings = [...(input.warnings ?? [])];
  const warn = (message: string): void => {
    warnings.push(message);
    options.onWarning?.(message);
  };

  const calendars = new Map<string, Calendar>();
  const events = new Map<string, CalendarEvent>();
  const normalize = options.normalizeEvent ?? normalizeEvent;
  input.calendars.forEach((wire, index) => {
    const calendar = normalizeCalendar(wire.record, options);
    if (!calendar.ok) {
      warn(`calendar #${index + 1} in the list: skipped (${calendar.reason})`);
      return;
    }
    const { id } = calendar.value;
    for (const note of calendar.notes) warn(`calendar "${id}": ${note}`);
    if (calendars.has(id)) warn(`calendar "${id}": listed twice, the first record is used`);
    else calendars.set(id, calendar.value);

    wire.events.forEach((event, position) => {
      const result = normalize(event.listed, event.details, calendar.value, options);
      if (!result.ok) {
        const name = nameOf(event.listed, position);
        warn(`calendar "${id}", event ${name}: skipped (${result.reason})`);
        return;
      }
      const value = result.value;
      for (const note of result.notes) warn(`calendar "${id}", event "${value.id}": ${note}`);
      const key = `${id}\u0000${value.id}`;
      const previous = events.get(key);
      if (!previous || isNewer(value, previous)) events.set(key, value);
    });
  });

  return deepFreeze({
    source: input.source,
    fetchedAt: input.fetchedAt,
    calendars: [...calendars.values()].sort(byName),
    events: sortedByStart([...events.values()].filter((e) => calendars.get(e.calendarId))),
    warnings,
  });
}

function nameOf(record: Readonly<Record<string, unknown>>, position: number): string {
  const id = record.id ?? record.eventId ?? record.uid;
  return typeof id === "string" || typeof id === "number"
    ? `"${cutText(wellFormedText(String(id)), 128)}"`
    : `#${position + 1} in the list`;
}

function isNewer(candidate: CalendarEvent, current: CalendarEvent): boolean {
  if (candidate.sequence !== current.sequence) return candidate.sequence > current.sequence;
  return (candidate.updatedAt ?? "") > (current.updatedAt ?? "");
}

const collator = new Intl.Collator("en", { sensitivity: "base", numeric: true });

/** Calendars in the snapshot's order: by name, then id. */
export function byName(a: Calendar, b: Calendar): number {
  return collator.compare(a.name, b.name) || compareCodeUnits(a.id, b.id);
}

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}
