import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { afterAll, describe, expect, it, vi } from "vitest";
import { connectPortal } from "../../src/cli/connect-portal.ts";
import { renderSite } from "../../src/cli/render-site.ts";
import { readBuildConfig } from "../../src/config/build-config.ts";
import { discardStaging } from "../../src/publish/publish.ts";
import { WHOLE_BUILD } from "../../src/shards/shard.ts";
import { NOW } from "../helpers/clock.ts";

// Which of the site's objects are still alive: registered as siteDataFrom
// makes them, the callback holding nothing of them.
const collected = new Set<string>();
const registry = new FinalizationRegistry((name: string) => collected.add(name));

vi.mock("../../src/site/load.ts", async (importOriginal) => {
  const original = await importOriginal<typeof import("../../src/site/load.ts")>();
  return {
    ...original,
    siteDataFrom: async (...args: Parameters<typeof original.siteDataFrom>) => {
      const loaded = await original.siteDataFrom(...args);
      registry.register(loaded.data, "data");
      registry.register(loaded.data.events[0] as object, "an event");
      return loaded;
    },
  };
});

const root = mkdtempSync(join(tmpdir(), "ecp-render-site-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A full garbage collection, as `node --expose-gc` would offer it. */
function collectGarbage(): void {
  setFlagsFromString("--expose-gc");
  (runInNewContext("gc") as () => void)();
}

describe("renderSite", () => {
  it("should let the site's data go once the site is rendered, before it is published", async () => {
    // At 100,000 events the data and what is worked out per event are most
    // of the heap; the publish step after rendering holds maps of every file.
    const config = readBuildConfig({
      SITE_URL: "http://localhost:8080",
      SITE_NOW: NOW,
      EVENT_API_CACHE_DIR: join(root, "cache"),
      SHARE_CARDS: "off",
    });
    const output = join(root, "site");
    const portal = await connectPortal(config);
    const rendered = await renderSite({
      config,
      portal,
      cards: null,
      shard: WHOLE_BUILD,
      sharded: false,
      output,
      target: output,
    });
    // A first build into an empty folder: there is nothing to keep, so it renders.
    if (rendered.kind !== "rendered") throw new Error("The first build found a published site.");
    try {
      // What publishing needs came through.
      expect(rendered.calendars).toBeGreaterThan(0);
      expect(rendered.written?.files).toBeGreaterThan(1000);
      for (let turn = 0; turn < 20 && collected.size < 2; turn++) {
        collectGarbage();
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      expect([...collected].sort()).toEqual(["an event", "data"]);
    } finally {
      await discardStaging(rendered.staging);
    }
  });
});
