import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { pingIndexNow } from "../../src/rebuild/indexnow-ping.ts";
import { hoursAfterNow, NOW } from "../helpers/clock.ts";
import { fileTree, useSmallPortalBuilds } from "../helpers/metered-build.ts";
import { startRecorder } from "../helpers/request-recorder.ts";

/*
 * IndexNow through real builds of a small portal (share cards off: not the
 * subject): the key file is published, and a second build a day later lists
 * in its manifest exactly the pages whose bytes changed, which the step after
 * the deploy sends to a stand-in endpoint on loopback.
 */

const KEY = "c0ffee00-indexnow-key";
const SITE_URL = "https://events.example.org";

const { site, build: buildWith } = useSmallPortalBuilds(5, "ecp-indexnow-build-");
const build = (now: string, env: Record<string, string> = { INDEXNOW_KEY: KEY }) =>
  buildWith({ SITE_NOW: now, SHARE_CARDS: "off", SITE_URL, ...env });
const manifest = () =>
  JSON.parse(readFileSync(join(site(), "api/manifest.json"), "utf8")) as Record<string, unknown>;
const pageHashes = async () =>
  new Map(
    [...(await fileTree(site()))]
      .filter(([path]) => path.endsWith("index.html") && !path.startsWith("embed/"))
      .map(([path, content]) => [path, createHash("sha256").update(content).digest("hex")]),
  );

describe("indexnow", () => {
  it("should publish the key file and list exactly the changed pages for IndexNow", async () => {
    await build(NOW);
    expect(readFileSync(join(site(), `${KEY}.txt`), "utf8")).toBe(KEY);
    // The first publish has nothing to compare with: which pages changed is not known.
    expect(manifest().pagesChanged).toBeUndefined();

    const before = await pageHashes();
    await build(hoursAfterNow(36));
    const after = await pageHashes();
    const changed = [...new Set([...before.keys(), ...after.keys()])]
      .filter((path) => before.get(path) !== after.get(path))
      .map((path) => `${SITE_URL}/${path.replace(/index\.html$/, "")}`)
      .sort();
    expect(changed.length).toBeGreaterThan(0);
    expect(changed.length).toBeLessThan(after.size);
    const listed = manifest().pagesChanged as string[];
    expect([...listed].sort()).toEqual(changed);
    expect(manifest().pagesChangedCount).toBe(changed.length);

    const engine = await startRecorder("/indexnow");
    try {
      const result = await pingIndexNow({
        indexNow: { key: KEY, endpoint: engine.url },
        published: site(),
      });
      expect(result.ok).toBe(true);
      const sent = JSON.parse(engine.calls[0]?.body ?? "{}");
      expect(sent).toEqual({
        host: "events.example.org",
        key: KEY,
        keyLocation: `${SITE_URL}/${KEY}.txt`,
        urlList: listed,
      });
    } finally {
      await engine.close();
    }
  });

  it("should publish no key file and list no pages when the setting is off", async () => {
    await build(hoursAfterNow(60), {});
    expect(existsSync(join(site(), `${KEY}.txt`))).toBe(false);
    expect(manifest().pagesChanged).toBeUndefined();
  });
});
