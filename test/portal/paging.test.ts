import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type PagingStyle,
  type RunningPortal,
  startPortal,
  type WireEvent,
} from "../../src/portal/index.ts";
import { PAGING_STYLES } from "../../src/portal/paging.ts";
import { NOW } from "../helpers/clock.ts";
import { call, nextLink } from "../helpers/http-requests.ts";

const SYNTHETIC = { calendars: 2, eventsPerCalendar: 237 };
const MAX_PAGES = 200;

/** Walks every page of cal-001 in the given style and returns the ids seen, in order. */
async function walk(portal: RunningPortal, style: PagingStyle): Promise<string[]> {
  const base = `${portal.url}/event-calendar/cal-001/events`;
  const ids: string[] = [];
  const get = async (url: string) => {
    const reply = await call(url, { token: portal.token });
    expect(reply.status, url).toBe(200);
    expect(reply.headers["x-total-count"]).toBe(String(SYNTHETIC.eventsPerCalendar));
    return reply;
  };
  let pages = 0;
  if (
    style === "link" ||
    style === "envelope-next" ||
    style === "envelope-cursor" ||
    style === "envelope-links"
  ) {
    let url: string | null = `${base}?limit=40`;
    while (url && pages++ < MAX_PAGES) {
      const reply = await get(url);
      if (style === "link") {
        ids.push(...reply.json<WireEvent[]>().map((e) => e.id));
        url = nextLink(reply.headers.link);
      } else if (style === "envelope-next") {
        const body = reply.json<{ items: WireEvent[]; next: string | null }>();
        ids.push(...body.items.map((e) => e.id));
        url = body.next;
      } else if (style === "envelope-links") {
        const body = reply.json<{ data: WireEvent[]; links: { next: string | null } }>();
        ids.push(...body.data.map((e) => e.id));
        url = body.links.next;
      } else {
        const body = reply.json<{ data: WireEvent[]; nextCursor: string | null }>();
        ids.push(...body.data.map((e) => e.id));
        url = body.nextCursor
          ? `${base}?limit=40&cursor=${encodeURIComponent(body.nextCursor)}`
          : null;
      }
    }
  } else if (style === "page") {
    for (let page = 1; pages++ < MAX_PAGES; page++) {
      const reply = await get(`${base}?page=${page}&per_page=40`);
      expect(reply.headers.link).toBeUndefined();
      const items = reply.json<WireEvent[]>();
      ids.push(...items.map((e) => e.id));
      if (items.length < 40) break;
    }
  } else if (style === "offset") {
    for (let offset = 0; pages++ < MAX_PAGES; offset += 40) {
      const body = (await get(`${base}?offset=${offset}&limit=40`)).json<{
        results: WireEvent[];
        total: number;
      }>();
      expect(body.total).toBe(SYNTHETIC.eventsPerCalendar);
      ids.push(...body.results.map((e) => e.id));
      if (offset + 40 >= body.total) break;
    }
  } else {
    ids.push(...(await get(base)).json<WireEvent[]>().map((e) => e.id));
  }
  return ids;
}

