import type { Pair } from "../api/list-versions.ts";

/**
 * What changed between the published event lists and the portal's, in the
 * words of the check's last line. Only calendars whose lists changed are
 * passed in; an id that left one calendar and appeared in another counts as
 * moved, once.
 */

export interface CalendarChanges {
  readonly added: readonly string[];
  readonly removed: readonly string[];
  /** Name, description, zone or colour changed. */
  readonly changed: readonly string[];
}

export interface EventChanges {
  readonly updated: number;
  readonly added: number;
  readonly removed: number;
  readonly moved: number;
  /** Calendars with at least one event change. */
  readonly calendars: number;
}

/** calendar id -> its events (id -> version); absent calendar: it has no list on that side. */
export type ListsByCalendar = ReadonlyMap<string, ReadonlyMap<string, string>>;

export function toVersionMap(pairs: readonly Pair[]): Map<string, string> {
  return new Map(pairs.map(([id, version]) => [id, version]));
}

export function diffEvents(before: ListsByCalendar, after: ListsByCalendar): EventChanges {
  let updated = 0;
  const touched = new Set<string>();
  const added: [string, string][] = [];
  const removed: [string, string][] = [];
  for (const calendar of new Set([...before.keys(), ...after.keys()])) {
    const old = before.get(calendar) ?? new Map<string, string>();
    const now = after.get(calendar) ?? new Map<string, string>();
    for (const [id, version] of now) {
      const was = old.get(id);
      if (was === undefined) added.push([calendar, id]);
      else if (was !== version) {
        updated++;
        touched.add(calendar);
      }
    }
    for (const id of old.keys()) if (!now.has(id)) removed.push([calendar, id]);
  }
  // A move shows as removed from one calendar and added to another under the same id.
  const leftBy = new Map<string, string[]>();
  for (const [calendar, id] of removed) leftBy.set(id, [...(leftBy.get(id) ?? []), calendar]);
  let moved = 0;
  const addedRest: [string, string][] = [];
  for (const [calendar, id] of added) {
    const from = leftBy.get(id);
    const source = from?.find((c) => c !== calendar);
    if (from && source !== undefined) {
      from.splice(from.indexOf(source), 1);
      moved++;
      touched.add(calendar).add(source);
    } else addedRest.push([calendar, id]);
  }
  for (const [calendar] of addedRest) touched.add(calendar);
  let removedRest = 0;
  for (const calendars of leftBy.values()) {
    for (const calendar of calendars) {
      removedRest++;
      touched.add(calendar);
    }
  }
  return {
    updated,
    added: addedRest.length,
    removed: removedRest,
    moved,
    calendars: touched.size,
  };
}

export function describeChanges(calendars: CalendarChanges, events: EventChanges): string[] {
  const parts: string[] = [];
  const calendarParts = (
    [
      [calendars.added.length, "added"],
      [calendars.removed.length, "removed"],
      [calendars.changed.length, "changed"],
    ] as const
  ).filter(([n]) => n > 0);
  if (calendarParts.length) {
    parts.push(
      calendarParts
        .map(([n, what], index) => (index === 0 ? count(n, "calendar", what) : `${n} ${what}`))
        .join(", "),
    );
  }
  const eventParts = (
    [
      [events.updated, "updated"],
      [events.added, "added"],
      [events.removed, "removed"],
      [events.moved, "moved to another calendar"],
    ] as const
  ).filter(([n]) => n > 0);
  if (eventParts.length) {
    const words = eventParts.map(([n, what], index) =>
      index === 0 ? count(n, "event", what) : `${n} ${what}`,
    );
    parts.push(`${words.join(", ")} in ${count(events.calendars, "calendar")}`);
  }
  return parts;
}

function count(n: number, noun: string, what?: string): string {
  if (n === 0) return "";
  return `${n} ${noun}${n === 1 ? "" : "s"}${what ? ` ${what}` : ""}`;
}
