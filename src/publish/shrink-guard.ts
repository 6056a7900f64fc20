import {
  DEFAULT_MAX_DROP_SHARE,
  DEFAULT_MIN_DROP_EVENTS,
  type ShrinkGuardConfig,
} from "../config/publish.ts";
import { PublishError } from "../errors.ts";

/**
 * The shrink guard: before a build replaces the published site it compares
 * the new public manifest with the previous one. A portal outage, an expired
 * token answered with empty lists, or a wrong setting would otherwise publish
 * an emptied site, and every calendar subscriber would see their events
 * vanish. Intended removals pass when allowed for that one build.
 */

/** A calendar's or a source's events, as the manifest counts them. */
interface Counted {
  readonly id: string;
  readonly name?: string;
  readonly events: number;
}

/** The parts of /api/manifest.json (docs/public-json.md) the guard compares. */
export interface ManifestCounts {
  readonly calendars: readonly Counted[];
  /** A site of several sources (docs/sources.md): each organization's events. */
  readonly sources?: readonly Counted[];
  readonly totals: { readonly events: number };
}

export interface ShrinkCheckInput extends Partial<ShrinkGuardConfig> {
  /** The published manifest, or null for a first build. */
  readonly previous: ManifestCounts | null;
  readonly next: ManifestCounts;
}

export interface ShrinkCheck {
  readonly status: "first-build" | "ok" | "allowed";
  readonly previousEvents: number | null;
  readonly nextEvents: number;
  /** Findings worth a warning line in the build report (calendars gone or halved, an allowed shrink). */
  readonly warnings: readonly string[];
}

/**
 * Compares two manifests. Blocks (throws PublishError) when, unless allowed:
 * - the site had events and now has none;
 * - the total drops by more than maxDropShare and by at least minDropEvents;
 * - in a site of several sources, one source's events do (or all of them
 *   vanish): one organization's portal losing its events is caught even
 *   when the others grew enough to hide it in the total;
 * - a calendar that had at least minDropEvents events vanished or became empty
 *   (its subscribers would lose every event).
 * Smaller per-calendar drops and vanished small calendars are warnings.
 */
export function checkShrink(input: ShrinkCheckInput): ShrinkCheck {
  const maxDropShare = input.maxDropShare ?? DEFAULT_MAX_DROP_SHARE;
  const minDropEvents = input.minDropEvents ?? DEFAULT_MIN_DROP_EVENTS;
  const { previous, next } = input;
  const nextEvents = next.totals.events;
  if (previous === null)
    return { status: "first-build", previousEvents: null, nextEvents, warnings: [] };

  const previousEvents = previous.totals.events;
  const blockers: string[] = [];
  const warnings: string[] = [];

  const limits = { maxDropShare, minDropEvents };
  const total = drop("events", previousEvents, nextEvents, limits);
  if (previousEvents > 0 && nextEvents === 0) {
    blockers.push(`the site would have no events (it had ${previousEvents})`);
  } else if (total) blockers.push(total);
  // A source that left the file on purpose is not counted: it has no entry in the next manifest.
  const nextSources = new Map(next.sources?.map((source) => [source.id, source]));
  for (const before of next.sources ? (previous.sources ?? []) : []) {
    const after = nextSources.get(before.id);
    const label = `source ${JSON.stringify(before.name ?? before.id)}`;
    const finding = after && drop(`${label}'s events`, before.events, after.events, limits);
    if (finding) blockers.push(finding);
  }

  const nextById = new Map(next.calendars.map((calendar) => [calendar.id, calendar]));
  for (const before of previous.calendars) {
    const after = nextById.get(before.id);
    const label = `calendar ${JSON.stringify(before.name ?? before.id)}`;
    const afterEvents = after?.events ?? 0;
    const lost = before.events - afterEvents;
    if (lost <= 0) continue;
    const finding = after
      ? `${label} would drop from ${before.events} to ${afterEvents} events`
      : `${label} (${before.events} events) would disappear`;
    if (afterEvents === 0 && before.events >= minDropEvents) blockers.push(finding);
    else if (!after || lost / before.events > maxDropShare) warnings.push(finding);
  }

  if (blockers.length === 0) return { status: "ok", previousEvents, nextEvents, warnings };
  if (input.allow) {
    return {
      status: "allowed",
      previousEvents,
      nextEvents,
      warnings: [...blockers.map((line) => `shrink allowed for this build: ${line}`), ...warnings],
    };
  }
  throw new PublishError(
    [
      `Shrink guard: not publishing, ${blockers[0]}.`,
      ...blockers.slice(1).map((line) => `  also: ${line}`),
      ...warnings.map((line) => `  also: ${line}`),
      "If the portal really lost these events, allow it for one build with ALLOW_SHRINK=1,",
      `or change the limit with SHRINK_GUARD_MAX_DROP (now ${maxDropShare}, e.g. 0.8). See docs/deploy.md.`,
    ].join("\n"),
  );
}

/** "<what> would drop from 100 to 40 (...)" when that is more than the limits allow, else null. */
function drop(
  what: string,
  before: number,
  after: number,
  limits: { readonly maxDropShare: number; readonly minDropEvents: number },
): string | null {
  const dropped = before - after;
  const share = before > 0 ? dropped / before : 0;
  if (share <= limits.maxDropShare || dropped < limits.minDropEvents) return null;
  return `${what} would drop from ${before} to ${after} (-${dropped}, ${percent(share)}; the limit is ${percent(limits.maxDropShare)})`;
}

/** Validates parsed JSON as a manifest; returns null (with the reason) when it is not one. */
export function parseManifestCounts(
  value: unknown,
): { manifest: ManifestCounts } | { problem: string } {
  if (typeof value !== "object" || value === null) return { problem: "not a JSON object" };
  const record = value as Record<string, unknown>;
  const totals = record.totals as Record<string, unknown> | undefined;
  if (typeof totals !== "object" || totals === null || !isCount(totals.events)) {
    return { problem: "totals.events is missing" };
  }
  if (!Array.isArray(record.calendars)) return { problem: "calendars is missing" };
  const calendars = countedList(record.calendars);
  if (!calendars) return { problem: "a calendar entry lacks id or events" };
  const sources = record.sources === undefined ? undefined : countedList(record.sources);
  if (sources === null) return { problem: "a sources entry lacks id or events" };
  return {
    manifest: { calendars, ...(sources ? { sources } : {}), totals: { events: totals.events } },
  };
}

/** Entries of {id, name?, events}; null when one is not. */
function countedList(value: unknown): Counted[] | null {
  if (!Array.isArray(value)) return null;
  const list: Counted[] = [];
  for (const entry of value as unknown[]) {
    const item = entry as Record<string, unknown> | null;
    if (!item || typeof item.id !== "string" || !isCount(item.events)) return null;
    list.push({
      id: item.id,
      ...(typeof item.name === "string" ? { name: item.name } : {}),
      events: item.events,
    });
  }
  return list;
}

function isCount(value: unknown): value is number {
  return typeof value === "number" && Number.isInteger(value) && value >= 0;
}

function percent(share: number): string {
  return `${Math.round(share * 100)}%`;
}
