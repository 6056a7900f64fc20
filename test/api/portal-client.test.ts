import type { RequestListener, ServerResponse } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiUnavailableError } from "../../src/api/errors.ts";
import { PortalClient } from "../../src/api/portal-client.ts";
import { readApiConfig } from "../../src/config/api.ts";
import { ApiError } from "../../src/errors.ts";
import { readMetrics } from "../../src/metrics.ts";
import type { PortalSnapshot } from "../../src/model/types.ts";
import { type PortalOptions, type RunningPortal, startPortal } from "../../src/portal/index.ts";
import { NOW } from "../helpers/clock.ts";
import { fetchPortal, snapshotOf } from "../helpers/fetch-portal.ts";
import { serveOnLoopback } from "../helpers/loopback-server.ts";
import { apiEnv } from "../helpers/portal-env.ts";
import { startSyntheticPortal } from "../helpers/synthetic-portal.ts";
import { tempDir } from "../helpers/temp-dir.ts";

/** A tiny server for what the reference portal cannot produce, until the test file ends. */
async function serve(handler: RequestListener): Promise<{ url: string }> {
  const { origin } = await serveOnLoopback(handler);
  return { url: `${origin}/api` };
}

function json(res: ServerResponse, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(200, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
}

const load = (env: NodeJS.ProcessEnv) => snapshotOf(env);

describe("PortalClient against the reference portal", () => {
  /** The reference portal with the synthetic data of these tests (2 calendars of 70 events), and `options`. */
  const startSynthetic = (options: PortalOptions = {}) =>
    startSyntheticPortal(2, 70, { seed: 7, ...options });
  let portal: RunningPortal;
  let reference: PortalSnapshot | undefined;
  beforeAll(async () => {
    portal = await startSynthetic();
  });
  afterAll(() => portal.close());

  it("should retry transient faults to a snapshot identical to a fault-free one", async () => {
    const clean = await load(apiEnv(portal));
    const faulty = await startSynthetic({ faultRate: 0.25 });
    try {
      const { snapshot, summary } = await fetchPortal(
        apiEnv(faulty, { EVENT_API_RETRIES: "10", EVENT_API_RETRY_MAX_WAIT: "20ms" }),
      );
      const faults = faulty.counters.faults;
      expect(Object.keys(faults).sort()).toEqual(["429", "500", "503", "reset", "truncated"]);
      expect(summary.retries).toBeGreaterThanOrEqual(
        Object.values(faults).reduce((a, b) => a + b, 0),
      );
      expect({ ...snapshot, source: "" }).toEqual({ ...clean, source: "" });
    } finally {
      await faulty.close();
    }
  });

  it("should give up on a slow portal after the timeout and name it", async () => {
    const slow = await startPortal({ port: 0, now: NOW, latencyMs: 3000 });
    try {
      const attempt = load(
        apiEnv(slow, {
          EVENT_API_TIMEOUT: "150ms",
          EVENT_API_RETRIES: "1",
          EVENT_API_RETRY_MAX_WAIT: "10ms",
        }),
      );
      await expect(attempt).rejects.toThrow(ApiUnavailableError);
      await expect(attempt).rejects.toThrow(
        /The portal did not answer http:\/\/127\.0\.0\.1:\d+\/v1\/event-calendars within 150 ms \(EVENT_API_TIMEOUT\) \(after 2 attempts\)\./,
      );
    } finally {
      await slow.close();
    }
  });

  it("should wait and succeed when the portal limits the request rate", async () => {
    const limited = await startSyntheticPortal(1, 12, { rateLimit: 8 });
    try {
      const snapshot = await load(apiEnv(limited, { EVENT_API_RETRIES: "10" }));
      expect(snapshot.events).toHaveLength(12);
      expect(limited.counters.byStatus["429"]).toBeGreaterThan(0);
    } finally {
      await limited.close();
    }
  });

  it("should answer 404 for another organization's calendar with a clear message", async () => {
    const demo = await startPortal({ port: 0, now: NOW });
    const client = new PortalClient(readApiConfig(apiEnv(demo)));
    try {
      await expect(client.listEvents("library")).rejects.toThrow(
        'Calendar "library" is not available to this organization (HTTP 404 for its events)',
      );
      expect(await client.getDetails("community", "no-such-event")).toBeNull();
    } finally {
      await client.close();
      await demo.close();
    }
  });

  it.each([
    ["link", {}],
    ["envelope-next", {}],
    ["envelope-cursor", {}],
    ["page", { EVENT_API_PAGING: "page", EVENT_API_PAGE_SIZE: "30" }],
    ["offset", { EVENT_API_PAGING: "offset", EVENT_API_PAGE_SIZE: "30" }],
    ["none", { EVENT_API_PAGING: "none" }],
  ] as const)("should page through %s lists to the same snapshot", async (paging, extra) => {
    reference ??= await load(apiEnv(portal));
    const styled = await startSynthetic({ paging });
    try {
      const snapshot = await load(apiEnv(styled, extra));
      expect(snapshot.events.map((e) => `${e.calendarId}/${e.id}`)).toEqual(
        reference.events.map((e) => `${e.calendarId}/${e.id}`),
      );
      const lists = styled.counters.byRoute.events ?? 0;
      expect(lists).toBe(
        paging === "none" ? 2 : paging === "link" || paging.startsWith("envelope") ? 4 : 6,
      );
    } finally {
      await styled.close();
    }
  });

  it("should not stop silently at the first page of a list it cannot page", async () => {
    const paged = await startSyntheticPortal(1, 70, { paging: "page" });
    try {
      await expect(load(apiEnv(paged))).rejects.toThrow(
        /reports 70 items but sent 50 .*EVENT_API_PAGING/,
      );
    } finally {
      await paged.close();
    }
  });
});

describe("PortalClient against other portals", () => {
  const seen: string[] = [];
  let other: { url: string };
  const TOKEN = "other-portal-token-123";
  /** The loader pointed at a stand-in portal at `url`, with the token it wants and a fresh cache. */
  const loadFrom = (url: string, extra: NodeJS.ProcessEnv = {}) =>
    load({ EVENT_API_URL: url, EVENT_API_TOKEN: TOKEN, EVENT_API_CACHE_DIR: tempDir(), ...extra });

  beforeAll(async () => {
    other = await serve((req, res) => {
      seen.push(`${req.url} ${req.headers["x-api-key"] ?? "-"}`);
      if (req.headers["x-api-key"] !== TOKEN) {
        res.writeHead(401).end();
        return;
      }
      const path = new URL(req.url ?? "/", "http://x").pathname;
      if (path === "/api/event-calendars") {
        json(res, { records: [{ key: "main", label: "Main", zone: "America/New_York" }] });
      } else if (path === "/api/event-calendar/main/events") {
        json(res, {
          records: [
            { ref: "a", headline: "Epoch event", begins: 1_775_142_000, ends: 1_775_145_600 },
            { ref: "gone", headline: "Deleted", begins: 1_775_142_000 },
            { ref: "a", headline: "Epoch event", begins: 1_775_142_000, ends: 1_775_145_600 },
          ],
        });
      } else if (path === "/api/event-calendar/main/event/a/details") {
        json(res, {
          ref: "a",
          headline: "Epoch event",
          begins: 1_775_142_000,
          ends: 1_775_145_600,
          blurb: "<p>Hi</p>",
        });
      } else {
        res
          .writeHead(404, { "content-type": "application/problem+json" })
          .end('{"title":"Not found"}');
      }
    });
  });

  it("should read a field-mapped portal with an API-key header and epoch times", async () => {
    const warnings: string[] = [];
    const snapshot = await snapshotOf(
      {
        EVENT_API_URL: other.url,
        EVENT_API_TOKEN: TOKEN,
        EVENT_API_AUTH: "header:X-Api-Key",
        EVENT_API_CACHE_DIR: tempDir(),
        EVENT_API_FIELD_MAP: JSON.stringify({
          calendar: { id: "key", name: "label" },
          event: {
            id: "ref",
            title: "headline",
            start: "begins",
            end: "ends",
            description: "blurb",
          },
        }),
        SITE_NOW: NOW,
      },
      { sink: { write: (text: string) => void warnings.push(text) } },
    );
    expect(snapshot.calendars).toEqual([
      {
        id: "main",
        name: "Main",
        description: "",
        timeZone: "America/New_York",
        color: null,
        updatedAt: null,
      },
    ]);
    expect(snapshot.events).toHaveLength(1);
    expect(snapshot.events[0]).toMatchObject({
      id: "a",
      title: "Epoch event",
      start: "2026-04-02T11:00:00-04:00",
      end: "2026-04-02T12:00:00-04:00",
      descriptionHtml: "<p>Hi</p>",
    });
    expect(snapshot.warnings).toEqual([
      'calendar "main", event "gone": skipped (listed, but its details answer 404)',
    ]);
    expect(warnings.join("")).toContain('warning: calendar "main", event "gone": skipped');
    // A duplicated list entry is fetched once.
    expect(seen.filter((line) => line.includes("/event/a/details"))).toHaveLength(1);
  });

  it("should refuse a web page instead of JSON", async () => {
    const html = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end("<html>Login</html>");
    });
    const attempt = loadFrom(html.url);
    await expect(attempt).rejects.toThrow(ApiError);
    await expect(attempt).rejects.toThrow(
      /answered .* with text\/html instead of JSON; check that EVENT_API_URL points at the API/,
    );
  });

  it("should retry a truncated JSON body, then fail clearly", async () => {
    let requests = 0;
    const broken = await serve((_req, res) => {
      requests++;
      res.writeHead(200, { "content-type": "application/json" }).end('[{"id": "a", "na');
    });
    const attempt = loadFrom(broken.url, {
      EVENT_API_RETRIES: "2",
      EVENT_API_RETRY_MAX_WAIT: "5ms",
    });
    await expect(attempt).rejects.toThrow(
      /The portal sent invalid JSON for .*event-calendars \(after 3 attempts\)\./,
    );
    expect(requests).toBe(3);
  });

  it("should honour Retry-After before the next attempt, up to the cap", async () => {
    const arrivals: number[] = [];
    const busy = await serve((_req, res) => {
      arrivals.push(performance.now());
      if (arrivals.length === 1) {
        res.writeHead(429, { "retry-after": "1" }).end();
      } else if (arrivals.length === 2) {
        res.writeHead(503, { "retry-after": "3600" }).end();
      } else {
        json(res, []);
      }
    });
    const snapshot = await loadFrom(busy.url, {
      EVENT_API_RETRY_MAX_WAIT: "1500ms",
    });
    expect(snapshot.calendars).toEqual([]);
    expect(arrivals).toHaveLength(3);
    // The server asked for a one-second pause; a retry earlier than that would be rude.
    expect((arrivals[1] ?? 0) - (arrivals[0] ?? 0)).toBeGreaterThanOrEqual(950);
  });

  it("should not retry other client errors", async () => {
    let requests = 0;
    const strict = await serve((_req, res) => {
      requests++;
      res
        .writeHead(400, { "content-type": "application/problem+json" })
        .end('{"detail":"limit must be 1-100"}');
    });
    const attempt = loadFrom(strict.url);
    await expect(attempt).rejects.toThrow(
      /refused .* \(HTTP 400\): limit must be 1-100; check EVENT_API_URL/,
    );
    expect(requests).toBe(1);
  });

  it("should name an unknown host", async () => {
    const attempt = load({
      EVENT_API_URL: "http://portal.invalid/api",
      EVENT_API_TOKEN: TOKEN,
      EVENT_API_CACHE_DIR: tempDir(),
      EVENT_API_RETRIES: "0",
    });
    await expect(attempt).rejects.toThrow(
      /Cannot (find the host "portal\.invalid"|reach the portal at portal\.invalid)/,
    );
  });

  it("should stop an endless body at EVENT_API_MAX_RESPONSE_SIZE and say so, without retrying", async () => {
    let requests = 0;
    let written = 0;
    const endless = await serve((_req, res) => {
      requests++;
      res.writeHead(200, { "content-type": "application/json" });
      res.write("[");
      const chunk = Buffer.alloc(64 * 1024, " ");
      // Bounded: an honest test server stops after 16 MiB even if nobody hangs up.
      const pump = (): void => {
        while (written < 16 * 1024 * 1024 && !res.destroyed) {
          written += chunk.length;
          if (!res.write(chunk)) return void res.once("drain", pump);
        }
        res.end();
      };
      pump();
    });
    const attempt = loadFrom(endless.url, {
      EVENT_API_MAX_RESPONSE_SIZE: "1MB",
      EVENT_API_RETRY_MAX_WAIT: "5ms",
    });
    await expect(attempt).rejects.toThrow(ApiUnavailableError);
    await expect(attempt).rejects.toThrow(
      /^The portal's answer for http:\/\/127\.0\.0\.1:\d+\/api\/event-calendars went on past 1MB and was stopped \(an endless or runaway response\)\. The limit is EVENT_API_MAX_RESPONSE_SIZE=1MB: raise it/,
    );
    await expect(attempt).rejects.not.toThrow(/Cannot reach|EFBIG|network/);
    expect(requests).toBe(1);
    expect(written).toBeLessThan(16 * 1024 * 1024);
  });

  it("should refuse a body announced larger than the limit without reading it", async () => {
    const big = await serve((_req, res) => {
      res.writeHead(200, {
        "content-type": "application/json",
        "content-length": String(3 * 1024 * 1024),
      });
      res.write("[");
    });
    const attempt = loadFrom(big.url, {
      EVENT_API_MAX_RESPONSE_SIZE: "2MB",
    });
    await expect(attempt).rejects.toThrow(
      /announced 3MB, more than the 2MB allowed, and was not read\. The limit is EVENT_API_MAX_RESPONSE_SIZE=2MB/,
    );
  });

  it("should name EVENT_API_TIMEOUT when a body stops coming", async () => {
    const trickle = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write("[");
      // Headers and one byte, then silence until the client gives up (at most 10 s).
      const stop = setTimeout(() => res.end("]"), 10_000);
      res.on("close", () => clearTimeout(stop));
    });
    const attempt = loadFrom(trickle.url, {
      EVENT_API_TIMEOUT: "200ms",
      EVENT_API_RETRIES: "0",
    });
    await expect(attempt).rejects.toThrow(
      /^The portal did not finish answering http:\/\/127\.0\.0\.1:\d+\/api\/event-calendars within 200 ms \(EVENT_API_TIMEOUT\)\.$/,
    );
  });

  it("should never send the token to another site a next-page link points at", async () => {
    const elsewhere: string[] = [];
    const other = await serve((req, res) => {
      elsewhere.push(String(req.headers.authorization));
      json(res, []);
    });
    const linking = await serve((_req, res) => {
      json(res, [{ id: "c", name: "C" }], {
        link: `<${other.url}/event-calendars?cursor=2>; rel="next"`,
      });
    });
    const attempt = loadFrom(linking.url);
    await expect(attempt).rejects.toThrow(
      /^The portal points at http:\/\/127\.0\.0\.1:\d+\/api\/event-calendars\?cursor=2, another site than EVENT_API_URL/,
    );
    expect(elsewhere).toEqual([]);
  });

  it("should stop when the portal's paging repeats itself", async () => {
    const loop = await serve((req, res) => {
      json(res, [{ id: "c" }], {
        link: `<${"http://127.0.0.1"}:${(req.socket.localPort ?? 0).toString()}/api/event-calendars?cursor=same>; rel="next"`,
      });
    });
    const attempt = loadFrom(loop.url);
    await expect(attempt).rejects.toThrow(/paging repeats .*cursor=same; stopped to avoid a loop/);
  });
});

