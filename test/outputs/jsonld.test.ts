import { describe, expect, it } from "vitest";
import type { AccessFeature, CalendarEvent, EventHistory } from "../../src/model/types.ts";
import { eventJsonLd } from "../../src/outputs/jsonld.ts";
import { fixtureSnapshot } from "../fixtures/snapshot.ts";
import { NOW } from "../helpers/clock.ts";

const URL = "https://events.example.org/calendars/community/events/e-dst/";

function fixture(id: string): CalendarEvent {
  const event = fixtureSnapshot.events.find((candidate) => candidate.id === id);
  if (!event) throw new Error(`no fixture event ${id}`);
  return event;
}

const history = (previousStarts: string[]): EventHistory => ({
  uid: null,
  previousStarts,
  rescheduledAt: NOW,
  newDate: true,
  removed: null,
});

describe("eventJsonLd", () => {
  it("should give the place its access features as amenities, named as the page names them", () => {
    const event: CalendarEvent = {
      ...fixture("e-dst"),
      access: [{ feature: "hearing-loop" }, { text: "Ramp at the side door" }],
    };
    const name = (f: AccessFeature) => ("feature" in f ? `name of ${f.feature}` : f.text);
    const place = eventJsonLd(event, URL, [], name).location as Record<string, unknown>;
    expect(place["@type"]).toBe("Place");
    expect(place.amenityFeature).toEqual([
      { "@type": "LocationFeatureSpecification", name: "name of hearing-loop", value: true },
      { "@type": "LocationFeatureSpecification", name: "Ramp at the side door", value: true },
    ]);
    // Event has no property for them (schema.org): never on the event itself.
    expect(Object.keys(eventJsonLd(event, URL, [], name))).not.toContain("accessibilityFeature");
    expect(eventJsonLd(fixture("e-dst"), URL, [], name).location).not.toHaveProperty(
      "amenityFeature",
    );
  });

  it("should name the event's own image first, then the share cards given, once each", () => {
    const event = fixture("e-dst");
    const own = "https://events.example.org/media/ab12.jpg";
    const cards = [
      "https://events.example.org/cards/a.png",
      "https://events.example.org/cards/b.png",
    ];
    const withImage = { ...event, image: { url: own, alt: "", width: null, height: null } };
    expect(eventJsonLd(withImage, URL, [...cards, own]).image).toEqual([own, ...cards]);
    expect(eventJsonLd({ ...event, image: null }, URL, cards).image).toEqual(cards);
    expect(eventJsonLd({ ...event, image: null }, URL).image).toBeUndefined();
  });

  it("should say EventScheduled with no previousStartDate for an event that never moved", () => {
    const ld = eventJsonLd(fixture("e-dst"), URL);
    expect(ld.eventStatus).toBe("https://schema.org/EventScheduled");
    expect(ld.previousStartDate).toBeUndefined();
  });

  it("should say EventRescheduled with the earlier start, repeated after several moves", () => {
    const walk = fixture("e-dst");
    const once = eventJsonLd({ ...walk, history: history(["2026-03-28T01:30:00+01:00"]) }, URL);
    expect(once).toMatchObject({
      eventStatus: "https://schema.org/EventRescheduled",
      startDate: walk.start,
      previousStartDate: "2026-03-28T01:30:00+01:00",
    });
    const twice = eventJsonLd(
      {
        ...walk,
        history: history(["2026-03-27T01:30:00+01:00", "2026-03-28T01:30:00+01:00"]),
      },
      URL,
    );
    expect(twice.previousStartDate).toEqual([
      "2026-03-27T01:30:00+01:00",
      "2026-03-28T01:30:00+01:00",
    ]);
  });

  it("should give dates for an all-day event's earlier start", () => {
    const kingsDay = fixture("e-allday");
    const ld = eventJsonLd({ ...kingsDay, history: history(["2026-04-26T00:00:00+02:00"]) }, URL);
    expect(ld).toMatchObject({
      eventStatus: "https://schema.org/EventRescheduled",
      previousStartDate: "2026-04-26",
    });
  });

  it("should keep EventCancelled and EventPostponed without previousStartDate, as Google asks", () => {
    const walk = fixture("e-dst");
    const moved = history(["2026-03-28T01:30:00+01:00"]);
    const cancelled = eventJsonLd({ ...walk, status: "cancelled", history: moved }, URL);
    expect(cancelled.eventStatus).toBe("https://schema.org/EventCancelled");
    expect(cancelled.previousStartDate).toBeUndefined();
    const postponed = eventJsonLd({ ...walk, status: "postponed", history: moved }, URL);
    expect(postponed.eventStatus).toBe("https://schema.org/EventPostponed");
    expect(postponed.previousStartDate).toBeUndefined();
  });
});
