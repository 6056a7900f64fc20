import { beforeEach, describe, expect, it } from "vitest";
import { CHANGED_PAGES_LIMIT } from "../../src/publish/changed-pages.ts";
import { pingIndexNow } from "../../src/rebuild/indexnow-ping.ts";
import { writeDeployInfo } from "../helpers/build-state.ts";
import { startRecorder } from "../helpers/request-recorder.ts";
import { tempDir } from "../helpers/temp-dir.ts";

/*
 * The IndexNow step after a deploy, against a published folder whose
 * manifest lists the changed pages, and a local stand-in endpoint.
 */

const SITE = "https://events.example.org/agenda";
const KEY = "a1b2c3d4-e5f6-4789";
const CHANGED = [`${SITE}/`, `${SITE}/calendars/culture/`, `${SITE}/calendars/culture/events/run/`];

let dir: string;

const publish = (manifest: Record<string, unknown>) => writeDeployInfo(dir, SITE, { manifest });

beforeEach(async () => {
  // Removed when the file ends, as are the recorders (helpers/loopback-server.ts).
  dir = tempDir("ecp-indexnow-");
  await publish({ pagesChanged: CHANGED, pagesChangedCount: CHANGED.length });
});

describe("indexnow-ping", () => {
  it("should send the changed pages with the site's host, the key and the key file's address", async () => {
    const engine = await startRecorder("/indexnow");
    const result = await pingIndexNow({
      indexNow: { key: KEY, endpoint: engine.url },
      published: dir,
    });
    expect(result.ok).toBe(true);
    expect(engine.calls).toHaveLength(1);
    expect(engine.calls[0]?.path).toBe("/indexnow");
    expect(JSON.parse(engine.calls[0]?.body ?? "")).toEqual({
      host: "events.example.org",
      key: KEY,
      // At the site's root: a key file covers the addresses under its folder.
      keyLocation: `${SITE}/${KEY}.txt`,
      urlList: CHANGED,
    });
    expect(result.lines).toEqual([`sent 3 changed pages to IndexNow ${engine.url}`]);
  });

  it("should send nothing when INDEXNOW_KEY is not set", async () => {
    const engine = await startRecorder("/indexnow");
    const result = await pingIndexNow({ indexNow: null, published: dir });
    expect(result.ok).toBe(true);
    expect(engine.calls).toEqual([]);
    expect(result.lines).toEqual(["INDEXNOW_KEY is not set; no search engine told"]);
  });

  it("should send nothing when no page changed, or when the deploy does not say", async () => {
    const engine = await startRecorder("/indexnow");
    const indexNow = { key: KEY, endpoint: engine.url };
    await publish({ pagesChanged: [], pagesChangedCount: 0 });
    expect((await pingIndexNow({ indexNow, published: dir })).ok).toBe(true);
    await publish({});
    const unknown = await pingIndexNow({ indexNow, published: dir });
    expect(unknown.ok).toBe(true);
    expect(unknown.lines[0]).toMatch(/does not say which pages changed/);
    expect(engine.calls).toEqual([]);
  });

  it("should send at most IndexNow's limit in one request, only of the site's host, and say how many were left", async () => {
    const engine = await startRecorder("/indexnow");
    const many = Array.from(
      { length: CHANGED_PAGES_LIMIT + 5 },
      (_, index) => `${SITE}/calendars/c/events/e${index}/`,
    );
    await publish({
      pagesChanged: ["https://elsewhere.example/", 42, ...many],
      pagesChangedCount: 20_000,
    });
    const result = await pingIndexNow({
      indexNow: { key: KEY, endpoint: engine.url },
      published: dir,
    });
    expect(engine.calls).toHaveLength(1);
    const sent = JSON.parse(engine.calls[0]?.body ?? "").urlList as string[];
    expect(sent).toEqual(many.slice(0, CHANGED_PAGES_LIMIT));
    expect(result.lines).toEqual([
      `sent ${CHANGED_PAGES_LIMIT} changed pages to IndexNow ${engine.url}; ${20_000 - CHANGED_PAGES_LIMIT} more changed, left to the engines' own crawl`,
    ]);
  });

  it("should fail with one line saying what a refusal means", async () => {
    const engine = await startRecorder("/indexnow", 403);
    const result = await pingIndexNow({
      indexNow: { key: KEY, endpoint: engine.url },
      published: dir,
    });
    expect(result.ok).toBe(false);
    expect(result.lines).toEqual([
      `IndexNow ${engine.url} refused 3 pages (HTTP 403: the key file was not found at its address, or does not hold the key)`,
    ]);
  });
});
