import { describe, expect, it } from "vitest";
import type { CalendarEvent, Place } from "../../src/model/types.ts";
import { encodeIdSegment } from "../../src/model/url-scheme.ts";
import { assignSegments, normalizeKeyText } from "../../src/places/key-text.ts";
import { PlaceIndex } from "../../src/places/place-index.ts";
import { placeIdentity } from "../../src/places/place-key.ts";
import { calendarEvent } from "../helpers/events.ts";

const address = (formatted: string) => ({
  street: null,
  locality: null,
  region: null,
  postalCode: null,
  country: null,
  formatted,
});

const at = (name: string | null, formatted: string | null, extra: Partial<Place> = {}): Place => ({
  name,
  address: formatted === null ? null : address(formatted),
  geo: null,
  ...extra,
});

/** One event a day from 1 April at `place`, in calendar "c". */
function eventsAt(places: readonly (Place | null)[]) {
  return places.map((location, i) =>
    calendarEvent({
      id: `e${i}`,
      calendarId: "c",
      title: `Event ${i}`,
      start: `2026-04-${String(i + 1).padStart(2, "0")}T19:00:00+02:00`,
      end: `2026-04-${String(i + 1).padStart(2, "0")}T21:00:00+02:00`,
      location,
    }),
  );
}

/** A URL segment every file system takes: what url-scheme.ts keeps of a portal id as is. */
const SAFE_SEGMENT = /^(?:[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?|__[0-9a-f]{64}|_[0-9a-f]{2,64})$/;

describe("place keys", () => {
  it("should ignore case, spacing, punctuation and accents in names and addresses", () => {
    expect(normalizeKeyText("  Café   DE Pijp, ")).toBe("cafe de pijp");
    expect(placeIdentity(at("Café De Pijp", "Ferdinand Bolstraat 12, Amsterdam"))).toBe(
      placeIdentity(at("cafe  de pijp", "ferdinand bolstraat 12 amsterdam")),
    );
    expect(placeIdentity(at("Café De Pijp", "Ferdinand Bolstraat 12"))).not.toBe(
      placeIdentity(at("Café De Pijp", "Ferdinand Bolstraat 14")),
    );
    expect(placeIdentity(at("Town Hall", "Markt 1, Delft"))).not.toBe(
      placeIdentity(at("Town Hall", "Markt 1, Gouda")),
    );
  });

  it("should take the portal's place id over the name and address", () => {
    const renamed = [
      at("Westergas", "Klönneplein 1", { id: "venue-7" }),
      at("Westergas Culture Park", "Klonneplein 1, Amsterdam", { id: "venue-7" }),
    ];
    const index = new PlaceIndex(eventsAt(renamed), []);
    expect(index.all).toHaveLength(1);
    expect(index.all[0]?.key).toBe("venue-7");
    expect(index.all[0]?.path).toBe("/places/venue-7/");
    expect(index.all[0]?.upcoming.map((e) => e.id)).toEqual(["e0", "e1"]);
    // The same name and address without the id is another place.
    const mixed = new PlaceIndex(eventsAt([...renamed, at("Westergas", "Klönneplein 1")]), []);
    expect(mixed.all).toHaveLength(2);
    // Ids become segments as every portal id does.
    const odd = new PlaceIndex(eventsAt([at("Hall", null, { id: "Hall/7 Ü" })]), []);
    expect(odd.all[0]?.key).toBe(encodeIdSegment("Hall/7 Ü"));
  });

  it("should give places without an id a readable, stable key, and none without a name or address", () => {
    const places = [
      at("Community Centre De Pijp", "Ferdinand Bolstraat 12"),
      at("COMMUNITY centre de PIJP", "Ferdinand Bolstraat 12"),
      at(null, "Museumplein, Amsterdam"),
      at("東京文化会館", "上野公園 5-45"),
      { name: null, address: null, geo: { lat: 52.3, lon: 4.9 } },
      null,
    ];
    const index = new PlaceIndex(eventsAt(places), []);
    const keys = index.all.map((place) => place.key);
    expect(keys).toHaveLength(3);
    for (const key of keys) expect(key).toMatch(SAFE_SEGMENT);
    expect(keys.find((key) => key.startsWith("community-centre-de-pijp-"))).toBeDefined();
    expect(keys.find((key) => key.startsWith("museumplein-amsterdam-"))).toBeDefined();
    // A name in another script keeps its own key: the hash alone.
    expect(keys).toContainEqual(expect.stringMatching(/^[0-9a-f]{10}$/));
    // Built again in another order: the same keys.
    const again = new PlaceIndex(eventsAt([...places].reverse()), []);
    expect(again.all.map((place) => place.key).sort()).toEqual([...keys].sort());
    // An event at the same place, typed again otherwise, finds it.
    const [visit] = eventsAt([at("community Centre de Pijp!", "Ferdinand  Bolstraat 12")]);
    expect(index.of(visit as CalendarEvent)?.name).toBe("Community Centre De Pijp");
  });

  it("should settle a clash of keys by the identities alone, whatever the order", () => {
    const clash = new Map([
      ["id\u0000westergas-919cc99253", "westergas-919cc99253"],
      ["at\u0000westergas\u0000", "westergas-919cc99253"],
      ["at\u0000ndsm\u0000", "ndsm-1234567890"],
    ]);
    const settled = assignSegments(clash);
    const reversed = assignSegments(new Map([...clash].reverse()));
    expect([...settled].sort()).toEqual([...reversed].sort());
    // The identity that sorts first keeps the segment; the other gets a whole hash.
    expect(settled.get("at\u0000westergas\u0000")).toBe("westergas-919cc99253");
    expect(settled.get("id\u0000westergas-919cc99253")).toMatch(/^__[0-9a-f]{64}$/);
    expect(settled.get("at\u0000ndsm\u0000")).toBe("ndsm-1234567890");
    expect(new Set(settled.values()).size).toBe(3);
  });

  it("should list a place's upcoming events soonest first and its past ones most recent first, in one pass", () => {
    const hall = at("Hall", "Street 1");
    const [a, b, c, d] = eventsAt([hall, hall, hall, hall]) as CalendarEvent[];
    const index = new PlaceIndex([c, d] as CalendarEvent[], [b, a] as CalendarEvent[]);
    expect(index.all[0]?.upcoming.map((e) => e.id)).toEqual(["e2", "e3"]);
    expect(index.all[0]?.past.map((e) => e.id)).toEqual(["e1", "e0"]);
    expect(index.all[0]?.pastPath).toBe(`${index.all[0]?.path}past/`);
  });
});
