import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningPortal, startPortal, type WireEventDetails } from "../../src/portal/index.ts";
import { NOW, NOW_MS } from "../helpers/clock.ts";
import { call } from "../helpers/http-requests.ts";

describe("portal conditional requests", () => {
  let portal: RunningPortal;
  let eventId: string;
  const list = () => `${portal.url}/event-calendar/sport/events`;
  const details = () => `${portal.url}/event-calendar/sport/event/${eventId}/details`;
  beforeAll(async () => {
    portal = await startPortal({ port: 0, now: NOW });
    eventId =
      (await call(list(), { token: portal.token })).json<Array<{ id: string }>>()[3]?.id ?? "";
  });
  afterAll(() => portal.close());

  it.each(["list", "details", "calendars"])(
    "should give %s a strong ETag and Last-Modified",
    async (kind) => {
      const url =
        kind === "list" ? list() : kind === "details" ? details() : `${portal.url}/event-calendars`;
      const reply = await call(url, { token: portal.token });
      expect(reply.headers.etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
      expect(Date.parse(reply.headers["last-modified"] ?? "")).toBeLessThanOrEqual(NOW_MS);
      expect(reply.headers["cache-control"]).toBe("private, no-cache");
      expect(reply.headers.vary).toBe("Authorization");
    },
  );

  it("should answer If-None-Match with 304 and no body, also for weak and listed tags", async () => {
    const { etag } = (await call(details(), { token: portal.token })).headers;
    for (const value of [etag, `W/${etag}`, `"other", ${etag}`, "*"]) {
      const reply = await call(details(), {
        token: portal.token,
        headers: { "if-none-match": value ?? "" },
      });
      expect(reply.status, value).toBe(304);
      expect(reply.text).toBe("");
      expect(reply.headers.etag).toBe(etag);
    }
    const stale = await call(details(), {
      token: portal.token,
      headers: { "if-none-match": '"stale"' },
    });
    expect(stale.status).toBe(200);
  });

  it("should answer If-Modified-Since with 304 unless the resource changed after it", async () => {
    const lastModified =
      (await call(list(), { token: portal.token })).headers["last-modified"] ?? "";
    const same = await call(list(), {
      token: portal.token,
      headers: { "if-modified-since": lastModified },
    });
    expect(same.status).toBe(304);
    const earlier = new Date(Date.parse(lastModified) - 1000).toUTCString();
    const older = await call(list(), {
      token: portal.token,
      headers: { "if-modified-since": earlier },
    });
    expect(older.status).toBe(200);
    const junk = await call(list(), {
      token: portal.token,
      headers: { "if-modified-since": "yesterday" },
    });
    expect(junk.status).toBe(200);
  });

  it("should let If-None-Match win over If-Modified-Since", async () => {
    const { "last-modified": lastModified } = (await call(list(), { token: portal.token })).headers;
    const reply = await call(list(), {
      token: portal.token,
      headers: { "if-none-match": '"stale"', "if-modified-since": lastModified ?? "" },
    });
    expect(reply.status).toBe(200);
  });

  it("should change validators, revision and updatedAt when an event is edited", async () => {
    const before = await call(details(), { token: portal.token });
    const listBefore = await call(list(), { token: portal.token });
    const record = before.json<WireEventDetails>();
    const updated = portal.updateEvent("sport", eventId, {
      title: "Renamed run",
      status: "cancelled",
    });
    expect(updated.revision).toBe(record.revision + 1);
    expect(Date.parse(updated.updatedAt)).toBeGreaterThan(Date.parse(record.updatedAt));
    const after = await call(details(), {
      token: portal.token,
      headers: {
        "if-none-match": before.headers.etag ?? "",
        "if-modified-since": before.headers["last-modified"] ?? "",
      },
    });
    expect(after.status).toBe(200);
    expect(after.json<WireEventDetails>()).toMatchObject({
      title: "Renamed run",
      status: "cancelled",
      revision: record.revision + 1,
    });
    const listAfter = await call(list(), {
      token: portal.token,
      headers: { "if-modified-since": listBefore.headers["last-modified"] ?? "" },
    });
    expect(listAfter.status).toBe(200);
    expect(listAfter.headers.etag).not.toBe(listBefore.headers.etag);
  });

  it("should refuse an edit that breaks the dataset rules", () => {
    expect(() => portal.updateEvent("sport", eventId, { start: "tomorrow" })).toThrow(/start/);
    expect(() => portal.updateEvent("sport", "no-such-event", { title: "x" })).toThrow(
      /no-such-event/,
    );
  });

  it("should revalidate media with ETag", async () => {
    const first = await call(`${portal.origin}/media/jazz.svg`);
    const again = await call(`${portal.origin}/media/jazz.svg`, {
      headers: { "if-none-match": first.headers.etag ?? "" },
    });
    expect(again.status).toBe(304);
  });
});