describe("PortalClient's details digests", () => {
  it("should keep a details body's digest for the next build, but not of a body that holds the token", async () => {
    const TOKEN = "digest-portal-token-456";
    const listed = (id: string) => ({
      id,
      title: `Event ${id}`,
      start: "2026-04-02T10:00:00+02:00",
      end: "2026-04-02T11:00:00+02:00",
      updatedAt: "2026-03-01T09:00:00Z",
    });
    const portal = await serve((req, res) => {
      const path = new URL(req.url ?? "/", "http://x").pathname;
      if (path === "/api/event-calendars") json(res, [{ id: "main", name: "Main" }]);
      else if (path === "/api/event-calendar/main/events") json(res, [listed("a"), listed("t")]);
      else if (path === "/api/event-calendar/main/event/a/details")
        json(res, { ...listed("a"), description: "<p>Hi</p>" });
      else if (path === "/api/event-calendar/main/event/t/details")
        json(res, { ...listed("t"), description: `<p>Ask for ${TOKEN} at the gate.</p>` });
      else res.writeHead(404).end();
    });
    const env = {
      EVENT_API_URL: portal.url,
      EVENT_API_TOKEN: TOKEN,
      EVENT_API_CACHE_DIR: tempDir(),
      SITE_NOW: NOW,
    };
    const digested = () => readMetrics().counters["fetch.detailsDigested"] ?? 0;
    const reused = () => readMetrics().counters["fetch.detailsReused"] ?? 0;
    let before = digested();
    const first = await load(env);
    expect(first.events.map((event) => event.id)).toEqual(["a", "t"]);
    expect(digested() - before).toBe(2);
    // The next build reuses both details records: the plain one's digest was kept, the one
    // that held the token is stored without it, so its digest is made again.
    before = digested();
    const reusedBefore = reused();
    const second = await load(env);
    expect(reused() - reusedBefore).toBe(2);
    expect(digested() - before).toBe(1);
    expect(second.events.map((event) => event.title)).toEqual(["Event a", "Event t"]);
  });
});
