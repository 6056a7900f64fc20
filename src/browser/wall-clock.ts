import { dayKey } from "./day-key.ts";
import { formatter } from "./formatter.ts";

const CLOCK: Intl.DateTimeFormatOptions = { hour: "2-digit", minute: "2-digit", hourCycle: "h23" };

/** "2026-04-04 20:00": what a clock in `timeZone` reads at that instant. */
export function wallClock(date: Date, timeZone: string): string {
  return `${dayKey(date, timeZone)} ${formatter("en-CA", timeZone, CLOCK).format(date)}`;
}

/**
 * Whether any of the instants reads differently on the visitor's clock than
 * in `zone` (Amsterdam and Berlin read the same: nothing to add). Throws
 * for a zone the browser does not know.
 */
export function readsDifferently(dates: readonly Date[], zone: string, visitor: string): boolean {
  if (zone === visitor) return false;
  return dates.some((date) => wallClock(date, zone) !== wallClock(date, visitor));
}
