import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  pruneResponseCache,
  ResponseCache,
  UNUSED_DAYS,
  UNUSED_RECORD,
} from "../../src/api/response-cache.ts";
import { tempDir } from "../helpers/temp-dir.ts";

const DAY_MS = 24 * 60 * 60 * 1000;
const T0 = Date.parse("2026-03-20T12:00:00Z");
const OLD = "list https://old.example.org/v1/event-calendars";
const NEW = "list https://new.example.org/v1/event-calendars";

const entries = (dir: string) =>
  readdirSync(dir).filter((name) => name.startsWith("eleventy-fetch-"));

/** The names of the files a build reads `keys` through, as a build's fetch records them. */
function usedBy(dir: string, keys: readonly string[]): Set<string> {
  const used = new Set<string>();
  const cache = new ResponseCache(dir, (text) => text, { used });
  for (const key of keys) cache.get(key);
  return used;
}

async function folderOf(keys: readonly string[]): Promise<string> {
  const dir = tempDir("ecp-response-cache-");
  const cache = new ResponseCache(dir, (text) => text);
  for (const key of keys) await cache.set(key, { key });
  writeFileSync(join(dir, "normalized-events.json"), "{}");
  return dir;
}

describe("pruneResponseCache", () => {
  it("should remove an entry no build read or wrote for 30 days, and nothing else of the folder", async () => {
    const dir = await folderOf([OLD, NEW]);
    // Each entry is two files: its metadata and its contents.
    expect(entries(dir)).toHaveLength(4);
    const used = usedBy(dir, [NEW]);
    expect(used.size).toBe(1);

    expect(pruneResponseCache(dir, used, T0).files).toBe(0);
    expect(pruneResponseCache(dir, used, T0 + (UNUSED_DAYS - 1) * DAY_MS).files).toBe(0);
    expect(entries(dir)).toHaveLength(4);
    expect(pruneResponseCache(dir, used, T0 + UNUSED_DAYS * DAY_MS).files).toBe(2);

    const after = new ResponseCache(dir, (text) => text);
    expect(after.get(OLD)).toBeNull();
    expect(after.get(NEW)?.value).toEqual({ key: NEW });
    expect(readdirSync(dir)).toContain("normalized-events.json");
  });

  it("should count the days again from an entry's last use, as when a trial build shared the folder", async () => {
    const dir = await folderOf([OLD, NEW]);
    pruneResponseCache(dir, usedBy(dir, [NEW]), T0);
    // The site's own build uses it again, then other builds for a while.
    pruneResponseCache(dir, usedBy(dir, [OLD, NEW]), T0 + 10 * DAY_MS);
    pruneResponseCache(dir, usedBy(dir, [NEW]), T0 + 20 * DAY_MS);
    expect(pruneResponseCache(dir, usedBy(dir, [NEW]), T0 + 45 * DAY_MS).files).toBe(0);
    expect(pruneResponseCache(dir, usedBy(dir, [NEW]), T0 + 50 * DAY_MS).files).toBe(2);
  });

  it("should start the days again from an unreadable record, and leave a folder that is not there", async () => {
    const dir = await folderOf([OLD, NEW]);
    pruneResponseCache(dir, usedBy(dir, [NEW]), T0);
    writeFileSync(join(dir, UNUSED_RECORD), "{ not json");
    expect(pruneResponseCache(dir, usedBy(dir, [NEW]), T0 + 40 * DAY_MS).files).toBe(0);
    expect(pruneResponseCache(dir, usedBy(dir, [NEW]), T0 + 70 * DAY_MS).files).toBe(2);
    expect(pruneResponseCache(join(dir, "none"), new Set(), T0)).toEqual({ files: 0, bytes: 0 });
  });
});
