import type { CalendarEvent } from "./types.ts";

/**
 * The sources that publish an event, in a site of several (docs/sources.md):
 * its own, then those of the copies other sources publish of it, merged into
 * it; none in a site of one portal, whose events name no source.
 */
export function sourceIdsOf(event: Pick<CalendarEvent, "source" | "merged">): string[] {
  if (event.source === undefined) return [];
  return [...new Set([event.source, ...(event.merged ?? []).map((copy) => copy.source)])];
}
