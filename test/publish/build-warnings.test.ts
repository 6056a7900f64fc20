import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { publishedStatePath } from "../../src/changes/state-location.ts";
import {
  type BuildWarnings,
  buildWarningsPath,
  writeBuildWarnings,
} from "../../src/publish/build-warnings.ts";
import { NOW } from "../helpers/clock.ts";
import { tempDir } from "../helpers/temp-dir.ts";

const SITE = "https://events.example.org";

const list = (warnings: readonly string[]): BuildWarnings => ({
  version: 1,
  siteUrl: SITE,
  output: "_site",
  now: NOW,
  warnings,
});

describe("build-warnings", () => {
  it("should keep a site's warnings beside its published state, one list per output folder", () => {
    const cache = tempDir();
    const path = buildWarningsPath(cache, "_site", SITE);
    expect(dirname(path)).toBe(dirname(publishedStatePath(cache, "_site", SITE)));
    expect(buildWarningsPath(cache, "/tmp/trial", SITE)).not.toBe(path);
    expect(buildWarningsPath(cache, "_site", "https://other.example.org")).not.toBe(path);
  });

  it("should replace the last build's list whole, an empty one too", async () => {
    const path = buildWarningsPath(tempDir(), "_site", SITE);
    await writeBuildWarnings(path, list(['calendar "a", event "b": skipped (no title)', "two"]));
    expect(JSON.parse(readFileSync(path, "utf8"))).toEqual(
      list(['calendar "a", event "b": skipped (no title)', "two"]),
    );
    await writeBuildWarnings(path, list([]));
    expect(JSON.parse(readFileSync(path, "utf8")).warnings).toEqual([]);
    // No temporary file is left beside it.
    expect(readdirSync(dirname(path))).toEqual(["build-warnings.json"]);
    expect(join(dirname(path), "build-warnings.json")).toBe(path);
  });
});
