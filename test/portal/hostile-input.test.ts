import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningPortal, startPortal } from "../../src/portal/index.ts";
import { NOW } from "../helpers/clock.ts";
import { call, rawStatus } from "../helpers/http-requests.ts";

describe("portal hostile input", () => {
  let portal: RunningPortal;
  let auth: string;
  beforeAll(async () => {
    portal = await startPortal({ port: 0, now: NOW });
    auth = `Authorization: Bearer ${portal.token}\r\n`;
  });
  afterAll(() => portal.close());

  const long = "a".repeat(129);
  const veryLong = "b".repeat(10_000);

  it.each([
    ["encoded traversal in a calendar id", "/v1/event-calendar/..%2F..%2Fetc%2Fpasswd/events", 400],
    [
      "encoded traversal in an event id",
      "/v1/event-calendar/community/event/..%2F..%2F/details",
      400,
    ],
    ["an encoded slash", "/v1/event-calendar/comm%2Funity/events", 400],
    ["a dot-dot id", "/v1/event-calendar/%2E%2E/events", 400],
    ["an id longer than 128 characters", `/v1/event-calendar/${long}/events`, 400],
    ["an encoded unicode id", "/v1/event-calendar/%E2%9C%93caf%C3%A9/events", 400],
    ["an empty calendar id", "/v1/event-calendar//events", 400],
    ["an empty event id", "/v1/event-calendar/community/event//details", 400],
    ["malformed percent-encoding", "/v1/event-calendar/%E0%A4%A/events", 400],
    ["a lone percent sign", "/v1/event-calendar/100%/events", 400],
    ["double slashes", "/v1//event-calendars", 404],
    ["a leading double slash", "//v1/event-calendars", 404],
    ["a valid but unknown id", "/v1/event-calendar/unknown-calendar/events", 404],
    ["a null byte", "/v1/event-calendar/a%00b/events", 400],
    ["query junk", "/v1/event-calendars?%zz=%&&&=&limit", 400],
    ["a very long URL", `/v1/event-calendar/${veryLong}/events`, 414],
  ])("should answer %s with %i, not 500", async (_label, target, expected) => {
    expect(await rawStatus(portal.origin, target, auth)).toBe(expected);
  });

  it("should answer raw unicode and control characters in the request line without a 500", async () => {
    for (const target of [
      "/v1/event-calendar/café/events",
      "/v1/event-calendar/a\u0007b/events",
      "/v1/\u00ff",
    ]) {
      const status = await rawStatus(portal.origin, target, auth);
      expect([400, 404]).toContain(status);
    }
  });

  it("should answer a request line beyond the header limit with a problem, not a crash", async () => {
    const status = await rawStatus(portal.origin, `/v1/${"c".repeat(70_000)}`, auth);
    expect([414, 431]).toContain(status);
    expect((await call(`${portal.url}/event-calendars`, { token: portal.token })).status).toBe(200);
  });

  it("should give a problem body for malformed ids, naming the parameter", async () => {
    const reply = await call(`${portal.url}/event-calendar/${long}/events`, {
      token: portal.token,
    });
    expect(reply.headers["content-type"]).toBe("application/problem+json; charset=utf-8");
    expect(reply.json()).toMatchObject({
      type: `${portal.origin}/problems/invalid-id`,
      status: 400,
      detail: expect.stringContaining("eventCalendarId"),
    });
  });

  it("should accept ids with every allowed character", async () => {
    const reply = await call(`${portal.url}/event-calendar/A-z_0.9~x/events`, {
      token: portal.token,
    });
    expect(reply.status).toBe(404);
  });

  it("should never answer 500 for a burst of generated junk paths", async () => {
    const pieces = [
      "%",
      "%2F",
      "..",
      ".",
      "",
      "é",
      "%C3",
      "~",
      "event",
      "events",
      "details",
      "v1",
      "?",
      "#",
      ";",
      "%00",
    ];
    let seed = 7;
    const pick = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return pieces[seed % pieces.length] ?? "";
    };
    for (let i = 0; i < 150; i++) {
      const path = `/v1/event-calendar/${pick()}${pick()}/${pick()}/${pick()}${pick()}/${pick()}`;
      const reply = await call(`${portal.origin}${encodeURI(path).replace(/%25/g, "%")}`, {
        token: portal.token,
      }).catch(() => null);
      if (reply) expect(reply.status, path).toBeLessThan(500);
    }
    expect(portal.counters.byStatus["500"]).toBeUndefined();
  });
});
