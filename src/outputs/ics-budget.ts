/**
 * Keeps a calendar subscription under a size budget (ICS_MAX_BYTES, default
 * 1 MB): Google Calendar silently drops events from subscribed calendars
 * larger than about that (docs/feeds.md, "Size budget"). What matters least
 * goes first:
 *
 * 1. the far future: events starting more than MIN_HORIZON_DAYS ahead, the
 *    farthest first (whole start times at once, so "left out from" is a date);
 * 2. long descriptions, the longest first, shortened to the summary and links
 *    (the event page has the rest);
 * 3. then the nearer future, past events (oldest first) and events under way;
 * 4. cancellations last, and only when they alone are over the budget: first
 *    their long descriptions, then the cancellations farthest from now (of
 *    events far ahead or long over, whole start or end times at once), so
 *    subscribers keep receiving those nearest to now, the ones that matter;
 * 5. never the last event: an iCalendar object holds at least one component
 *    (RFC 5545 section 3.6), so a budget smaller than the calendar's header
 *    and one event is exceeded, and the cut says so.
 *
 * Works on byte counts only: each event's VEVENT is computed once per build
 * and measured; a shortened variant is computed only for the events that are
 * shortened. Pure.
 */

/** The horizon is cut no nearer than this before descriptions are shortened. */
export const MIN_HORIZON_DAYS = 90;

/** Descriptions shorter than this are not worth shortening (UTF-8 bytes). */
export const MIN_SHORTENED_DESCRIPTION_BYTES = 200;

const DAY_MS = 86_400_000;

export interface BudgetItem {
  readonly startMs: number;
  readonly endMs: number;
  /** Bytes of its VEVENT as published in full. */
  readonly bytes: number;
  /** Bytes of its plain-text description: the saving shortening can bring at most. */
  readonly descriptionBytes: number;
  readonly cancelled: boolean;
}

export interface BudgetInput {
  /** In the file's order (by start). */
  readonly items: readonly BudgetItem[];
  /** Everything but the VEVENTs: calendar properties, time zones, the end line. */
  readonly fixedBytes: number;
  readonly maxBytes: number;
  readonly nowMs: number;
  /** Bytes of item `index` with a short description; called only for items being shortened. */
  readonly shortBytes: (index: number) => number;
}

export interface BudgetCut {
  /** Per item: left out of the file. */
  readonly dropped: readonly boolean[];
  /** Per item: published with a short description. */
  readonly shortened: readonly boolean[];
  /** Size without any cut. */
  readonly fullBytes: number;
  /** Size after the cut (an upper bound: time zones no event uses any more are counted). */
  readonly bytes: number;
  /** Start of the first future event left out (epoch ms): later ones are left out too. */
  readonly horizonMs: number | null;
  readonly droppedFuture: number;
  readonly droppedPast: number;
  readonly droppedCurrent: number;
  /** Descriptions shortened, of cancellations too. */
  readonly shortenedCount: number;
  /** Cancellations of events starting at or after `cancelledHorizonMs`, left out. */
  readonly droppedCancelledFuture: number;
  readonly cancelledHorizonMs: number | null;
  /** Cancellations of events that ended at or before `cancelledPastUntilMs`, left out. */
  readonly droppedCancelledPast: number;
  readonly cancelledPastUntilMs: number | null;
  /** Cancellations of events under way, left out. */
  readonly droppedCancelledCurrent: number;
  /** Over the budget even with a single event left: the budget is smaller than the header and one event. */
  readonly overBudget: boolean;
  /**
   * The first instant after `nowMs` at which the same items could be cut
   * otherwise by the clock alone, besides an item's end (after which it is
   * past: the build's next date change has every event's end, from the
   * same rule): a left-out event coming within MIN_HORIZON_DAYS, or
   * starting; two left-out cancellations changing which is farther from
   * now. Null: none.
   */
  readonly changesAtMs: number | null;
}

