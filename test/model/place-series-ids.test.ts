import { describe, expect, it } from "vitest";
import { type FieldMap, parseFieldMap } from "../../src/model/field-map.ts";
import type { CalendarEvent } from "../../src/model/types.ts";
import type { WireRecord } from "../../src/model/wire.ts";
import { normalizedEvent } from "../helpers/normalized-event.ts";

/*
 * What a portal says about an event's place and series, read into the model:
 * the place's own id, the series id, each through the field map when the
 * portal names them otherwise (docs/configuration.md, "How records are read").
 */

const record: WireRecord = {
  id: "e1",
  title: "Repair Café",
  start: "2026-03-28T10:00:00+01:00",
  end: "2026-03-28T13:00:00+01:00",
};

const read = (wire: WireRecord, fieldMap?: FieldMap): CalendarEvent =>
  normalizedEvent(wire, { fieldMap });

describe("place and series ids", () => {
  it("should read a place's own id, and leave other places without one", () => {
    const at = read({ ...record, location: { id: 42, name: "Hall", address: "Markt 1" } });
    expect(at.location?.id).toBe("42");
    expect(at.location?.name).toBe("Hall");
    const venue = read({ ...record, venue: { venueId: "v-9", name: "Hall" } });
    expect(venue.location?.id).toBe("v-9");
    const plain = read({ ...record, location: { name: "Hall" } });
    expect(plain.location).toEqual({ name: "Hall", address: null, geo: null });
  });

  it("should read a place id beside the location, and only there when the field map names it", () => {
    expect(read({ ...record, location: { name: "Hall" }, venue_id: "v-1" }).location?.id).toBe(
      "v-1",
    );
    // A portal whose location rows carry an id per event maps placeId away from it.
    const map = parseFieldMap({ "event.placeId": "hallKey" });
    const perEvent = { ...record, location: { id: "row-77", name: "Hall" } };
    expect(read(perEvent, map).location?.id).toBeUndefined();
    expect(read({ ...perEvent, hallKey: "hall" }, map).location?.id).toBe("hall");
  });

  it("should read a series id, as a value or a series record, and through the field map", () => {
    expect(read({ ...record, seriesId: "s-1" }).seriesId).toBe("s-1");
    expect(read({ ...record, recurringEventId: 7 }).seriesId).toBe("7");
    expect(read({ ...record, series: { id: "weekly-repair", name: "Repair Café" } }).seriesId).toBe(
      "weekly-repair",
    );
    expect("seriesId" in read(record)).toBe(false);
    const map = parseFieldMap({ event: { seriesId: "meta.recurrence" } });
    expect(read({ ...record, meta: { recurrence: "r-5" } }, map).seriesId).toBe("r-5");
  });
});
