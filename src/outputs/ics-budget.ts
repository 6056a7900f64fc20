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
 * 4. never a cancellation: it is what a subscriber most needs to receive.
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
  readonly shortenedCount: number;
  /** Even with everything but the cancellations left out, the file is over the budget. */
  readonly overBudget: boolean;
}

/** Null when the file fits as it is. */
export function fitToBudget(input: BudgetInput): BudgetCut | null {
  const { items, maxBytes, nowMs } = input;
  const size = items.map((item) => item.bytes);
  const fullBytes = input.fixedBytes + size.reduce((sum, bytes) => sum + bytes, 0);
  if (fullBytes <= maxBytes) return null;

  let total = fullBytes;
  const dropped = items.map(() => false);
  const shortened = items.map(() => false);
  let horizonMs: number | null = null;
  let droppedFuture = 0;
  let droppedPast = 0;
  let droppedCurrent = 0;
  const fits = () => total <= maxBytes;
  const drop = (index: number) => {
    dropped[index] = true;
    shortened[index] = false;
    total -= size[index] ?? 0;
  };
  const candidates = (keep: (item: BudgetItem) => boolean) =>
    items.flatMap((item, index) =>
      !item.cancelled && !dropped[index] && keep(item) ? [index] : [],
    );

  // 1 and 3: the future, farthest start first, all events of one start at once.
  const cutFuture = (fromMs: number) => {
    const future = candidates((item) => item.startMs > fromMs).sort(
      (a, b) => (items[b]?.startMs ?? 0) - (items[a]?.startMs ?? 0) || b - a,
    );
    for (let i = 0; i < future.length && !fits(); ) {
      const start = items[future[i] ?? 0]?.startMs ?? 0;
      for (; i < future.length && items[future[i] ?? 0]?.startMs === start; i++) {
        drop(future[i] ?? 0);
        droppedFuture += 1;
      }
      horizonMs = start;
    }
  };
  cutFuture(nowMs + MIN_HORIZON_DAYS * DAY_MS);

  // 2: long descriptions, longest first.
  if (!fits()) {
    const long = candidates(
      (item) => item.descriptionBytes >= MIN_SHORTENED_DESCRIPTION_BYTES,
    ).sort(
      (a, b) => (items[b]?.descriptionBytes ?? 0) - (items[a]?.descriptionBytes ?? 0) || a - b,
    );
    for (const index of long) {
      if (fits()) break;
      const short = input.shortBytes(index);
      if (short >= (size[index] ?? 0)) continue;
      total -= (size[index] ?? 0) - short;
      size[index] = short;
      shortened[index] = true;
    }
  }

  // 3: the nearer future, then the past (oldest end first), then events under way.
  if (!fits()) cutFuture(nowMs);
  if (!fits()) {
    const past = candidates((item) => item.endMs < nowMs).sort(
      (a, b) => (items[a]?.endMs ?? 0) - (items[b]?.endMs ?? 0) || a - b,
    );
    for (const index of past) {
      if (fits()) break;
      drop(index);
      droppedPast += 1;
    }
  }
  if (!fits()) {
    for (const index of candidates(() => true)) {
      if (fits()) break;
      drop(index);
      droppedCurrent += 1;
    }
  }

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
    overBudget: !fits(),
  };
}
