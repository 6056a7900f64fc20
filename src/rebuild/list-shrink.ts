import type { ShrinkGuardConfig } from "../config/publish.ts";
import { PublishError } from "../errors.ts";
import { checkShrink, type ManifestCounts } from "../publish/shrink-guard.ts";

/**
 * The shrink guard as the check sees it. A portal that answers an expired
 * token with empty lists looks to the check like every event was removed; a
 * build requested for that stops at the shrink guard, and the next check
 * would ask again, every few minutes, for a build that never publishes. So
 * the check asks the guard itself (its own rules, src/publish/shrink-guard.ts),
 * on the events per calendar the lists hold now against those the build
 * state recorded, and requests no build the guard would stop.
 */

/**
 * Calendar id -> events its list holds (ids counted once, as the build state
 * counts them), and in a site of several sources, source id -> its events.
 */
export interface ListCounts {
  readonly calendars: ReadonlyMap<string, number>;
  readonly sources: ReadonlyMap<string, { readonly name: string; readonly events: number }> | null;
}

export type ListShrink =
  | { readonly verdict: "passes" }
  /** The guard would stop the build, but ALLOW_SHRINK=1 allows it: the build must be allowed too. */
  | { readonly verdict: "allowed" }
  | {
      readonly verdict: "stops";
      /** The guard's own reason, as the build would give it. */
      readonly reason: string;
      readonly publishedEvents: number;
      readonly portalEvents: number;
    };

const GUARD_PREFIX = "Shrink guard: not publishing, ";

export function judgeListShrink(
  published: ListCounts,
  portal: ListCounts,
  guard: ShrinkGuardConfig,
): ListShrink {
  const previous = asManifest(published);
  const next = asManifest(portal);
  try {
    const { status } = checkShrink({ previous, next, ...guard });
    return { verdict: status === "allowed" ? "allowed" : "passes" };
  } catch (error) {
    if (!(error instanceof PublishError)) throw error;
    const first = error.message.split("\n")[0] ?? "";
    return {
      verdict: "stops",
      reason: (first.startsWith(GUARD_PREFIX) ? first.slice(GUARD_PREFIX.length) : first).replace(
        /\.$/,
        "",
      ),
      publishedEvents: previous.totals.events,
      portalEvents: next.totals.events,
    };
  }
}

function asManifest(counts: ListCounts): ManifestCounts {
  const calendars = [...counts.calendars].map(([id, events]) => ({ id, events }));
  return {
    calendars,
    ...(counts.sources
      ? { sources: [...counts.sources].map(([id, source]) => ({ id, ...source })) }
      : {}),
    totals: { events: calendars.reduce((sum, calendar) => sum + calendar.events, 0) },
  };
}