describe("portal paging", () => {
  // Every style the reference portal can page in.
  it.each([...PAGING_STYLES])(
    "should return every event exactly once when walking %s pages",
    async (style) => {
      const portal = await startPortal({
        port: 0,
        now: NOW,
        seed: 5,
        synthetic: SYNTHETIC,
        paging: style,
      });
      try {
        const ids = await walk(portal, style);
        expect(ids).toHaveLength(SYNTHETIC.eventsPerCalendar);
        expect(new Set(ids).size).toBe(SYNTHETIC.eventsPerCalendar);
        expect(ids.every((id) => id.startsWith("cal-001-"))).toBe(true);
      } finally {
        await portal.close();
      }
    },
  );

  describe("link style (the contract)", () => {
    let portal: RunningPortal;
    const events = () => `${portal.url}/event-calendar/cal-001/events`;
    beforeAll(async () => {
      portal = await startPortal({ port: 0, now: NOW, seed: 5, synthetic: SYNTHETIC });
    });
    afterAll(() => portal.close());

    it("should serve 50 items by default and announce the next page with an absolute Link", async () => {
      const reply = await call(events(), { token: portal.token });
      expect(reply.json<unknown[]>()).toHaveLength(50);
      const next = nextLink(reply.headers.link);
      expect(next?.startsWith(`${portal.url}/event-calendar/cal-001/events?`)).toBe(true);
      expect(reply.headers.link).toMatch(/^<[^>]+>; rel="next"$/);
    });

    it("should accept limits from 1 to 100 and omit the Link on the last page", async () => {
      expect(
        (await call(`${events()}?limit=1`, { token: portal.token })).json<unknown[]>(),
      ).toHaveLength(1);
      const full = await call(`${events()}?limit=100`, { token: portal.token });
      expect(full.json<unknown[]>()).toHaveLength(100);
      const two = await call(`${portal.url}/event-calendars?limit=100`, { token: portal.token });
      expect(two.json<unknown[]>()).toHaveLength(2);
      expect(two.headers.link).toBeUndefined();
    });

    it.each([
      "limit=0",
      "limit=101",
      "limit=-1",
      "limit=abc",
      "limit=1e2",
      "limit=10&limit=20",
      "cursor=",
      "cursor=not-a-cursor",
      "cursor=%FF%FE",
    ])("should answer %s with a 400 problem", async (query) => {
      const reply = await call(`${events()}?${query}`, { token: portal.token });
      expect(reply.status).toBe(400);
      expect(reply.json()).toMatchObject({
        status: 400,
        type: `${portal.origin}/problems/invalid-parameter`,
      });
    });

    it("should refuse a cursor taken from another list", async () => {
      const first = await call(`${portal.url}/event-calendar/cal-002/events?limit=5`, {
        token: portal.token,
      });
      const cursor = new URL(nextLink(first.headers.link) ?? "").searchParams.get("cursor");
      const reply = await call(`${events()}?cursor=${cursor}`, { token: portal.token });
      expect(reply.status).toBe(400);
    });

    it("should ignore unknown query parameters", async () => {
      const reply = await call(`${events()}?limit=3&sort=desc&%%junk=1&x`, { token: portal.token });
      expect(reply.status).toBe(200);
      expect(reply.json<unknown[]>()).toHaveLength(3);
    });

    it("should not skip or repeat events when an event moves while walking", async () => {
      const first = await call(`${events()}?limit=50`, { token: portal.token });
      const seen = first.json<WireEvent[]>().map((e) => e.id);
      const moving = first.json<WireEvent[]>()[0] as WireEvent;
      // Moving an already-served event to the end must not shift the cursor position.
      portal.updateEvent("cal-001", moving.id, {
        start: "2030-01-01T10:00:00+01:00",
        end: "2030-01-01T11:00:00+01:00",
      });
      let url = nextLink(first.headers.link);
      for (let pages = 0; url && pages < MAX_PAGES; pages++) {
        const reply = await call(url, { token: portal.token });
        seen.push(...reply.json<WireEvent[]>().map((e) => e.id));
        url = nextLink(reply.headers.link);
      }
      const unique = new Set(seen);
      expect(unique.size).toBe(SYNTHETIC.eventsPerCalendar);
      expect(seen.filter((id) => id === moving.id)).toHaveLength(2);
    });
  });

  it("should honour pageSizeMax", async () => {
    const portal = await startPortal({ port: 0, now: NOW, synthetic: SYNTHETIC, pageSizeMax: 10 });
    try {
      const base = `${portal.url}/event-calendar/cal-001/events`;
      expect((await call(base, { token: portal.token })).json<unknown[]>()).toHaveLength(10);
      expect((await call(`${base}?limit=11`, { token: portal.token })).status).toBe(400);
    } finally {
      await portal.close();
    }
  });
});
