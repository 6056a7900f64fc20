import { describe, expect, it } from "vitest";
import type { WireCalendar, WireEvent, WireEventDetails } from "../../src/portal/index.ts";
import { call } from "../helpers/http-requests.ts";
import { usePortal } from "../helpers/with-portal.ts";

describe("portal endpoints", () => {
  const portal = usePortal();

  it("should list the calendars available to the organization, as JSON", async () => {
    const reply = await call(`${portal().url}/event-calendars`, { token: portal().token });
    expect(reply.status).toBe(200);
    expect(reply.headers["content-type"]).toBe("application/json; charset=utf-8");
    const calendars = reply.json<WireCalendar[]>();
    expect(calendars.map((c) => c.id).sort()).toEqual(["city", "community", "culture", "sport"]);
    expect(reply.headers["x-total-count"]).toBe("4");
    const community = calendars.find((c) => c.id === "community");
    expect(community).toMatchObject({
      name: "Community",
      timeZone: "Europe/Amsterdam",
      color: expect.stringMatching(/^#[0-9a-f]{6}$/),
      eventCount: expect.any(Number),
      updatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
    });
  });

  it("should list a calendar's events sorted by start, with the list fields", async () => {
    const reply = await call(`${portal().url}/event-calendar/community/events?limit=100`, {
      token: portal().token,
    });
    expect(reply.status).toBe(200);
    const events = reply.json<WireEvent[]>();
    expect(events.length).toBeGreaterThan(10);
    const starts = events.map((e) => Date.parse(e.allDay ? `${e.start}T00:00:00Z` : e.start));
    for (let i = 1; i < starts.length; i++) {
      expect(starts[i]).toBeGreaterThanOrEqual((starts[i - 1] as number) - 2 * 3600_000);
    }
    expect(Object.keys(events[0] as object).sort()).toEqual([
      "allDay",
      "calendarId",
      "end",
      "id",
      "revision",
      "start",
      "status",
      "timeZone",
      "title",
      "updatedAt",
    ]);
    expect(events.every((e) => e.calendarId === "community")).toBe(true);
  });

  it("should return the details of an event with absolute image URLs on the portal", async () => {
    const list = await call(`${portal().url}/event-calendar/community/events?limit=100`, {
      token: portal().token,
    });
    const repair = list.json<WireEvent[]>().find((e) => e.title === "Repair Café");
    const reply = await call(
      `${portal().url}/event-calendar/community/event/${repair?.id}/details`,
      {
        token: portal().token,
      },
    );
    expect(reply.status).toBe(200);
    const details = reply.json<WireEventDetails>();
    expect(details).toMatchObject({
      id: repair?.id,
      calendarId: "community",
      title: "Repair Café",
      attendanceMode: "offline",
      location: { name: "Community Centre De Pijp", geo: { lat: 52.3547, lon: 4.8918 } },
      organizer: { name: "Buurtwerk Zuid" },
    });
    expect(details.description).toContain("<ul>");
    expect(details.categories.map((c) => c.id)).toContain("sustainability");
    expect(details.image?.url).toBe(`${portal().origin}/media/repair-cafe.svg`);
    expect(details.createdAt <= details.updatedAt).toBe(true);
  });

  it("should serve event images as SVG without a token", async () => {
    const reply = await call(`${portal().origin}/media/repair-cafe.svg`);
    expect(reply.status).toBe(200);
    expect(reply.headers["content-type"]).toBe("image/svg+xml");
    expect(reply.text).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    expect(reply.text).toContain("Volunteers repairing a table lamp");
    expect((await call(`${portal().origin}/media/unknown.svg`)).status).toBe(404);
  });

  it("should escape the alt text drawn into an SVG", async () => {
    const reply = await call(`${portal().origin}/media/open-mic.svg`);
    expect(reply.text).toContain("&quot;red&quot; &amp; blue");
    expect(reply.text).not.toContain('"red"');
  });

  it("should answer HEAD with the headers of GET and no body", async () => {
    const url = `${portal().url}/event-calendar/sport/events`;
    const get = await call(url, { token: portal().token });
    const head = await call(url, { token: portal().token, method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.text).toBe("");
    expect(head.headers.etag).toBe(get.headers.etag);
    expect(head.headers["content-length"]).toBe(get.headers["content-length"]);
  });

  it("should answer other methods 405 with Allow", async () => {
    for (const method of ["POST", "PUT", "DELETE", "PATCH", "OPTIONS"]) {
      const reply = await call(`${portal().url}/event-calendars`, {
        token: portal().token,
        method,
      });
      expect(reply.status).toBe(405);
      expect(reply.headers.allow).toBe("GET, HEAD");
      expect(reply.headers["content-type"]).toBe("application/problem+json; charset=utf-8");
    }
  });

  it("should answer unknown paths 404 with a problem body", async () => {
    for (const path of [
      "/",
      "/v1",
      "/v1/",
      "/v2/event-calendars",
      "/v1/event-calendars/",
      "/v1/event-calendar/community",
    ]) {
      const reply = await call(`${portal().origin}${path}`, { token: portal().token });
      expect(reply.status, path).toBe(404);
      expect(reply.json()).toMatchObject({
        status: 404,
        title: "Not found",
        type: `${portal().origin}/problems/not-found`,
      });
    }
  });

  it("should dereference problem type URIs to a human-readable page", async () => {
    const reply = await call(`${portal().origin}/problems/invalid-parameter`);
    expect(reply.status).toBe(200);
    expect(reply.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(reply.text).toContain("400 Invalid query parameter");
  });

  it("should count requests by route and status", async () => {
    portal().resetCounters();
    await call(`${portal().url}/event-calendars`, { token: portal().token });
    await call(`${portal().url}/event-calendar/nope/events`, { token: portal().token });
    await call(`${portal().origin}/media/jazz.svg`);
    const counters = portal().counters;
    expect(counters.total).toBe(3);
    expect(counters.byRoute).toEqual({ calendars: 1, events: 1, media: 1 });
    expect(counters.byStatus).toEqual({ 200: 2, 404: 1 });
    portal().resetCounters();
    expect(portal().counters.total).toBe(0);
  });
});
