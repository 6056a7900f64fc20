// The benchmark's synthetic portal (seed 1) in this process, and the
// settings a build needs to read it, for the tools that time builds
// against it (edit-builds.ts, edit-to-live.ts).
import { type RunningPortal, startPortal } from "../src/portal/index.ts";
import { createSyntheticDataset } from "../src/portal/synthetic-dataset.ts";
import type { PortalDataset } from "../src/portal/types.ts";

/** The portal's clock, and the builds' SITE_NOW unless a tool moves it. */
export const PORTAL_NOW = "2026-11-22T12:00:00Z";

export interface SyntheticSize {
  readonly calendars: number;
  readonly eventsPerCalendar: number;
}

/** `--size CxE` ("50x2000"), or null when it is not that. */
export function parseSize(raw: string | undefined): SyntheticSize | null {
  const [calendars, eventsPerCalendar] = (raw ?? "").split("x").map(Number);
  return calendars && eventsPerCalendar ? { calendars, eventsPerCalendar } : null;
}

/** The portal, and its dataset as it starts (to pick the events to edit). */
export async function startSyntheticPortal(
  size: SyntheticSize,
  options: { readonly port: number; readonly latencyMs: number },
): Promise<{ readonly portal: RunningPortal; readonly dataset: PortalDataset }> {
  const portal = await startPortal({
    host: "127.0.0.1",
    port: options.port,
    now: PORTAL_NOW,
    seed: 1,
    synthetic: size,
    latencyMs: options.latencyMs,
    maxConcurrency: 16,
  });
  const dataset = createSyntheticDataset({ ...size, seed: 1, now: new Date(PORTAL_NOW) });
  return { portal, dataset };
}

/** A build's settings for that portal: pages of 100, 16 requests at once, its cache folder. */
export function portalSettings(portal: RunningPortal, cacheDir: string): Record<string, string> {
  return {
    EVENT_API_URL: portal.url,
    EVENT_API_TOKEN: portal.token,
    EVENT_API_CACHE_DIR: cacheDir,
    EVENT_API_PAGE_SIZE_PARAM: "limit",
    EVENT_API_PAGE_SIZE: "100",
    EVENT_API_CONCURRENCY: "16",
    SITE_NOW: PORTAL_NOW,
    SITE_URL: "https://events.example.org",
  };
}
