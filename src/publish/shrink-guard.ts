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

/** The parts of /api/manifest.json (docs/public-json.md) the guard compares. */
export interface ManifestCounts {
  readonly calendars: readonly {
    readonly id: string;
    readonly name?: string;
    readonly events: number;
  }[];
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
  const dropped = previousEvents - nextEvents;
  const share = previousEvents > 0 ? dropped / previousEvents : 0;
  const blockers: string[] = [];
  const warnings: string[] = [];

  if (previousEvents > 0 && nextEvents === 0) {
    blockers.push(`the site would have no events (it had ${previousEvents})`);
  } else if (share > maxDropShare && dropped >= minDropEvents) {
    blockers.push(
      `events would drop from ${previousEvents} to ${nextEvents} (-${dropped}, ${percent(share)}; the limit is ${percent(maxDropShare)})`,
    );
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
  const calendars: { id: string; name?: string; events: number }[] = [];
  for (const entry of record.calendars as unknown[]) {
    const calendar = entry as Record<string, unknown> | null;
    if (!calendar || typeof calendar.id !== "string" || !isCount(calendar.events)) {
      return { problem: "a calendar entry lacks id or events" };
    }
    calendars.push({
      id: calendar.id,
      ...(typeof calendar.name === "string" ? { name: calendar.name } : {}),
      events: calendar.events,
    });
  }
  return { manifest: { calendars, totals: { events: totals.events } } };
}

function isCount(value: unknown): value is number {
  return typeof value === "number" && Number.isInteger(value) && value >= 0;
}

function percent(share: number): string {
  return `${Math.round(share * 100)}%`;
}
