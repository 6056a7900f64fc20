import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildFixtureSite, removeFixtureSite } from "../helpers/plugin-site.ts";
import { parseFeeds } from "../helpers/python-readers.ts";
import { hasPythonModule } from "../helpers/system-packages.ts";
import { siteWith, TEST_SITE } from "../helpers/test-site.ts";

// Evaluated at collection: skips with a printed reason here, throws in CI.
const hasFeedparser = hasPythonModule("feedparser");
const HUB = "https://hub.example.org/";

let withHub = { outDir: "", files: [] as string[] };
let without = { outDir: "", files: [] as string[] };

beforeAll(async () => {
  withHub = await buildFixtureSite(undefined, siteWith({ websubHub: HUB }));
  without = await buildFixtureSite(undefined, TEST_SITE);
});

afterAll(async () => {
  await removeFixtureSite(withHub.outDir);
  await removeFixtureSite(without.outDir);
});

describe("feeds WebSub discovery", () => {
  it.skipIf(!hasFeedparser)(
    "should advertise the hub and the feed itself in every RSS and Atom file, as feedparser reads them",
    () => {
      const xml = withHub.files.filter(
        (file) => file.endsWith(".xml") && !file.includes("sitemap"),
      );
      expect(xml.length).toBeGreaterThanOrEqual(2 * 6);
      const feeds = parseFeeds(xml.map((file) => join(withHub.outDir, file)));
      for (const feed of feeds) {
        expect(feed.bozo, `${feed.path}: ${feed.bozoException}`).toBe(false);
        const links = feed.feed.links;
        expect(
          links.filter((link) => link.rel === "hub").map((link) => link.href),
          feed.path,
        ).toEqual([HUB]);
        expect(links.find((link) => link.rel === "self")?.href, feed.path).toBe(
          feed.path.replace(withHub.outDir, TEST_SITE.url),
        );
      }
    },
  );

  it("should list the hub in every JSON Feed, next to its own address", () => {
    const json = withHub.files.filter((file) => file.endsWith("feed.json"));
    expect(json.length).toBeGreaterThanOrEqual(6);
    for (const file of json) {
      const feed = JSON.parse(readFileSync(join(withHub.outDir, file), "utf8"));
      expect(feed.hubs, file).toEqual([{ type: "WebSub", url: HUB }]);
      expect(feed.feed_url, file).toBe(`${TEST_SITE.url}/${file}`);
    }
  });

  it("should name no hub when WEBSUB_HUB is off (the default)", () => {
    for (const file of without.files.filter((f) => /(feed\.xml|atom\.xml|feed\.json)$/.test(f))) {
      const text = readFileSync(join(without.outDir, file), "utf8");
      expect(text, file).not.toMatch(/rel="hub"|"hubs"/);
    }
  });
});
