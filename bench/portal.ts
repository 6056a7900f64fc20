import { Pool } from "undici";
import { startPortal } from "../src/portal/index.ts";

export interface PortalBenchOptions {
  calendars?: number;
  eventsPerCalendar?: number;
  /** Upper bounds per measurement; whichever is reached first ends it. */
  maxRequests?: number;
  maxSeconds?: number;
  /** Requests in flight at once. */
  concurrency?: number;
  /**
   * Also details from a portal with this latency and this many requests at
   * once (the builds' portal), one at a time and at its limit: what a
   * request costs above its latency, the fetch floor's assumption.
   */
  latency?: { readonly ms: number; readonly maxConcurrency: number };
}

export interface Throughput {
  requests: number;
  seconds: number;
  perSecond: number;
  /** Median and 95th percentile latency in ms. */
  p50Ms: number;
  p95Ms: number;
}

export interface PortalBenchResult {
  events: number;
  /** startPortal() with the synthetic dataset: generation, indexing, listen. */
  loadMs: number;
  listPages: Throughput;
  details: Throughput;
  conditional304: Throughput;
  /** With `latency`: details one at a time, then at the portal's limit. */
  withLatency: { readonly one: Throughput; readonly limit: Throughput } | null;
}

const NOW = "2026-03-20T12:00:00Z";

/**
 * Requests per second of the reference portal over loopback, on a synthetic
 * dataset (default 4 x 25,000 events): list pages of 100 (walking cursors),
 * event details, and revalidations answered 304. Bounded in count and time.
 */
export async function benchPortal(options: PortalBenchOptions = {}): Promise<PortalBenchResult> {
  const calendars = options.calendars ?? 4;
  const eventsPerCalendar = options.eventsPerCalendar ?? 25_000;
  const maxRequests = options.maxRequests ?? 5_000;
  const maxSeconds = options.maxSeconds ?? 5;
  const concurrency = options.concurrency ?? 8;
  const started = performance.now();
  const portal = await startPortal({
    port: 0,
    now: NOW,
    seed: 1,
    synthetic: { calendars, eventsPerCalendar },
  });
  const loadMs = performance.now() - started;
  const pool = new Pool(portal.origin, { connections: concurrency });
  const headers = { authorization: `Bearer ${portal.token}` };
  const get = async (url: string, extra: Record<string, string> = {}) => {
    const res = await pool.request({
      method: "GET",
      path: url.slice(portal.origin.length),
      headers: { ...headers, ...extra },
    });
    await res.body.dump();
    return res;
  };
  try {
    const pageUrls = await collectPageUrls(
      portal.url,
      get,
      Math.min(200, Math.ceil(eventsPerCalendar / 100)),
    );
    const listPages = await measure(maxRequests, maxSeconds, concurrency, (i) =>
      get(pageUrls[i % pageUrls.length] as string),
    );
    const details = await measure(maxRequests, maxSeconds, concurrency, (i) =>
      get(detailsUrl(portal.url, i, calendars, eventsPerCalendar)),
    );
    const etag = String((await get(pageUrls[0] as string)).headers.etag);
    const conditional304 = await measure(maxRequests, maxSeconds, concurrency, () =>
      get(pageUrls[0] as string, { "if-none-match": etag }),
    );
    return {
      events: portal.eventCount,
      loadMs: Math.round(loadMs),
      listPages,
      details,
      conditional304,
      withLatency: options.latency
        ? await detailsWithLatency(options.latency, calendars, eventsPerCalendar, maxSeconds)
        : null,
    };
  } finally {
    await pool.close();
    await portal.close();
  }
}

/** Details from a portal with latency: one request at a time, then as many as it serves at once. */
async function detailsWithLatency(
  latency: { readonly ms: number; readonly maxConcurrency: number },
  calendars: number,
  eventsPerCalendar: number,
  maxSeconds: number,
): Promise<{ one: Throughput; limit: Throughput }> {
  const portal = await startPortal({
    port: 0,
    now: NOW,
    seed: 1,
    synthetic: { calendars, eventsPerCalendar },
    latencyMs: latency.ms,
    maxConcurrency: latency.maxConcurrency,
  });
  const pool = new Pool(portal.origin, { connections: latency.maxConcurrency });
  try {
    const get = async (i: number) => {
      const url = detailsUrl(portal.url, i, calendars, eventsPerCalendar);
      const res = await pool.request({
        method: "GET",
        path: url.slice(portal.origin.length),
        headers: { authorization: `Bearer ${portal.token}` },
      });
      await res.body.dump();
    };
    const one = await measure(200, maxSeconds, 1, get);
    const limit = await measure(3_000, maxSeconds, latency.maxConcurrency, get);
    return { one, limit };
  } finally {
    await pool.close();
    await portal.close();
  }
}

/** The i-th details URL of the synthetic dataset: calendars in turn, events spread over each. */
function detailsUrl(base: string, i: number, calendars: number, eventsPerCalendar: number): string {
  const calendar = `cal-${String((i % calendars) + 1).padStart(3, "0")}`;
  const event = `${calendar}-e${String(((i * 7919) % eventsPerCalendar) + 1).padStart(6, "0")}`;
  return `${base}/event-calendar/${calendar}/event/${event}/details`;
}

async function collectPageUrls(
  base: string,
  get: (url: string) => Promise<{ headers: Record<string, string | string[] | undefined> }>,
  pages: number,
): Promise<string[]> {
  const urls: string[] = [];
  let url: string | null = `${base}/event-calendar/cal-001/events?limit=100`;
  while (url && urls.length < pages) {
    urls.push(url);
    const link: string | string[] | undefined = (await get(url)).headers.link;
    url = typeof link === "string" ? (/<([^>]+)>/.exec(link)?.[1] ?? null) : null;
  }
  return urls;
}

async function measure(
  maxRequests: number,
  maxSeconds: number,
  concurrency: number,
  send: (i: number) => Promise<unknown>,
): Promise<Throughput> {
  const latencies: number[] = [];
  const start = performance.now();
  const deadline = start + maxSeconds * 1000;
  let next = 0;
  const worker = async () => {
    while (next < maxRequests && performance.now() < deadline) {
      const i = next++;
      const t = performance.now();
      await send(i);
      latencies.push(performance.now() - t);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = (performance.now() - start) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (q: number) =>
    Number((latencies[Math.floor(q * (latencies.length - 1))] ?? 0).toFixed(2));
  return {
    requests: latencies.length,
    seconds: Number(seconds.toFixed(2)),
    perSecond: Math.round(latencies.length / seconds),
    p50Ms: at(0.5),
    p95Ms: at(0.95),
  };
}
