import { describe, expect, it } from "vitest";
import { MapView } from "../../src/render/map-view.ts";

/*
 * One record of a site's files read as the map of their hashes, sizes or
 * inputs (src/publish/output-files.ts): each view must answer as that map
 * would, and follow the record rather than copy it.
 */

const record = () =>
  new Map([
    ["index.html", { hash: "h1", bytes: 5, inputs: "d1" }],
    ["feed.xml", { hash: "h2", bytes: 3 }],
    ["calendar.ics", { hash: "h3", bytes: 7, inputs: "d3" }],
  ]);

describe("MapView", () => {
  it("should answer as the map of each file's value", () => {
    const files = record();
    const hashes = new MapView(files, (file) => file.hash, { everyKey: true });
    expect(new Map(hashes)).toEqual(
      new Map([
        ["index.html", "h1"],
        ["feed.xml", "h2"],
        ["calendar.ics", "h3"],
      ]),
    );
    expect(hashes.size).toBe(3);
    expect(hashes.get("feed.xml")).toBe("h2");
    expect(hashes.has("missing")).toBe(false);
    expect([...hashes.keys()]).toEqual(["index.html", "feed.xml", "calendar.ics"]);
    expect([...hashes.values()]).toEqual(["h1", "h2", "h3"]);
    // A view, not a copy: what the record holds now.
    files.set("new.html", { hash: "h4", bytes: 1 });
    expect(hashes.get("new.html")).toBe("h4");
    expect(hashes.size).toBe(4);
  });

  it("should leave out the keys without a value, by value or by key", () => {
    const files = record();
    const inputs = new MapView(files, (file) => file.inputs);
    expect(inputs.size).toBe(2);
    expect(inputs.has("feed.xml")).toBe(false);
    expect(inputs.get("feed.xml")).toBeUndefined();
    expect([...inputs]).toEqual([
      ["index.html", "d1"],
      ["calendar.ics", "d3"],
    ]);
    expect([...inputs.keys()]).toEqual(["index.html", "calendar.ics"]);
    const seen: string[] = [];
    inputs.forEach((value, key, map) => {
      expect(map).toBe(inputs);
      seen.push(`${key}=${value}`);
    });
    expect(seen).toEqual(["index.html=d1", "calendar.ics=d3"]);

    const notFeeds = new MapView(files, (file, path) => (path.endsWith(".xml") ? undefined : file));
    expect([...notFeeds.keys()]).toEqual(["index.html", "calendar.ics"]);
    expect(notFeeds.get("feed.xml")).toBeUndefined();
    expect(notFeeds.get("index.html")).toBe(files.get("index.html"));
  });
});
