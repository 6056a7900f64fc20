import {
  createDemoDataset,
  type DatasetEvent,
  type PortalDataset,
} from "../../src/portal/index.ts";
import { NOW } from "./clock.ts";

/*
 * Part of the demo dataset (at NOW), for a portal whose tests need only some
 * of its events: a build of fewer events takes a fraction of the time, and
 * what those tests check does not depend on how many there are. The
 * organizations, calendars, places and images stay as they are.
 */

/** The demo with only the events `keep` keeps; `index` is the event's place in its calendar. */
export function demoPart(keep: (event: DatasetEvent, index: number) => boolean): PortalDataset {
  const demo = createDemoDataset(NOW);
  const counts = new Map<string, number>();
  const events = demo.events.filter((event) => {
    const index = counts.get(event.calendarId) ?? 0;
    counts.set(event.calendarId, index + 1);
    return keep(event, index);
  });
  return { ...demo, events };
}

/** The first `count` events of each calendar. */
export const firstOfEachCalendar =
  (count: number) =>
  (_event: DatasetEvent, index: number): boolean =>
    index < count;

/** The events that start from the day `from` up to, not including, the day `to` (YYYY-MM-DD). */
export const startingBetween =
  (from: string, to: string) =>
  (event: DatasetEvent): boolean =>
    event.start.slice(0, 10) >= from && event.start.slice(0, 10) < to;
