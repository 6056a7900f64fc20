import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { unwrapDetails } from "../../src/api/details-envelope.ts";
import { EMPTY_FIELD_MAP, parseFieldMap } from "../../src/model/field-map.ts";
import { normalizeEvent } from "../../src/model/normalize-event.ts";
import { type RunningPortal, startPortal } from "../../src/portal/index.ts";
import { NOW } from "../helpers/clock.ts";
import { snapshotOf } from "../helpers/fetch-portal.ts";
import { apiEnv } from "../helpers/portal-env.ts";

const record = { id: 1042, name: "Repair Café", perex: "Bring what is broken." };
const calendar = { id: "city", timeZone: "Europe/Amsterdam" };

describe("unwrapDetails", () => {
  it.each(["data", "item", "event", "result", "record", "payload"])(
    "should read the record inside a single-record envelope under %s",
    (key) => {
      expect(unwrapDetails({ [key]: record, meta: { version: 2 } }, EMPTY_FIELD_MAP)).toEqual({
        record,
        envelope: key,
      });
    },
  );

  it("should leave a bare record alone, even one with an object-valued data field", () => {
    const bare = { id: "e1", title: "Talk", data: { room: "B" } };
    expect(unwrapDetails(bare, EMPTY_FIELD_MAP)).toEqual({ record: bare, envelope: null });
  });

  it("should flatten a JSON:API resource to its id and attributes", () => {
    const body = { data: { id: "7", type: "events", attributes: { title: "Concert" } } };
    expect(unwrapDetails(body, EMPTY_FIELD_MAP).record).toEqual({ id: "7", title: "Concert" });
  });

  it("should keep the envelope when the field map reaches into it", () => {
    const map = parseFieldMap({ event: { id: "data.id", summary: "data.perex" } });
    const body = { data: record };
    expect(unwrapDetails(body, map)).toEqual({ record: body, envelope: null });
  });

  it("should keep a field map written for the envelope working after unwrapping it", () => {
    const map = parseFieldMap({ event: { summary: "data.perex" } });
    const listed = { id: 1042, name: "Repair Café", start: "2026-05-02T10:00:00+02:00" };
    const { record: details, envelope } = unwrapDetails({ data: record }, map);
    expect(envelope).toBe("data");
    const event = normalizeEvent(listed, details, calendar, {
      fieldMap: map,
      defaultTimeZone: "UTC",
    });
    expect(event.ok && event.value.summary).toBe("Bring what is broken.");
  });

  it("should leave a body with no record inside as it is", () => {
    const body = { message: "ok", data: [1, 2] };
    expect(unwrapDetails(body, EMPTY_FIELD_MAP)).toEqual({ record: body, envelope: null });
  });
});

describe("a build with a field map written for the details envelope", () => {
  let portal: RunningPortal;
  beforeAll(async () => {
    portal = await startPortal({
      port: 0,
      now: NOW,
      dialect: { rename: { "event.summary": "perex" }, detailsEnvelope: "data" },
    });
  });
  afterAll(() => portal.close());

  it("should publish what the envelope paths name, read inside the unwrapped details", async () => {
    const snapshot = await snapshotOf(
      apiEnv(portal, { EVENT_API_FIELD_MAP: '{"event":{"summary":"data.perex"}}' }),
    );
    const { events } = snapshot;
    expect(events.length).toBeGreaterThan(100);
    expect(events.filter((event) => event.summary !== "").length).toBeGreaterThan(
      events.length / 2,
    );
    expect(events.find((event) => event.id === "food-market-20260125")?.summary).toBe(
      "Local growers, bakers and street food on the square.",
    );
  });
});
