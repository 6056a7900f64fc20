import { beforeEach, describe, expect, it } from "vitest";
import { pingHub } from "../../src/rebuild/websub-ping.ts";
import { writeDeployInfo } from "../helpers/build-state.ts";
import { NOW } from "../helpers/clock.ts";
import { writeTree } from "../helpers/files.ts";
import { startRecorder } from "../helpers/request-recorder.ts";
import { tempDir } from "../helpers/temp-dir.ts";

/*
 * The ping after a deploy, against a published folder whose build state
 * names three changed feeds, and a local stand-in hub.
 */

const SITE = "https://events.example.org";
const CHANGED = ["/feed.xml", "/atom.xml", "/calendars/culture/feed.json"];

let dir: string;

beforeEach(async () => {
  // Removed when the file ends, as are the recorders (helpers/loopback-server.ts).
  dir = tempDir("ecp-ping-");
  await writeDeployInfo(dir, SITE, {
    feeds: Object.fromEntries(CHANGED.map((path) => [path, "sha256-1"])),
    // The one build-info file says which feeds this build changed, as addresses.
    manifest: { feedsChanged: CHANGED.map((path) => `${SITE}${path}`) },
  });
});

describe("websub-ping", () => {
  it("should ping the hub once per changed feed", async () => {
    const hub = await startRecorder("/hub");
    const result = await pingHub({ hub: hub.url, published: dir });
    expect(result.ok).toBe(true);
    expect(result.pinged).toEqual(CHANGED.map((path) => `${SITE}${path}`).sort());
    expect(result.lines).toEqual([`pinged ${hub.url} for 3 of 3 changed feeds`]);
  });

  it("should read the changed feeds of a deploy made by an earlier version from its build state", async () => {
    await writeTree(dir, {
      "api/manifest.json": JSON.stringify({ version: 1, generatedAt: NOW, siteUrl: SITE }),
      "api/build-state.json": JSON.stringify({
        version: 1,
        generatedAt: NOW,
        siteUrl: SITE,
        api: "sha256-0",
        portal: null,
        nextChange: null,
        feeds: { "/feed.xml": "sha256-1" },
        feedsChanged: ["/feed.xml"],
      }),
    });
    const hub = await startRecorder("/hub");
    const result = await pingHub({ hub: hub.url, published: dir });
    expect(result.pinged).toEqual([`${SITE}/feed.xml`]);
  });

  it("should say in one line that the hub could not be reached, not once per feed", async () => {
    const result = await pingHub({ hub: "http://127.0.0.1:9/hub", published: dir });
    expect(result.ok).toBe(false);
    expect(result.lines).toEqual([
      "hub http://127.0.0.1:9/hub: unreachable",
      "pinged http://127.0.0.1:9/hub for 0 of 3 changed feeds; 3 failed",
    ]);
  });

  it("should name each feed the hub refused", async () => {
    const hub = await startRecorder("/hub", 422);
    const result = await pingHub({ hub: hub.url, published: dir });
    expect(result.lines).toHaveLength(4);
    expect(result.lines[0]).toBe(`hub ${hub.url} refused ${SITE}/atom.xml (HTTP 422)`);
  });
});
