import { Agent, request } from "undici";
import { afterAll, describe, expect, it } from "vitest";
import { ConcurrencyGate } from "../../src/portal/concurrency-gate.ts";
import { type RunningPortal, startPortal } from "../../src/portal/index.ts";
import { NOW } from "../helpers/clock.ts";
import { call } from "../helpers/http-requests.ts";

/** One request's outcome: the status, "truncated" or "reset". */
async function outcome(url: string, token: string, dispatcher: Agent): Promise<string> {
  try {
    const res = await request(url, { headers: { authorization: `Bearer ${token}` }, dispatcher });
    const retryAfter = res.headers["retry-after"];
    try {
      await res.body.text();
    } catch {
      return "truncated";
    }
    return retryAfter ? `${res.statusCode}+retry-after` : String(res.statusCode);
  } catch {
    return "reset";
  }
}

async function outcomes(portal: RunningPortal, count: number): Promise<string[]> {
  const dispatcher = new Agent({ connections: 1 });
  try {
    const seen: string[] = [];
    for (let i = 0; i < count; i++)
      seen.push(await outcome(`${portal.url}/event-calendars`, portal.token, dispatcher));
    return seen;
  } finally {
    await dispatcher.close();
  }
}

describe("portal knobs", () => {
  const portals: RunningPortal[] = [];
  const start = async (options: Parameters<typeof startPortal>[0]) => {
    const portal = await startPortal({ port: 0, now: NOW, ...options });
    portals.push(portal);
    return portal;
  };
  afterAll(() => Promise.all(portals.map((p) => p.close())));

  it("should answer 429 with Retry-After and RateLimit headers beyond the rate limit, per token", async () => {
    const portal = await start({ rateLimit: 2 });
    const replies = await Promise.all(
      Array.from({ length: 10 }, () =>
        call(`${portal.url}/event-calendars`, { token: portal.token }),
      ),
    );
    const limited = replies.filter((r) => r.status === 429);
    expect(limited.length).toBeGreaterThan(0);
    expect(Number(limited[0]?.headers["retry-after"])).toBeGreaterThanOrEqual(1);
    expect(limited[0]?.json()).toMatchObject({
      status: 429,
      type: `${portal.origin}/problems/rate-limited`,
    });
    const ok = replies.find((r) => r.status === 200);
    expect(ok?.headers["ratelimit-limit"]).toBe("2");
    expect(ok?.headers["ratelimit-remaining"]).toMatch(/^\d+$/);
    const other = portal.issueToken(portal.organizationId);
    expect((await call(`${portal.url}/event-calendars`, { token: other })).status).toBe(200);
  });

  it.each([0, 5])(
    "should inject every documented fault kind when the fault rate is 1, at %i ms latency",
    async (latencyMs) => {
      const portal = await start({ faultRate: 1, seed: 11, latencyMs });
      const seen = new Set(await outcomes(portal, 60));
      expect(seen).toEqual(
        new Set(["503+retry-after", "500", "429+retry-after", "truncated", "reset"]),
      );
      const faults = portal.counters.faults;
      expect(Object.values(faults).reduce((a, b) => a + b, 0)).toBe(60);
    },
  );

  it("should inject the same faults for the same seed and different ones for another seed", async () => {
    const a = await outcomes(await start({ faultRate: 0.5, seed: 42 }), 30);
    const b = await outcomes(await start({ faultRate: 0.5, seed: 42 }), 30);
    const c = await outcomes(await start({ faultRate: 0.5, seed: 43 }), 30);
    expect(a).toEqual(b);
    expect(c).not.toEqual(a);
    expect(a).toContain("200");
    expect(a.some((o) => o !== "200")).toBe(true);
  });

  it("should not inject faults into media", async () => {
    const portal = await start({ faultRate: 1 });
    expect((await call(`${portal.origin}/media/jazz.svg`)).status).toBe(200);
  });

  it("should serve every request with latency and a concurrency limit of 1", async () => {
    const portal = await start({ latencyMs: 20, maxConcurrency: 1 });
    const replies = await Promise.all(
      Array.from({ length: 5 }, () =>
        call(`${portal.url}/event-calendars`, { token: portal.token }),
      ),
    );
    expect(replies.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(portal.counters.total).toBe(5);
  });

  it("should keep serving, and free the slot, when a client leaves before its answer is sent", async () => {
    const portal = await start({ latencyMs: 200, maxConcurrency: 1 });
    const url = `${portal.url}/event-calendars`;
    const left = request(url, {
      headers: { authorization: `Bearer ${portal.token}` },
      signal: AbortSignal.timeout(50),
    });
    await expect(left).rejects.toThrow();
    // The one slot is free again: this request is answered, not queued forever.
    const next = await call(url, { token: portal.token });
    expect(next.status).toBe(200);
    expect(next.json<unknown[]>().length).toBeGreaterThan(0);
  });

  it("should answer every list with 200 [] and every details request with 404 when the lists are emptied, a token still required", async () => {
    const portal = await start({ emptyLists: true });
    const calendars = await call(`${portal.url}/event-calendars`, { token: portal.token });
    const events = await call(`${portal.url}/event-calendar/culture/events`, {
      token: portal.token,
    });
    const details = await call(
      `${portal.url}/event-calendar/culture/event/open-studio-20260326/details`,
      { token: portal.token },
    );
    const anonymous = await call(`${portal.url}/event-calendars`);

    expect([calendars.status, calendars.text]).toEqual([200, "[]"]);
    expect([events.status, events.text]).toEqual([200, "[]"]);
    expect(details.status).toBe(404);
    expect(anonymous.status).toBe(401);
    // The same portal without the knob lists its calendars and their events.
    const full = await start({});
    expect(
      (await call(`${full.url}/event-calendars`, { token: full.token })).json<unknown[]>().length,
    ).toBeGreaterThan(0);
    expect(
      (
        await call(`${full.url}/event-calendar/culture/event/open-studio-20260326/details`, {
          token: full.token,
        })
      ).status,
    ).toBe(200);
  });

  it("should reject out-of-range knobs with a message naming the option", async () => {
    await expect(startPortal({ port: 0, faultRate: 2 })).rejects.toThrow(/faultRate/);
    await expect(startPortal({ port: 0, paging: "pages" as never })).rejects.toThrow(/paging/);
    await expect(startPortal({ port: 0, auth: "cookie" })).rejects.toThrow(/auth/);
    await expect(startPortal({ port: 0, maxConcurrency: 0 })).rejects.toThrow(/maxConcurrency/);
  });
});

describe("ConcurrencyGate", () => {
  it("should hold requests beyond the limit until a slot is released, in arrival order", async () => {
    const gate = new ConcurrencyGate(1);
    const order: string[] = [];
    const release = await gate.enter();
    const second = gate.enter().then((r) => {
      order.push("second");
      return r;
    });
    const third = gate.enter().then((r) => {
      order.push("third");
      return r;
    });
    await Promise.resolve();
    expect(order).toEqual([]);
    expect(gate.queued).toBe(2);
    release();
    (await second)();
    (await third)();
    expect(order).toEqual(["second", "third"]);
  });
});
