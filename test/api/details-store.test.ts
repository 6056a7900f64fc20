import { describe, expect, it } from "vitest";
import { DetailsStore } from "../../src/api/details-store.ts";
import { type CachedResponse, ResponseCache } from "../../src/api/response-cache.ts";
import { tempDir } from "../helpers/temp-dir.ts";

const KEY = "details https://portal.example.org/calendars/community";

function response(title: string): CachedResponse {
  return { body: { title }, etag: `"${title}"`, lastModified: null, link: null, totalCount: null };
}

describe("DetailsStore", () => {
  it("should keep a body's digest with it while the portal sends or confirms that body, and drop it with a new one", async () => {
    const cache = new ResponseCache(tempDir("ecp-details-store-"), (text) => text);
    const store = DetailsStore.load(cache, KEY);
    const walk = response("Walk");
    store.set("e1", walk);
    expect(store.digest("e1")).toBeUndefined();
    store.setDigest("e1", "digest-of-walk");
    // Confirmed (304): the same body, the same digest.
    store.set("e1", walk);
    expect(store.digest("e1")).toBe("digest-of-walk");
    await store.save(new Set(["e1"]));

    // The next build reads it back with its body.
    const next = DetailsStore.load(cache, KEY);
    expect(next.get("e1")?.value).toEqual(walk);
    expect(next.digest("e1")).toBe("digest-of-walk");
    // A new body: no digest until one is made for it.
    next.set("e1", response("Walk, moved indoors"));
    expect(next.digest("e1")).toBeUndefined();
    // No record, no digest kept.
    next.setDigest("gone", "digest");
    expect(next.digest("gone")).toBeUndefined();
  });
});
