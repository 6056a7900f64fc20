import { describe, expect, it } from "vitest";
import type { CalendarEvent } from "../../src/model/types.ts";
import type { WireRecord } from "../../src/model/wire.ts";
import { SharedValues } from "../../src/snapshot/shared-values.ts";
import { normalizedEvent } from "../helpers/normalized-event.ts";

/** Two dates of one series at one venue, read as the build reads them: each its own objects. */
function record(id: string, start: string, venue = "Amstelpark"): WireRecord {
  return {
    id,
    title: `Walk ${id}`,
    start,
    description: "<p>A walk <strong>through</strong> the park.</p>",
    location: { name: venue, address: "Europaboulevard 300, 1083 AD Amsterdam" },
    categories: [{ id: "outdoors", name: "Outdoors" }],
    organizer: { name: "Parks Department", email: "parks@example.org" },
  };
}

function shared(...events: CalendarEvent[]): CalendarEvent[] {
  const values = new SharedValues();
  for (const event of events) values.shareParts(event);
  return events;
}

describe("SharedValues", () => {
  it("holds the equal parts of two events once, and each writes out as before", () => {
    const first = normalizedEvent(record("a", "2026-12-01T10:00:00+01:00"));
    const second = normalizedEvent(record("b", "2026-12-08T10:00:00+01:00"));
    const before = [JSON.stringify(first), JSON.stringify(second)];
    expect(first.location).not.toBe(second.location);

    shared(first, second);

    expect(second.location).toBe(first.location);
    expect(second.organizer).toBe(first.organizer);
    expect(second.categories).toBe(first.categories);
    expect(second.descriptionHtml).toBe(first.descriptionHtml);
    expect([JSON.stringify(first), JSON.stringify(second)]).toEqual(before);
    // What is an event's own stays its own.
    expect([first.id, second.id]).toEqual(["a", "b"]);
  });

  it("shares the equal parts within parts that differ", () => {
    const [first, second] = shared(
      normalizedEvent(record("a", "2026-12-01T10:00:00+01:00", "Amstelpark")),
      normalizedEvent(record("b", "2026-12-08T10:00:00+01:00", "Vondelpark")),
    );
    expect(second?.location).not.toBe(first?.location);
    expect(second?.location?.name).toBe("Vondelpark");
    expect(second?.location?.address).toBe(first?.location?.address);
  });

  it("tells parts apart by every field, its type and its order", () => {
    const events = [
      { lat: 52.3, lon: 4.9 },
      { lat: 52.3, lon: 4.8 },
      { lon: 4.9, lat: 52.3 },
      { lat: "52.3", lon: 4.9 },
      { lat: 52.3, lon: 4.9, alt: null },
    ].map((geo, index) => ({
      ...normalizedEvent(record(`e${index}`, "2026-12-01T10:00:00+01:00")),
      location: { name: "Park", address: null, geo },
    })) as CalendarEvent[];
    const texts = events.map((event) => JSON.stringify(event.location));

    shared(...events);

    expect(new Set(events.map((event) => event.location)).size).toBe(events.length);
    expect(events.map((event) => JSON.stringify(event.location))).toEqual(texts);
  });

  it("leaves a frozen part whole, and tells two frozen parts apart", () => {
    const made = normalizedEvent(record("a", "2026-12-01T10:00:00+01:00"));
    const category = (id: string) => Object.freeze({ id, name: id });
    const [first, second] = shared(
      { ...made, categories: [category("music")] },
      { ...made, id: "b", categories: [category("theatre")] },
    );
    expect(first?.categories.map((item) => item.id)).toEqual(["music"]);
    expect(second?.categories.map((item) => item.id)).toEqual(["theatre"]);
  });
});