/** Null when the file fits as it is. */
export function fitToBudget(input: BudgetInput): BudgetCut | null {
  const { items, maxBytes, nowMs } = input;
  const size = items.map((item) => item.bytes);
  const fullBytes = input.fixedBytes + size.reduce((sum, bytes) => sum + bytes, 0);
  if (fullBytes <= maxBytes) return null;

  let total = fullBytes;
  let remaining = items.length;
  const dropped = items.map(() => false);
  const shortened = items.map(() => false);
  const fits = () => total <= maxBytes;
  const startOf = (index: number) => items[index]?.startMs ?? 0;
  const endOf = (index: number) => items[index]?.endMs ?? 0;
  /** Leaves out one item, unless it is the last (RFC 5545 3.6). */
  const drop = (index: number): boolean => {
    if (remaining <= 1) return false;
    dropped[index] = true;
    shortened[index] = false;
    total -= size[index] ?? 0;
    remaining -= 1;
    return true;
  };
  /**
   * Leaves out a run of items with one start (or end) time, all at once, so
   * the file ends at a date; the last run left only as far as needed, down to
   * one event. Returns how many were left out.
   */
  const dropRun = (run: readonly number[]): number => {
    if (run.length < remaining) {
      for (const index of run) drop(index);
      return run.length;
    }
    let count = 0;
    for (const index of run) {
      if (fits() || !drop(index)) break;
      count += 1;
    }
    return count;
  };
  /** The items still in the file that are (not) cancellations and pass `keep`, in file order. */
  const open = (cancelled: boolean, keep: (item: BudgetItem) => boolean) => {
    const indexes: number[] = [];
    items.forEach((item, index) => {
      if (item.cancelled === cancelled && !dropped[index] && keep(item)) indexes.push(index);
    });
    return indexes;
  };
  const isFuture = (fromMs: number) => (item: BudgetItem) => item.startMs > fromMs;
  const isPast = (item: BudgetItem) => item.endMs < nowMs;

  // 2 and 4: long descriptions, longest first.
  const shorten = (cancelled: boolean) => {
    const long = open(
      cancelled,
      (item) => item.descriptionBytes >= MIN_SHORTENED_DESCRIPTION_BYTES,
    );
    long.sort(
      (a, b) => (items[b]?.descriptionBytes ?? 0) - (items[a]?.descriptionBytes ?? 0) || a - b,
    );
    for (const index of long) {
      if (fits()) return;
      const short = input.shortBytes(index);
      if (short >= (size[index] ?? 0)) continue;
      total -= (size[index] ?? 0) - short;
      size[index] = short;
      shortened[index] = true;
    }
  };

  // 1 and 3: events that are not cancellations, the future farthest start first.
  let horizonMs: number | null = null;
  let droppedFuture = 0;
  const cutFuture = (fromMs: number) => {
    const future = open(false, isFuture(fromMs)).sort((a, b) => startOf(b) - startOf(a) || b - a);
    for (const run of runs(future, startOf)) {
      const count = fits() ? 0 : dropRun(run);
      if (count === 0) return;
      droppedFuture += count;
      horizonMs = startOf(run[0] ?? 0);
    }
  };
  /** One at a time, in the given order; returns how many were left out. */
  const cutEach = (indices: readonly number[]) => {
    let count = 0;
    for (const index of indices) {
      if (fits() || !drop(index)) break;
      count += 1;
    }
    return count;
  };

  cutFuture(nowMs + MIN_HORIZON_DAYS * DAY_MS);
  const beyondHorizon = horizonMs;
  const droppedBeyond = droppedFuture;
  if (!fits()) shorten(false);
  if (!fits()) cutFuture(nowMs);
  // The clock moves what the cut starts from: the nearest event left out for being
  // far ahead stops being far ahead when it comes within the days kept; one left out
  // of the nearer future, when it starts (then no later one was left out for being far).
  const moments: number[] = [];
  if (droppedFuture > droppedBeyond && horizonMs !== null) moments.push(horizonMs);
  else if (beyondHorizon !== null) moments.push(beyondHorizon - MIN_HORIZON_DAYS * DAY_MS);
  const pastOldestFirst = (cancelled: boolean) =>
    open(cancelled, isPast).sort((a, b) => endOf(a) - endOf(b) || a - b);
  const droppedPast = fits() ? 0 : cutEach(pastOldestFirst(false));
  const droppedCurrent = fits() ? 0 : cutEach(open(false, () => true));

  // 4: cancellations, farthest from now first: the future by start, the past by end.
  if (!fits()) shorten(true);
  let cancelledHorizonMs: number | null = null;
  let cancelledPastUntilMs: number | null = null;
  let droppedCancelledFuture = 0;
  let droppedCancelledPast = 0;
  if (!fits()) {
    const future = open(true, isFuture(nowMs)).sort((a, b) => startOf(b) - startOf(a) || b - a);
    const farthestFirst = [
      ...runs(future, startOf).map((run) => ({
        run,
        ahead: true,
        distance: startOf(run[0] ?? 0) - nowMs,
      })),
      ...runs(pastOldestFirst(true), endOf).map((run) => ({
        run,
        ahead: false,
        distance: nowMs - endOf(run[0] ?? 0),
      })),
    ];
    // Stable: at equal distance the future goes first, as in the steps above.
    farthestFirst.sort((a, b) => b.distance - a.distance);
    const flip = nextOrderChange(
      farthestFirst.flatMap(({ run, ahead }) => (ahead ? [startOf(run[0] ?? 0)] : [])),
      farthestFirst.flatMap(({ run, ahead }) => (ahead ? [] : [endOf(run[0] ?? 0)])),
      nowMs,
    );
    if (flip !== null) moments.push(flip);
    for (const { run, ahead } of farthestFirst) {
      const count = fits() ? 0 : dropRun(run);
      if (count === 0) break;
      if (ahead) {
        droppedCancelledFuture += count;
        cancelledHorizonMs = startOf(run[0] ?? 0);
      } else {
        droppedCancelledPast += count;
        cancelledPastUntilMs = endOf(run[0] ?? 0);
      }
    }
  }
  const droppedCancelledCurrent = fits() ? 0 : cutEach(open(true, () => true));
  if (cancelledHorizonMs !== null) moments.push(cancelledHorizonMs);

  return {
    dropped,
    shortened,
    fullBytes,
    bytes: total,
    horizonMs,
    droppedFuture,
    droppedPast,
    droppedCurrent,
    shortenedCount: shortened.filter(Boolean).length,
    droppedCancelledFuture,
    cancelledHorizonMs,
    droppedCancelledPast,
    cancelledPastUntilMs,
    droppedCancelledCurrent,
    overBudget: !fits(),
    changesAtMs: moments.length > 0 ? Math.min(...moments) : null,
  };
}

