import { type PortalOptions, type RunningPortal, startPortal } from "../../src/portal/index.ts";
import { NOW } from "./clock.ts";

/**
 * The reference portal on a free loopback port at the tests' clock, serving
 * the generated dataset of `calendars` calendars of `eventsPerCalendar`
 * events each (the same events for the same `seed`), with `options` beside.
 */
export function startSyntheticPortal(
  calendars: number,
  eventsPerCalendar: number,
  options: PortalOptions = {},
): Promise<RunningPortal> {
  return startPortal({
    port: 0,
    now: NOW,
    synthetic: { calendars, eventsPerCalendar },
    ...options,
  });
}
