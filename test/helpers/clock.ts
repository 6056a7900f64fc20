import { DateTime } from "luxon";

/**
 * The one "now" of the tests: builds (SITE_NOW), the reference portal, the
 * fixture snapshot and the browsers all run at this instant, a Friday noon
 * with the Europe/Amsterdam clock change (29 March) ahead.
 */
export const NOW = "2026-03-20T12:00:00Z";

/** NOW in epoch milliseconds. */
export const NOW_MS = Date.parse(NOW);

/** NOW as a Luxon DateTime in UTC, as the site settings hold it. */
export const NOW_DATETIME = DateTime.fromISO(NOW, { zone: "utc" });

/** The instant `hours` after NOW, written as NOW is ("2026-03-20T13:00:00Z"): a later build. */
export function hoursAfterNow(hours: number): string {
  return new Date(NOW_MS + hours * 3_600_000).toISOString().replace(".000Z", "Z");
}

/**
 * Whether a dataset's event has ended at NOW: by its end's instant, or, for
 * an all-day event's end (a day, at whose start in the event's zone it ends,
 * hours before NOW's midday in the zones the datasets use), by that day.
 */
export function endedAtNow(event: {
  readonly start: string;
  readonly end?: string | null;
}): boolean {
  const end = event.end ?? event.start;
  return end.includes("T") ? Date.parse(end) <= NOW_MS : end <= NOW.slice(0, 10);
}