/** The earlier of two moments (epoch ms; null: none), as plans' `changesAtMs` are joined. */
export function earlierMoment(a: number | null, b: number | null): number | null {
  return a === null ? b : b === null ? a : Math.min(a, b);
}

/**
 * When a future start (`starts`) and a past end (`ends`) next change which
 * is farther from the clock: the first midpoint of one of each after
 * `nowMs`, while the future one is the farther (null: no such pair).
 */
function nextOrderChange(
  starts: readonly number[],
  ends: readonly number[],
  nowMs: number,
): number | null {
  const ascending = [...ends].sort((a, b) => a - b);
  let next: number | null = null;
  for (const start of starts) {
    // The earliest end with (start + end) / 2 > now: the pair whose distances meet first.
    const after = 2 * nowMs - start;
    let low = 0;
    let high = ascending.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if ((ascending[middle] ?? 0) > after) high = middle;
      else low = middle + 1;
    }
    const end = ascending[low];
    if (end === undefined) continue;
    const at = Math.ceil((start + end) / 2);
    if (at > nowMs && (next === null || at < next)) next = at;
  }
  return next;
}

/** Consecutive indices with the same key, as groups. */
function runs(indices: readonly number[], key: (index: number) => number): number[][] {
  const groups: number[][] = [];
  for (const index of indices) {
    const last = groups.at(-1);
    if (last && key(last[0] ?? 0) === key(index)) last.push(index);
    else groups.push([index]);
  }
  return groups;
}
