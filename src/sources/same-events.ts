import type { SourceConfig } from "../config/sources.ts";
import type { CalendarEvent, MergedCopy } from "../model/types.ts";
import { normalizeKeyText } from "../places/key-text.ts";
import { placeIdentity } from "../places/place-key.ts";

/**
 * Each event once (docs/sources.md, "Each event once"): an event that two
 * organizations publish is one event of the site, with one page and one UID,
 * listed in the calendars of both.
 *
 * Two copies are the same event when one links the other explicitly (the
 * field map's `sameAs`: "<source id>:<event id>"), or else when their titles
 * read the same (case, spaces, punctuation and accents do not count), they
 * start at the same instant and they are at the same place by name and
 * address. Place ids are left out of that comparison: each portal numbers
 * its places its own way. Copies of one source are never merged with each
 * other: a portal's own duplicates are its editors' to settle.
 *
 * The copy kept is that of the source listed first in the sources file, so
 * that a source added at the end never changes the page, the feed entries
 * or the UID of an event the site already published; the others ride along
 * as `merged` (detect-changes keeps the UID any of them was published under).
 */

export interface JoinedEvents {
  readonly events: CalendarEvent[];
  /** One line per merge, for the report and build-warnings.json. */
  readonly warnings: string[];
}

export function sameEvents(
  events: readonly CalendarEvent[],
  sources: readonly Pick<SourceConfig, "id" | "name">[],
  warn: (message: string) => void,
): JoinedEvents {
  const rank = new Map(sources.map((source, index) => [source.id, index]));
  const position = new Map(events.map((event, index) => [event, index]));
  const bySourceId = new Map<string, CalendarEvent>();
  for (const event of events) {
    const key = `${event.source}\u0000${event.id}`;
    if (!bySourceId.has(key)) bySourceId.set(key, event);
  }
  // Union-find over the events: each group becomes one event.
  const parent = new Map<CalendarEvent, CalendarEvent>();
  const root = (event: CalendarEvent): CalendarEvent => {
    let top = event;
    for (let up = parent.get(top); up && up !== top; up = parent.get(top)) top = up;
    parent.set(event, top);
    return top;
  };
  const groupSources = new Map<CalendarEvent, Set<string>>();
  const sourcesOf = (event: CalendarEvent) =>
    groupSources.get(event) ?? new Set([event.source ?? ""]);
  const join = (a: CalendarEvent, b: CalendarEvent): boolean => {
    const ra = root(a);
    const rb = root(b);
    if (ra === rb) return true;
    const inA = sourcesOf(ra);
    const inB = sourcesOf(rb);
    // One copy per source: a portal's own duplicates stay its own.
    for (const source of inB) if (inA.has(source)) return false;
    const [keep, into] = before(ra, rb) <= 0 ? [ra, rb] : [rb, ra];
    parent.set(into, keep);
    groupSources.set(keep, new Set([...inA, ...inB]));
    return true;
  };
  const before = (a: CalendarEvent, b: CalendarEvent) =>
    (rank.get(a.source ?? "") ?? 0) - (rank.get(b.source ?? "") ?? 0) ||
    (position.get(a) ?? 0) - (position.get(b) ?? 0);

  for (const event of events) {
    const link = event.sameAs;
    if (!link) continue;
    const colon = link.indexOf(":");
    const target =
      colon > 0
        ? bySourceId.get(`${link.slice(0, colon)}\u0000${link.slice(colon + 1)}`)
        : undefined;
    if (!target || target.source === event.source) {
      warn(
        `source ${event.source}, calendar "${event.calendarId}", event "${event.id}": sameAs "${link}" names no event of another source`,
      );
      continue;
    }
    join(event, target);
  }
  const byLook = new Map<string, CalendarEvent>();
  for (const event of events) {
    const place = placeIdentity(event.location && { ...event.location, id: null });
    const title = normalizeKeyText(event.title);
    if (!place || !title) continue;
    const key = `${title}\u0000${Date.parse(event.start)}\u0000${place}`;
    const first = byLook.get(key);
    if (first) join(first, event);
    else byLook.set(key, event);
  }

  const copies = new Map<CalendarEvent, CalendarEvent[]>();
  for (const event of events) {
    const top = root(event);
    if (top === event) continue;
    const list = copies.get(top);
    if (list) list.push(event);
    else copies.set(top, [event]);
  }
  const names = new Map(sources.map((source) => [source.id, source.name]));
  const warnings: string[] = [];
  const joined: CalendarEvent[] = [];
  for (const event of events) {
    const top = root(event);
    if (top !== event) continue;
    const others = copies.get(event);
    if (!others) {
      joined.push(event);
      continue;
    }
    others.sort((a, b) => before(a, b));
    const merged: MergedCopy[] = others.map((copy) => ({
      source: copy.source ?? "",
      calendarId: copy.calendarId,
      id: copy.id,
      organizer: copy.organizer ?? {
        name: names.get(copy.source ?? "") ?? "",
        email: null,
        url: null,
      },
    }));
    for (const copy of others) {
      warnings.push(
        `merged: event "${copy.id}" of calendar "${copy.calendarId}" (source ${copy.source}) is event "${event.id}" of calendar "${event.calendarId}" (source ${event.source}), "${event.title}": published once, in both calendars`,
      );
    }
    joined.push({ ...event, merged });
  }
  return { events: joined, warnings };
}
