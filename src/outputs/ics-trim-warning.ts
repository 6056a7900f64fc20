import type { IcsTrim } from "./ics.ts";

/**
 * The build report's line for a subscription cut to its size budget
 * (ICS_MAX_BYTES, ics-budget.ts): what was left out, from which dates, how
 * large the file is now, and whether the events left out still reach
 * subscribers through another file: `unreached` of them are in no
 * subscription at all (FeedScopes.unreached), since every file that holds
 * them is over its budget too.
 */
export function trimWarning(path: string, trim: IcsTrim, unreached = 0): string {
  const parts: string[] = [];
  if (trim.droppedFuture > 0) {
    const from = trim.horizon ? ` starting from ${day(trim.horizon)}` : "";
    parts.push(`left out ${counted(trim.droppedFuture, "event")}${from}`);
  }
  if (trim.shortened > 0) parts.push(`shortened ${counted(trim.shortened, "description")}`);
  if (trim.droppedPast > 0) parts.push(`left out ${counted(trim.droppedPast, "past event")}`);
  if (trim.droppedCurrent > 0) {
    parts.push(`left out ${counted(trim.droppedCurrent, "event")} under way`);
  }
  // Cancellations go last and only when they alone are over the budget (ics-budget.ts):
  // the warning names the dates beyond which subscribers no longer receive them.
  if (trim.droppedCancelledFuture > 0) {
    const from = trim.cancelledHorizon ? ` starting from ${day(trim.cancelledHorizon)}` : "";
    parts.push(`left out ${counted(trim.droppedCancelledFuture, "cancellation")} of events${from}`);
  }
  if (trim.droppedCancelledPast > 0) {
    const until = trim.cancelledPastUntil ? ` that ended by ${day(trim.cancelledPastUntil)}` : "";
    parts.push(`left out ${counted(trim.droppedCancelledPast, "cancellation")} of events${until}`);
  }
  if (trim.droppedCancelledCurrent > 0) {
    parts.push(
      `left out ${counted(trim.droppedCancelledCurrent, "cancellation")} of events under way`,
    );
  }
  const over = `over ICS_MAX_BYTES (${bytes(trim.maxBytes)})`;
  // RFC 5545 3.6: a calendar keeps at least one event, whatever the budget.
  const single = "ICS_MAX_BYTES is smaller than the calendar's header and one event";
  if (parts.length === 0) {
    return `${path} is ${bytes(trim.fullBytes)} with a single event, ${over}: ${single}.`;
  }
  const result = trim.overBudget
    ? `still ${bytes(trim.bytes)} with a single event: ${single}`
    : `now at most ${bytes(trim.bytes)}`;
  return `${path} would be ${bytes(trim.fullBytes)}, ${over}: ${parts.join(", ")}; ${result}. ${elsewhere(trim, unreached)}`;
}

/** Where the events left out are still published, if anywhere. */
function elsewhere(trim: IcsTrim, unreached: number): string {
  const rest = "Subscribers of the calendar and category files get the rest";
  if (unreached === 0) return `${rest}.`;
  const reason = "every file that would hold them is over ICS_MAX_BYTES too";
  const left =
    trim.droppedFuture +
    trim.droppedPast +
    trim.droppedCurrent +
    trim.droppedCancelledFuture +
    trim.droppedCancelledPast +
    trim.droppedCancelledCurrent;
  if (unreached >= left)
    return `None of the events left out is in another subscription: ${reason}.`;
  return `${rest}, but ${counted(unreached, "event")} of them ${unreached === 1 ? "is" : "are"} in no subscription at all: ${reason}.`;
}

/** "1 event", "1,608 events". */
const counted = (count: number, noun: string): string =>
  `${count.toLocaleString("en-US")} ${noun}${count === 1 ? "" : "s"}`;

/** The UTC date of an ISO instant: "2026-08-15". */
const day = (iso: string): string => iso.slice(0, 10);

/** Exact, in the unit of the setting: "1,180,345 bytes". */
function bytes(count: number): string {
  return `${count.toLocaleString("en-US")} bytes`;
}
