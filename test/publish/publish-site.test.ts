import { readFileSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { NOW } from "../helpers/clock.ts";
import { type BuildMetrics, counter, useSmallPortalBuilds } from "../helpers/metered-build.ts";

/*
 * The publish step keeps each unchanged file as published (a hard link to
 * the published copy), and must keep only what is still the published
 * file: a copy edited on disk since, even to the same size with its time
 * set back, is written again. Real builds of a small portal through the
 * CLI; what the check costs is counted, not timed (files.rehashed: the
 * published files read again because their stat changed).
 */

const builds = useSmallPortalBuilds(3, "ecp-publish-site-");
const site = builds.site;
const build = (): Promise<BuildMetrics> => builds.build({ SITE_NOW: NOW, SHARE_CARDS: "off" });

/** Another byte in the middle, the size and the modification time as they were. */
function editInPlace(path: string): void {
  const file = join(site(), path);
  const { atime, mtime } = statSync(file);
  const bytes = readFileSync(file);
  const at = Math.floor(bytes.length / 2);
  bytes[at] = bytes[at] === 0x20 ? 0x2e : 0x20;
  writeFileSync(file, bytes);
  utimesSync(file, atime, mtime);
}

describe("publish-site", () => {
  it("should write again published files edited on disk to the same size, and read no other", async () => {
    await build();
    // A feed (kept by its inputs, not rendered), an event page (kept by its inputs before
    // its template is rendered), a calendar's list (rendered, kept by its bytes) and the
    // home page (Eleventy's own, kept when hashed): each way a file is kept.
    const edited = [
      "feed.xml",
      "calendars/cal-001/events/cal-001-e000002/index.html",
      "calendars/cal-001/index.html",
      "index.html",
    ];
    const published = new Map(edited.map((path) => [path, readFileSync(join(site(), path))]));
    const kept = (path: string) => statSync(join(site(), path)).ino;
    const untouched = "calendars/cal-002/index.html";
    const untouchedInode = kept(untouched);
    for (const path of edited) editInPlace(path);

    const second = await build();
    for (const path of edited) {
      expect(readFileSync(join(site(), path)).equals(published.get(path) as Buffer), path).toBe(
        true,
      );
    }
    // Only the edited files were read again; every other file is the published one, kept.
    expect(counter(second, "files.rehashed")).toBe(edited.length);
    expect(kept(untouched)).toBe(untouchedInode);
    expect(second.filesKept).toBeGreaterThan(second.files - 20);

    // Published again: nothing is read to be kept.
    const third = await build();
    expect(counter(third, "files.rehashed")).toBe(0);
    expect(third.filesKept).toBeGreaterThan(third.files - 5);
  }, 300_000);
});
