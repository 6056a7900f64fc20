/**
 * Which places and series the subscribe page lists (docs/followers.md,
 * "Phones and calendar apps"). Every place and series has its own page with
 * its own subscribe panel; the subscribe page lists only the ones with the
 * most upcoming events, so its size does not grow with the site: at 5,000
 * places a panel each would weigh megabytes, and nobody scrolls through them.
 */

/** Places, and series, listed on /subscribe/ at most: about 1.5 KB of HTML each. */
export const SUBSCRIBE_PAGE_LISTED = 30;

export interface SubscribeListing<T> {
  /** The ones listed, in the order given (the site's order of the list). */
  readonly shown: readonly T[];
  /** How many have upcoming events at all. */
  readonly total: number;
}

/**
 * The `limit` items with the most upcoming events (those with none are not
 * worth subscribing to from here), kept in the order given; ties go to the
 * earlier item, so the same data gives the same page.
 */
export function mostUpcoming<T extends { readonly upcoming: readonly unknown[] }>(
  items: readonly T[],
  limit = SUBSCRIBE_PAGE_LISTED,
): SubscribeListing<T> {
  const ranked = items
    .map((item, index) => ({ item, index }))
    .filter(({ item }) => item.upcoming.length > 0);
  const shown = [...ranked]
    .sort((a, b) => b.item.upcoming.length - a.item.upcoming.length || a.index - b.index)
    .slice(0, Math.max(0, limit))
    .sort((a, b) => a.index - b.index)
    .map(({ item }) => item);
  return { shown, total: ranked.length };
}
