import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningPortal, startPortal } from "../../src/portal/index.ts";
import { NOW } from "../helpers/clock.ts";
import { portalEvent } from "../helpers/events.ts";
import { call } from "../helpers/http-requests.ts";

type Json = Record<string, unknown>;

describe("portal dialects", () => {
  let contract: RunningPortal;
  let variant: RunningPortal;
  const get = async (portal: RunningPortal, path: string, headers: Record<string, string>) => {
    const reply = await call(`${portal.url}${path}`, { headers });
    expect(reply.status, path).toBe(200);
    return reply.json<Json>();
  };
  beforeAll(async () => {
    contract = await startPortal({ port: 0, now: NOW });
    variant = await startPortal({
      port: 0,
      now: NOW,
      dialect: "variant",
      auth: "header:X-Api-Key",
      paging: "envelope-links",
    });
  });
  afterAll(() => Promise.all([contract.close(), variant.close()]));

  it("should serve the variant: renamed fields, local times, epoch stamps, links envelope", async () => {
    const own = { "x-api-key": variant.token };
    const path = "/event-calendar/community/events?limit=2";
    const body = await get(variant, path, own);
    const original = (await call(`${contract.url}${path}`, { token: contract.token })).json<
      Json[]
    >();
    expect(Object.keys(body)).toEqual(["data", "links"]);
    expect((body.links as Json).next).toMatch(
      /^http:\/\/127\.0\.0\.1:\d+\/v1\/event-calendar\/community\/events\?/,
    );
    const [first] = body.data as Json[];
    const [same] = original;
    expect(first).toEqual({
      id: same?.id,
      calendarId: "community",
      name: same?.title,
      dateFrom: String(same?.start).slice(0, 19),
      dateTo: String(same?.end).slice(0, 19),
      wholeDay: false,
      timezone: "Europe/Amsterdam",
      state: same?.status,
      revision: same?.revision,
      modified: Date.parse(String(same?.updatedAt)) / 1000,
    });
    expect(String(same?.start)).toMatch(/[+-]\d{2}:\d{2}$/);
  });

  it('should wrap variant details in data, with coordinates as one "lat,lon" string', async () => {
    const list = (
      await call(`${contract.url}/event-calendar/community/events?limit=100`, {
        token: contract.token,
      })
    ).json<Json[]>();
    const withPlace = list[0] as Json;
    const path = `/event-calendar/community/event/${withPlace.id}/details`;
    const original = (await call(`${contract.url}${path}`, { token: contract.token })).json<Json>();
    const wrapped = await get(variant, path, { "x-api-key": variant.token });
    expect(Object.keys(wrapped)).toEqual(["data"]);
    const record = wrapped.data as Json;
    const location = original.location as { geo: { lat: number; lon: number } };
    expect(record.place).toEqual({ ...location, geo: `${location.geo.lat},${location.geo.lon}` });
    expect(record.perex).toBe(original.summary);
    expect(record.text).toBe(original.description);
    expect(record.labels).toEqual((original.categories as Json[]).map((c) => c.name));
    expect(record.created).toBe(Date.parse(String(original.createdAt)) / 1000);
    for (const gone of ["title", "start", "end", "summary", "location", "categories", "createdAt"])
      expect(record).not.toHaveProperty(gone);
  });

  it("should serve a dialect from a JSON file: GeoJSON points, epoch milliseconds, nesting, numeric ids", async () => {
    const dir = mkdtempSync(join(tmpdir(), "portal-dialect-"));
    try {
      const file = join(dir, "dialect.json");
      writeFileSync(
        file,
        JSON.stringify({
          rename: { "event.start": "schedule.begins", "event.end": "schedule.ends" },
          omit: ["event.revision"],
          detailsEnvelope: "item",
          stamps: "epoch-millis",
          geo: "geojson",
          numericIds: true,
        }),
      );
      const portal = await startPortal({
        port: 0,
        now: NOW,
        dialect: file,
        dataset: {
          version: 1,
          organizations: [{ id: "org", name: "Org" }],
          calendars: [
            {
              id: "7",
              name: "Seven",
              description: "",
              timeZone: "Europe/Prague",
              color: null,
              updatedAt: "2026-03-01T00:00:00Z",
              organizations: ["org"],
            },
          ],
          events: [
            {
              ...portalEvent({
                id: "42",
                calendarId: "7",
                title: "Concert",
                start: "2026-03-28T19:30:00+01:00",
                end: "2026-03-28T21:00:00+01:00",
                timeZone: "Europe/Prague",
                location: { name: "Rudolfinum", address: null, geo: { lat: 50.09, lon: 14.415 } },
              }),
              revision: 2,
              createdAt: "2026-02-01T10:00:00Z",
              updatedAt: "2026-03-01T10:00:00Z",
            },
          ],
        },
      });
      try {
        const bearer = { authorization: `Bearer ${portal.token}` };
        const details = (await get(portal, "/event-calendar/7/event/42/details", bearer))
          .item as Json;
        expect(details).toMatchObject({
          id: 42,
          calendarId: 7,
          schedule: { begins: "2026-03-28T19:30:00+01:00", ends: "2026-03-28T21:00:00+01:00" },
          createdAt: Date.parse("2026-02-01T10:00:00Z"),
          location: { geo: { type: "Point", coordinates: [14.415, 50.09] } },
        });
        expect(details).not.toHaveProperty("revision");
        const calendars = (await call(`${portal.url}/event-calendars`, { headers: bearer })).json<
          Json[]
        >();
        expect(calendars[0]?.id).toBe(7);
      } finally {
        await portal.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.each([
    ["an unknown preset", "klingon", /dialect must be contract, variant or a \.json file/],
    ["an unknown field", { rename: { "event.colour": "c" } }, /unknown field "event\.colour"/],
    ["a bad time form", { times: "sometimes" }, /times must be one of offset, local/],
  ])("should refuse %s with a message naming it", async (_, dialect, message) => {
    await expect(startPortal({ port: 0, now: NOW, dialect: dialect as never })).rejects.toThrow(
      message,
    );
  });
});
