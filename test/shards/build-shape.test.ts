import { describe, expect, it } from "vitest";
import { BUILD_SETTINGS, readBuildConfig } from "../../src/config/build-config.ts";
import { buildShape } from "../../src/shards/build-shape.ts";
import { NOW } from "../helpers/clock.ts";

/*
 * What a shard records of how it was built (src/shards/build-shape.ts), for
 * merge-shards to refuse shards not built alike and name the setting.
 */

const env = {
  EVENT_API_URL: "https://portal.example.org/api/v1",
  EVENT_API_TOKEN: "secret-token-of-the-organization",
  SITE_URL: "https://events.example.org/",
  SITE_NOW: NOW,
};
const shape = (extra: Record<string, string> = {}, target = "_site") =>
  buildShape(readBuildConfig({ ...env, ...extra }), target);

describe("build-shape", () => {
  it("should name each setting as a site owner sets it, and keep nothing secret", () => {
    const { settings } = shape();
    const names = new Set(BUILD_SETTINGS.map((setting) => setting.name));
    expect(settings.map(([name]) => name).filter((name) => !names.has(name))).toEqual(["--target"]);
    expect(Object.fromEntries(settings)).toMatchObject({
      SITE_URL: "https://events.example.org",
      SITE_LANG: "en-GB",
      SITE_NOW: "2026-03-20T12:00:00.000Z",
      DEPLOY_TARGET: "netlify",
      SHARE_CARDS: "auto",
      "--target": "_site",
    });
    const text = JSON.stringify(shape({ EVENT_API_AUTH: "query:key" }));
    expect(text).not.toContain(env.EVENT_API_TOKEN);
    expect(text).not.toContain("portal.example.org");
  });

  it("should differ with every setting that shapes the output, and only with those", () => {
    const digest = shape().digest;
    const shaping: Record<string, string>[] = [
      { SITE_LANG: "nl" },
      { SITE_TITLE: "Other" },
      { DEPLOY_TARGET: "github-pages" },
      { SHARE_CARDS: "off" },
      { EVENT_ICS: "inline" },
      { MAP_TILES_URL: "https://tiles.example.org/{z}/{x}/{y}.png" },
    ];
    for (const extra of shaping) {
      expect(shape(extra).digest, JSON.stringify(extra)).not.toBe(digest);
    }
    expect(shape({}, "elsewhere").digest).not.toBe(digest);
    // Fetching, caching and the shrink guard change no byte of the output.
    const notShaping: Record<string, string>[] = [
      { EVENT_API_TOKEN: "another-token" },
      { EVENT_API_CONCURRENCY: "2" },
      { EVENT_API_CACHE_DIR: "/elsewhere" },
      { SHRINK_GUARD_MAX_DROP: "0.9" },
    ];
    for (const extra of notShaping) {
      expect(shape(extra).digest, JSON.stringify(extra)).toBe(digest);
    }
  });
});
