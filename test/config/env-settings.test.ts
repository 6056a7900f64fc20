import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ACCESSIBILITY_SETTINGS } from "../../src/config/accessibility.ts";
import { API_SETTINGS } from "../../src/config/api.ts";
import { BUILD_SETTINGS } from "../../src/config/build-config.ts";
import { CARDS_SETTINGS } from "../../src/config/cards.ts";
import { DEPLOY_SETTINGS } from "../../src/config/deploy.ts";
import { DIGEST_SETTINGS } from "../../src/config/digest.ts";
import { ENV_FILE_SETTINGS } from "../../src/config/env-file.ts";
import type { EnvSetting } from "../../src/config/env-settings.ts";
import { FEDIVERSE_SETTINGS } from "../../src/config/fediverse.ts";
import { IMAGES_SETTINGS } from "../../src/config/images.ts";
import { INDEXNOW_SETTINGS } from "../../src/config/indexnow.ts";
import { MAP_SETTINGS } from "../../src/config/map.ts";
import { PUBLISH_SETTINGS } from "../../src/config/publish.ts";
import { SCHEDULE_SETTINGS } from "../../src/config/schedule.ts";
import { SITE_SETTINGS } from "../../src/config/site.ts";
import { SITE_LANGUAGES_SETTINGS } from "../../src/config/site-languages.ts";
import { SOURCES_SETTINGS } from "../../src/config/sources.ts";

/*
 * Each reader of src/config exports the list of the variables it reads, which
 * the commands' --help prints (src/cli/command-line.ts). A variable read but
 * not listed would be missing from every command's help.
 */

const CONFIG = join(import.meta.dirname, "../../src/config");

/** Each file that reads the environment, and the list it exports of what it reads. */
const LISTS: Readonly<Record<string, readonly EnvSetting[]>> = {
  "api.ts": API_SETTINGS,
  "build-config.ts": BUILD_SETTINGS,
  "cards.ts": CARDS_SETTINGS,
  "deploy.ts": DEPLOY_SETTINGS,
  "digest.ts": DIGEST_SETTINGS,
  "env-file.ts": ENV_FILE_SETTINGS,
  "fediverse.ts": FEDIVERSE_SETTINGS,
  "images.ts": IMAGES_SETTINGS,
  "indexnow.ts": INDEXNOW_SETTINGS,
  "map.ts": MAP_SETTINGS,
  "accessibility.ts": ACCESSIBILITY_SETTINGS,
  "publish.ts": PUBLISH_SETTINGS,
  "schedule.ts": SCHEDULE_SETTINGS,
  "site.ts": SITE_SETTINGS,
  "site-languages.ts": SITE_LANGUAGES_SETTINGS,
  "sources.ts": SOURCES_SETTINGS,
};

/** `env.NAME`, and `env, "NAME"` as the readers' helpers are called. */
const READS = [/\benv\.([A-Z][A-Z0-9_]+)/g, /\benv,\s*"([A-Z][A-Z0-9_]+)"/g];

function namesReadIn(source: string): Set<string> {
  return new Set(READS.flatMap((pattern) => [...source.matchAll(pattern)].map((m) => m[1] ?? "")));
}

const sources = Object.fromEntries(
  readdirSync(CONFIG)
    .filter((file) => file.endsWith(".ts"))
    .map((file) => [file, readFileSync(join(CONFIG, file), "utf8")]),
);

describe("the settings each reader lists", () => {
  it("should be listed by every file that reads the environment", () => {
    const readers = Object.keys(sources).filter((file) => namesReadIn(sources[file] ?? "").size);
    expect(readers.sort()).toEqual(Object.keys(LISTS).sort());
  });

  it("should name every variable its file reads", () => {
    for (const [file, list] of Object.entries(LISTS)) {
      const listed = new Set(list.map((setting) => setting.name));
      const unlisted = [...namesReadIn(sources[file] ?? "")].filter((name) => !listed.has(name));
      expect(unlisted, file).toEqual([]);
    }
  });

  it("should name only variables some reader reads", () => {
    const read = new Set(Object.values(sources).flatMap((source) => [...namesReadIn(source)]));
    const listed = Object.values(LISTS).flatMap((list) => list.map((setting) => setting.name));
    expect(listed.filter((name) => !read.has(name))).toEqual([]);
  });

  it("should hold the rule it checks (reads are found)", () => {
    const sample = 'const a = env.SITE_URL?.trim(); readInt(env, "EVENT_API_RETRIES", 4, 0, 10);';
    expect([...namesReadIn(sample)]).toEqual(["SITE_URL", "EVENT_API_RETRIES"]);
  });
});
