import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type RunningPortal,
  startPortal,
  type WireEvent,
  type WireEventDetails,
} from "../../src/portal/index.ts";
import { NOW, NOW_MS } from "../helpers/clock.ts";
import { portalEvent } from "../helpers/events.ts";
import { call } from "../helpers/http-requests.ts";

/**
 * The reference portal's programmatic edits beyond updateEvent: adding,
 * deleting and moving events, as an editor would in the portal. Tests of the
 * publisher change the portal between two builds with them, so each must be
 * visible over HTTP exactly as a real portal would show it, validators included.
 */
describe("portal edits", () => {
  let portal: RunningPortal;
  const list = (calendarId: string) => `${portal.url}/event-calendar/${calendarId}/events`;
  const details = (calendarId: string, eventId: string) =>
    `${portal.url}/event-calendar/${calendarId}/event/${eventId}/details`;
  const ids = async (calendarId: string) =>
    (await call(list(calendarId), { token: portal.token }))
      .json<WireEvent[]>()
      .map((event) => event.id);

  beforeAll(async () => {
    portal = await startPortal({ port: 0, now: NOW });
  });
  afterAll(() => portal.close());

  it("should delete an event: gone from its list and details, the list's validators change", async () => {
    const [eventId] = await ids("sport");
    if (!eventId) throw new Error("the demo sport calendar has no events");
    const before = await call(list("sport"), { token: portal.token });
    const count = portal.eventCount;

    const removed = portal.deleteEvent("sport", eventId);

    expect(removed.id).toBe(eventId);
    expect(portal.eventCount).toBe(count - 1);
    expect(await ids("sport")).not.toContain(eventId);
    expect((await call(details("sport", eventId), { token: portal.token })).status).toBe(404);
    const revalidated = await call(list("sport"), {
      token: portal.token,
      headers: { "if-modified-since": before.headers["last-modified"] ?? "" },
    });
    expect(revalidated.status).toBe(200);
    expect(revalidated.headers.etag).not.toBe(before.headers.etag);
    expect(() => portal.deleteEvent("sport", eventId)).toThrow(eventId);
  });

  it("should move an event to another calendar under the same id, with a new revision", async () => {
    const [eventId] = await ids("community");
    if (!eventId) throw new Error("the demo community calendar has no events");
    const before = (
      await call(details("community", eventId), { token: portal.token })
    ).json<WireEventDetails>();

    const moved = portal.moveEvent("community", eventId, "culture");

    expect(moved).toMatchObject({ id: eventId, calendarId: "culture", title: before.title });
    expect(moved.revision).toBe(before.revision + 1);
    expect(Date.parse(moved.updatedAt)).toBeGreaterThan(Date.parse(before.updatedAt));
    expect(await ids("community")).not.toContain(eventId);
    expect(await ids("culture")).toContain(eventId);
    const after = await call(details("culture", eventId), { token: portal.token });
    expect(after.json<WireEventDetails>()).toMatchObject({
      calendarId: "culture",
      start: before.start,
      revision: before.revision + 1,
    });
    expect(() => portal.moveEvent("culture", eventId, "no-such-calendar")).toThrow(
      /no-such-calendar/,
    );
  });

  it("should add an event with revision 1 and the portal clock as its creation time", async () => {
    const event = portalEvent({
      id: "added-by-test",
      calendarId: "sport",
      title: "Added evening run",
      start: "2026-04-02T19:00:00+02:00",
      end: "2026-04-02T20:00:00+02:00",
    });

    const added = portal.addEvent(event);

    expect(added).toMatchObject({ id: "added-by-test", revision: 1 });
    expect(added.createdAt).toBe(added.updatedAt);
    expect(Date.parse(added.createdAt)).toBeGreaterThanOrEqual(NOW_MS);
    expect(await ids("sport")).toContain("added-by-test");
    const fetched = await call(details("sport", "added-by-test"), { token: portal.token });
    expect(fetched.json<WireEventDetails>()).toMatchObject({ title: "Added evening run" });
    expect(() => portal.addEvent(event)).toThrow(/already has an event added-by-test/);
    expect(() => portal.addEvent({ ...event, id: "bad-start", start: "tomorrow" })).toThrow(
      /start/,
    );
  });
});
