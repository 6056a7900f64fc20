import {
  type FetchedPortal,
  type LoadSnapshotOptions,
  loadSnapshot,
} from "../snapshot/load-snapshot.ts";
import { type FetchedSources, loadSources } from "../sources/load-sources.ts";
import type { PortalConnection } from "./connect-portal.ts";

/** What the build fetched: from its one portal, or from each of its sources (null sources: one portal). */
export interface FetchedData extends FetchedPortal {
  readonly sources: FetchedSources["sources"] | null;
  readonly merged: FetchedSources["merged"];
}

/**
 * The snapshot stage of `npm run build` and `npm start`: the one portal's
 * snapshot as a site of one portal has always read it, or the sources of
 * EVENT_SOURCES_FILE each fetched and joined into one (src/sources).
 */
export async function fetchPortal(
  portal: PortalConnection,
  options: Omit<LoadSnapshotOptions, "config" | "source"> & { readonly pastDays?: number },
): Promise<FetchedData> {
  if (portal.sources) return loadSources({ ...options, sources: portal.sources });
  const fetched = await loadSnapshot({ ...options, config: portal.api });
  return { ...fetched, sources: null, merged: [] };
}
