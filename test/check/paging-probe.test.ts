import { afterAll, describe, expect, it } from "vitest";
import { HttpClient } from "../../src/api/http-client.ts";
import { formatPaging, inspectList } from "../../src/check/paging-probe.ts";
import { readApiConfig } from "../../src/config/api.ts";
import { type PagingStyle, type RunningPortal, startPortal } from "../../src/portal/index.ts";
import { NOW } from "../helpers/clock.ts";

const clients: HttpClient[] = [];
const portals: RunningPortal[] = [];
afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
  await Promise.all(portals.map((portal) => portal.close()));
});

async function inspect(paging: PagingStyle, eventsPerCalendar = 120) {
  const portal = await startPortal({
    port: 0,
    now: NOW,
    paging,
    synthetic: { calendars: 1, eventsPerCalendar },
  });
  portals.push(portal);
  const config = readApiConfig({ EVENT_API_URL: portal.url, EVENT_API_TOKEN: portal.token });
  const http = new HttpClient(config);
  clients.push(http);
  const shape = await inspectList(
    http,
    new URL(`${portal.url}/event-calendar/cal-001/events`),
    config,
  );
  return { shape, requests: portal.counters.total };
}

describe("inspectList", () => {
  it.each([
    ["link", 'the Link header (rel="next")', null],
    ["envelope-next", "a next URL in the envelope (next)", "items"],
    ["envelope-cursor", "a cursor in the envelope (nextCursor, sent back as cursor)", "data"],
    ["envelope-links", "a next URL in the envelope (links.next)", "data"],
  ] as const)("should describe %s paging in one request", async (style, how, envelope) => {
    const { shape, requests } = await inspect(style);
    expect(shape).toMatchObject({
      how,
      envelope,
      count: 50,
      total: 120,
      found: null,
      problem: null,
    });
    expect(requests).toBe(1);
  });

  it.each([
    ["page", "page"],
    ["offset", "offset"],
  ] as const)(
    "should find unannounced %s paging by asking for two small pages",
    async (style, setting) => {
      const { shape, requests } = await inspect(style);
      expect(shape.how).toBeNull();
      expect(shape.problem).toMatch(/reports 120 items but sent 50/);
      expect(shape.found && formatPaging(shape.found)).toBe(setting);
      // One first page, then at most two requests per candidate tried.
      expect(requests).toBeLessThanOrEqual(1 + 2 * 6);
    },
  );

  it("should not probe a list that came whole", async () => {
    const { shape, requests } = await inspect("none", 37);
    expect(shape).toMatchObject({ count: 37, total: 37, found: null, problem: null });
    expect(requests).toBe(1);
  });
});

describe("formatPaging", () => {
  it("should write EVENT_API_PAGING values", () => {
    expect(formatPaging({ kind: "page", param: "page", sizeParam: "per_page" })).toBe("page");
    expect(formatPaging({ kind: "offset", param: "skip", sizeParam: "take" })).toBe(
      "offset:skip,take",
    );
    expect(formatPaging({ kind: "auto", sizeParam: null })).toBe("auto");
  });
});
