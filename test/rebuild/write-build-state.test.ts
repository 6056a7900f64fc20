import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { PortalLists } from "../../src/api/list-recorder.ts";
import { readApiConfig } from "../../src/config/api.ts";
import { readPublishConfig } from "../../src/config/publish.ts";
import { readSiteConfig } from "../../src/config/site.ts";
import { EMPTY_FIELD_MAP } from "../../src/model/field-map.ts";
import { writeBuildState } from "../../src/rebuild/write-build-state.ts";
import { NOW } from "../helpers/clock.ts";
import { DEMO_SITE_URL } from "../helpers/demo-expectations.ts";
import { tempDir } from "../helpers/temp-dir.ts";

const TOKEN = "clubs-secret-token-4711";

/** A source's lists as a hostile portal could send them: its token echoed in a validator and an id. */
const echoed: PortalLists = {
  calendarList: {
    pages: [{ path: "event-calendars", etag: `"${TOKEN}"`, lastModified: null, items: 1 }],
    calendars: { sport: "v1" },
  },
  calendars: {
    sport: {
      pages: [
        { path: "event-calendar/sport/events", etag: `W/"${TOKEN}"`, lastModified: null, items: 1 },
      ],
      pairs: [[[`run-${TOKEN}`, "v1"]]],
    },
  },
};

describe("write-build-state", () => {
  it("should record each feed's digest as the build knows it, and name in the manifest the feeds that changed", async () => {
    const site = readSiteConfig({ SITE_NOW: NOW, SITE_URL: DEMO_SITE_URL });
    const config = {
      site,
      publish: readPublishConfig({ PREVIOUS_MANIFEST_URL: "none" }, DEMO_SITE_URL),
    };
    const api = readApiConfig({ EVENT_API_URL: "https://portal.invalid", EVENT_API_TOKEN: "-" });
    /** A build's folder, its build state written from `files`, the one before it in `output`. */
    const build = async (files: Record<string, string>, output?: string) => {
      const staging = tempDir("write-build-state-");
      mkdirSync(join(staging, "api"), { recursive: true });
      writeFileSync(join(staging, "api", "manifest.json"), "{}\n");
      await writeBuildState({
        staging,
        files: new Map(Object.entries(files).map(([path, hash]) => [path, { hash }])),
        output: output ?? staging,
        config,
        api,
        lists: null,
        nextChange: null,
        log: () => undefined,
      });
      const read = (path: string) => JSON.parse(readFileSync(join(staging, path), "utf8"));
      return { staging, state: read("api/build-state.json"), manifest: read("api/manifest.json") };
    };
    const first = await build({
      "feed.xml": "site-feed-1",
      "calendars/culture/atom.xml": "culture-atom-1",
      "index.html": "home-1",
    });
    expect(first.state.feeds).toEqual({
      "/calendars/culture/atom.xml": "culture-atom-1",
      "/feed.xml": "site-feed-1",
    });
    const second = await build(
      {
        "feed.xml": "site-feed-1",
        "calendars/culture/atom.xml": "culture-atom-2",
        "calendars/culture/feed.json": "culture-json-1",
        "index.html": "home-2",
      },
      first.staging,
    );
    expect(second.manifest.feedsChanged).toEqual([
      `${DEMO_SITE_URL}/calendars/culture/atom.xml`,
      `${DEMO_SITE_URL}/calendars/culture/feed.json`,
    ]);
  });

  it("should keep every source's token out of the build state of a site of several sources", async () => {
    const staging = tempDir("write-build-state-");
    mkdirSync(join(staging, "api"), { recursive: true });
    writeFileSync(join(staging, "api", "manifest.json"), "{}\n");
    const site = readSiteConfig({ SITE_NOW: NOW, SITE_URL: DEMO_SITE_URL });
    await writeBuildState({
      staging,
      files: new Map(),
      output: staging,
      config: {
        site,
        publish: readPublishConfig({ PREVIOUS_MANIFEST_URL: "none" }, DEMO_SITE_URL),
      },
      api: readApiConfig({ EVENT_API_URL: "https://sources.invalid", EVENT_API_TOKEN: "-" }),
      lists: null,
      sources: [
        {
          id: "clubs",
          kind: "portal",
          config: {
            baseUrl: "https://clubs.example.org/api",
            calendars: null,
            fieldMap: EMPTY_FIELD_MAP,
            token: TOKEN,
          },
          lists: echoed,
        },
      ],
      nextChange: null,
      log: () => undefined,
    });
    const files = readdirSync(join(staging, "api"), { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => readFileSync(join(entry.parentPath, entry.name), "utf8"));
    expect(files.join("\n")).toContain("/api/build-state/clubs~sport.json");
    for (const text of files) expect(text).not.toContain(TOKEN);
  });
});
