import { describe, expect, it } from "vitest";
import { DetailsStore } from "../../src/api/details-store.ts";
import { type CachedResponse, ResponseCache } from "../../src/api/response-cache.ts";
import { tempDir } from "../helpers/temp-dir.ts";

const KEY = "details https://portal.example.org/calendars/community";
const FIELD_MAP = "field map 1";

function response(title: string): CachedResponse {
  return { body: { title }, etag: `"${title}"`, lastModified: null, link: null, totalCount: null };
}

describe("DetailsStore", () => {
  it("should keep a body's digest with it while the portal sends or confirms that body, and drop it with a new one", async () => {
    const cache = new ResponseCache(tempDir("ecp-details-store-"), (text) => text);
    const store = DetailsStore.load(cache, KEY, FIELD_MAP);
    const walk = response("Walk");
    store.set("e1", walk);
    expect(store.digest("e1")).toBeUndefined();
    store.setDigest("e1", "digest-of-walk");
    // Confirmed (304): the same body, the same digest.
    store.set("e1", walk);
    expect(store.digest("e1")).toBe("digest-of-walk");
    await store.save(new Set(["e1"]));

    // The next build reads it back with its body.
    const next = DetailsStore.load(cache, KEY, FIELD_MAP);
    expect(next.get("e1")?.value).toEqual(walk);
    expect(next.digest("e1")).toBe("digest-of-walk");
    // Confirmed again, as a body read back: still the same body.
    next.set("e1", response("Walk"));
    expect(next.digest("e1")).toBe("digest-of-walk");
    // A new body: no digest until one is made for it.
    next.set("e1", response("Walk, moved indoors"));
    expect(next.digest("e1")).toBeUndefined();
    // No record, no digest kept.
    next.setDigest("gone", "digest");
    expect(next.digest("gone")).toBeUndefined();
  });

  it("should keep each body as its text, with the version read from it, under the field map it was read with", async () => {
    const cache = new ResponseCache(tempDir("ecp-details-store-"), (text) => text);
    const store = DetailsStore.load(cache, KEY, FIELD_MAP);
    const walk = response("Walk");
    store.set("e1", walk);
    store.setVersion("e1", { revision: 3, updatedAt: "2026-11-01T10:00:00Z" });
    await store.save(new Set(["e1"]));

    const next = DetailsStore.load(cache, KEY, FIELD_MAP);
    // The body's own text, as JSON writes it: what the client digests and parses on demand.
    expect(next.text("e1")).toBe(JSON.stringify(walk.body));
    expect(next.version("e1")).toEqual({ revision: 3, updatedAt: "2026-11-01T10:00:00Z" });
    // Under another field map, the version may say otherwise: not used, the body kept.
    const remapped = DetailsStore.load(cache, KEY, "field map 2");
    expect(remapped.version("e1")).toBeUndefined();
    expect(remapped.get("e1")?.value).toEqual(walk);
    // A new body drops the version read from the old one.
    next.set("e1", response("Walk, moved indoors"));
    expect(next.version("e1")).toBeUndefined();
  });

  it("should read the details an earlier version kept, each body parsed in the entry, without their versions", async () => {
    const dir = tempDir("ecp-details-store-");
    const cache = new ResponseCache(dir, (text) => text);
    const walk = response("Walk");
    await cache.set(KEY, { e1: { response: walk, savedAt: 1, digest: "digest-of-walk" } });
    const store = DetailsStore.load(cache, KEY, FIELD_MAP);
    expect(store.get("e1")?.value).toEqual(walk);
    expect(store.text("e1")).toBe(JSON.stringify(walk.body));
    expect(store.digest("e1")).toBe("digest-of-walk");
    expect(store.version("e1")).toBeUndefined();
    // Damaged entries are left out, not trusted.
    await cache.set(KEY, {
      format: 2,
      versionKey: FIELD_MAP,
      entries: { e1: { body: 42, savedAt: 1 }, e2: { body: "{", savedAt: 1 } },
    });
    const damaged = DetailsStore.load(cache, KEY, FIELD_MAP);
    expect(damaged.text("e1")).toBeUndefined();
    expect(damaged.get("e2")).toBeNull();
  });
});
