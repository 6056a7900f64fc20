import { API_SETTINGS } from "../config/api.ts";
import { readPortalOrSources } from "../config/build-config.ts";
import { BUILD_HOOK_SETTINGS } from "../config/every-setting.ts";
import { readShrinkGuardConfig, SHRINK_GUARD_SETTINGS } from "../config/publish.ts";
import { readSiteConfig, SITE_SETTINGS } from "../config/site.ts";
import { SOURCES_SETTINGS } from "../config/sources.ts";
import { rebuildIfChanged } from "../rebuild/rebuild-if-changed.ts";
import { defineCommand } from "./command-line.ts";
import { PUBLISHED_OPTION, publishedLocation } from "./published-option.ts";
import { runCli } from "./run.ts";

/**
 * `npm run rebuild-if-changed [-- --published <folder or URL>]`: asks the
 * portal, or each source of EVENT_SOURCES_FILE, whether anything changed since the published build and POSTs
 * BUILD_HOOK_URL if so (docs/deploy.md). Exit 0 whether or not it changed;
 * 1 with one line when it cannot tell, when the shrink guard would stop the
 * build (ALLOW_SHRINK=1 lets it through), or when the hook failed.
 */
const REBUILD_IF_CHANGED = defineCommand({
  run: "npm run rebuild-if-changed",
  summary:
    "Compares the portal's lists with the published site's build state and POSTs BUILD_HOOK_URL only when something changed that the shrink guard would publish; the last line says unchanged, changed: ... or error: ....",
  options: PUBLISHED_OPTION,
  settings: [
    ...API_SETTINGS,
    ...SOURCES_SETTINGS,
    ...SITE_SETTINGS,
    ...SHRINK_GUARD_SETTINGS,
    // Read below, passed on as it is.
    ...BUILD_HOOK_SETTINGS,
  ],
});

runCli(REBUILD_IF_CHANGED, async ({ values }) => {
  const site = readSiteConfig(process.env);
  const published = publishedLocation(values.published, process.env, "published site");
  const result = await rebuildIfChanged({
    config: readPortalOrSources(process.env),
    published,
    nowMs: site.now.toMillis(),
    hookUrl: process.env.BUILD_HOOK_URL,
    shrinkGuard: readShrinkGuardConfig(process.env),
    log: (line) => console.log(line),
  });
  return result.ok ? 0 : 1;
});
