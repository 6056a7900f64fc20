import { describe, expect, it } from "vitest";
import { readMapSettings } from "../../src/config/map.ts";
import { readSiteConfig } from "../../src/config/site.ts";
import { defaultHeaderRules, headersFor } from "../../src/hosts/headers.ts";
import { withMapTiles } from "../../src/hosts/map-policy.ts";

describe("COLLAPSE_SERIES", () => {
  it("should be off unless set, and refuse what is not a yes or a no", () => {
    expect(readSiteConfig({}).collapseSeries).toBe(false);
    expect(readSiteConfig({ COLLAPSE_SERIES: "true" }).collapseSeries).toBe(true);
    expect(readSiteConfig({ COLLAPSE_SERIES: "1" }).collapseSeries).toBe(true);
    expect(readSiteConfig({ COLLAPSE_SERIES: "no" }).collapseSeries).toBe(false);
    expect(() => readSiteConfig({ COLLAPSE_SERIES: "sometimes" })).toThrow(/COLLAPSE_SERIES/);
  });
});

describe("MAP_TILES_URL", () => {
  it("should be unset by default: no map", () => {
    expect(readSiteConfig({}).map).toBeNull();
  });

  it("should take an https template with {z}, {x} and {y}, or an http one on this machine", () => {
    const map = readMapSettings({
      MAP_TILES_URL: "https://tiles.example.org/{z}/{x}/{y}.png?key=abc",
      MAP_ATTRIBUTION: " © OpenStreetMap contributors ",
    });
    expect(map).toEqual({
      tilesUrl: "https://tiles.example.org/{z}/{x}/{y}.png?key=abc",
      origin: "https://tiles.example.org",
      attribution: "© OpenStreetMap contributors",
    });
    expect(
      readMapSettings({ MAP_TILES_URL: "http://127.0.0.1:8081/{z}/{x}/{y}.png" })?.origin,
    ).toBe("http://127.0.0.1:8081");
    for (const bad of [
      "http://tiles.example.org/{z}/{x}/{y}.png",
      "https://tiles.example.org/{z}/{x}.png",
      "https://user:pw@tiles.example.org/{z}/{x}/{y}.png",
      "tiles",
    ]) {
      expect(() => readMapSettings({ MAP_TILES_URL: bad }), bad).toThrow(/MAP_TILES_URL/);
    }
  });

  it("should let the place pages, and only them, load images from a tile server the policy does not admit yet", () => {
    const local = readMapSettings({ MAP_TILES_URL: "http://127.0.0.1:8081/{z}/{x}/{y}.png" });
    const rules = withMapTiles(defaultHeaderRules(), local);
    const placeCsp = headersFor("/places/amstelpark-a8c25a2b59/", rules)["Content-Security-Policy"];
    expect(placeCsp).toMatch(/img-src 'self' https: data: http:\/\/127\.0\.0\.1:8081;/);
    expect(headersFor("/places/", rules)["Content-Security-Policy"]).toBe(placeCsp);
    for (const path of ["/", "/calendars/culture/", "/search/", "/embed/culture/"]) {
      expect(headersFor(path, rules)).toEqual(headersFor(path, defaultHeaderRules()));
    }
    // An https tile server is within img-src already: nothing changes.
    const remote = readMapSettings({ MAP_TILES_URL: "https://tiles.example.org/{z}/{x}/{y}.png" });
    expect(withMapTiles(defaultHeaderRules(), remote)).toEqual(defaultHeaderRules());
    expect(withMapTiles(defaultHeaderRules(), null)).toBe(defaultHeaderRules());
  });
});
