import { describe, expect, it } from "vitest";
import { placeLinks } from "../../src/places/place-links.ts";

const ADDRESS = {
  street: "Van Woustraat 101",
  locality: "Amsterdam",
  region: null,
  postalCode: "1074 AE",
  country: "NL",
  formatted: "Van Woustraat 101, 1074 AE Amsterdam, NL",
};

describe("directions links", () => {
  it("should send the name and address, encoded, and a geo: URI only with coordinates", () => {
    const links = placeLinks({ name: "Café 't Hoekje & Co", address: ADDRESS, geo: null });
    const text = "Café 't Hoekje & Co, Van Woustraat 101, 1074 AE Amsterdam, NL";
    expect(links?.geo).toBeNull();
    expect(new URL(links?.googleMaps ?? "").searchParams.get("destination")).toBe(text);
    expect(new URL(links?.googleMaps ?? "").searchParams.get("api")).toBe("1");
    expect(new URL(links?.appleMaps ?? "").searchParams.get("daddr")).toBe(text);
    expect(new URL(links?.openStreetMap ?? "").searchParams.get("query")).toBe(text);
    // Nothing of the name leaks into the URL unencoded.
    for (const link of [links?.googleMaps, links?.appleMaps, links?.openStreetMap]) {
      expect(link).not.toMatch(/[ '&]Co|Hoekje /);
    }
  });

  it("should point at the coordinates when there are some", () => {
    const links = placeLinks({
      name: "Boathouse",
      address: null,
      geo: { lat: 52.3427, lon: 4.905 },
    });
    expect(links?.geo).toBe("geo:52.3427,4.905");
    expect(links?.openStreetMap).toBe(
      "https://www.openstreetmap.org/?mlat=52.3427&mlon=4.905#map=17/52.3427/4.905",
    );
    // Without an address, directions go to the point.
    expect(new URL(links?.googleMaps ?? "").searchParams.get("destination")).toBe("52.3427,4.905");
    expect(placeLinks({ name: null, address: null, geo: null })).toBeNull();
  });
});
