import {
  createDemoDataset,
  type DatasetEvent,
  type PortalDataset,
  startPortal,
} from "../../src/portal/index.ts";
import { NOW } from "./clock.ts";
import { useForTests } from "./use-for-tests.ts";

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

/**
 * A reference portal serving part of the demo to the tests of one describe
 * block (call it in the block, before the hooks that build from it): the
 * settings that point a build at it, from before the tests to after them.
 */
export function useDemoPartPortal(
  keep: (event: DatasetEvent, index: number) => boolean,
): () => { EVENT_API_URL: string; EVENT_API_TOKEN: string } {
  const portal = useForTests(
    "the portal",
    () => startPortal({ host: "127.0.0.1", port: 0, now: NOW, dataset: demoPart(keep) }),
    (running) => running.close(),
  );
  return () => ({ EVENT_API_URL: portal().url, EVENT_API_TOKEN: portal().token });
}
