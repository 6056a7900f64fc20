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

/**
 * Whether a dataset's event has share cards of its own at NOW
 * (docs/share-cards.md): it has not ended, and it starts before the end of
 * the day `days` days after NOW's in the site's zone (SHARE_CARDS_DAYS,
 * 60 unless a build sets it; the sites of the tests are in Europe/Amsterdam).
 */
export function hasCardAtNow(
  event: { readonly start: string; readonly end?: string | null },
  days = 60,
): boolean {
  const until = NOW_DATETIME.setZone("Europe/Amsterdam")
    .startOf("day")
    .plus({ days: days + 1 });
  const starts = event.start.includes("T")
    ? Date.parse(event.start) < until.toMillis()
    : event.start < (until.toISODate() as string);
  return starts && !endedAtNow(event);
}
