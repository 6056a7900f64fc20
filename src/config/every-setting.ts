import { ACCESSIBILITY_SETTINGS } from "./accessibility.ts";
import { API_SETTINGS } from "./api.ts";
import { BUILD_SETTINGS } from "./build-config.ts";
import { CARDS_SETTINGS } from "./cards.ts";
import { DEPLOY_SETTINGS } from "./deploy.ts";
import { DIGEST_SETTINGS } from "./digest.ts";
import { ENV_FILE_SETTINGS } from "./env-file.ts";
import { type EnvSetting, envSettings } from "./env-settings.ts";
import { FEDIVERSE_SETTINGS } from "./fediverse.ts";
import { IMAGES_SETTINGS } from "./images.ts";
import { INDEXNOW_SETTINGS } from "./indexnow.ts";
import { MAP_SETTINGS } from "./map.ts";
import { PUBLISH_SETTINGS } from "./publish.ts";
import { SCHEDULE_SETTINGS } from "./schedule.ts";
import { SITE_SETTINGS } from "./site.ts";
import { SITE_LANGUAGES_SETTINGS } from "./site-languages.ts";
import { SOURCES_SETTINGS } from "./sources.ts";

/**
 * Each file of src/config that reads the environment, and the list it
 * exports of what it reads (test/config/env-settings.test.ts holds each
 * list to its file's code): together, every setting the project reads.
 */
export const SETTINGS_BY_READER: Readonly<Record<string, readonly EnvSetting[]>> = {
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

/** What a command reads itself, passed on as it is: `npm run rebuild-if-changed`'s hook. */
export const BUILD_HOOK_SETTINGS = envSettings("Build and deploy", ["BUILD_HOOK_URL"]);

/** The name of every setting the project reads: the readers' and the commands' own. */
const EVERY_SETTING: ReadonlySet<string> = new Set(
  [...Object.values(SETTINGS_BY_READER), BUILD_HOOK_SETTINGS].flatMap((list) =>
    list.map((setting) => setting.name),
  ),
);

/**
 * `shell` without any setting of the project, nor the names `alsoLeaveOut`
 * matches: what a benchmark's or a test's build starts from before it is
 * given its own settings, so that one left in the developer's shell
 * (PAGE_RECORD=on, EVENT_EMBEDS=off) does not change what it measures or
 * checks.
 */
export function withoutProjectSettings(
  shell: NodeJS.ProcessEnv,
  alsoLeaveOut?: RegExp,
): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = { ...shell };
  for (const name of Object.keys(env)) {
    if (EVERY_SETTING.has(name) || alsoLeaveOut?.test(name)) delete env[name];
  }
  return env;
}
