import { getStore } from "@netlify/blobs";
import { readPortalOrSources } from "../../src/config/build-config.ts";
import { readShrinkGuardConfig } from "../../src/config/publish.ts";
import { readSiteConfig } from "../../src/config/site.ts";
import { PublisherError } from "../../src/errors.ts";
import { runLogged } from "../../src/hosts/function-run.ts";
import { rebuildIfChanged } from "../../src/rebuild/rebuild-if-changed.ts";
import { type JsonStore, storedMemory } from "../../src/rebuild/requested-build.ts";
import { triggerRebuild } from "../../src/rebuild/trigger-rebuild.ts";

/**
 * Netlify scheduled function: every minute (the schedule in netlify.toml,
 * [functions."scheduled-rebuild"], the one place the build also reads it
 * from) it asks the portal whether anything changed since the published build
 * and starts a build through BUILD_HOOK_URL only if so (docs/deploy.md).
 * REBUILD_ALWAYS=1 skips the check: plain periodic rebuilds.
 *
 * Netlify stops the function after 30 seconds: the check gets 20 (state and
 * portal), the hook 5. The variables it reads must be set for the Functions
 * scope: EVENT_API_* or EVENT_SOURCES_FILE and its sources' tokens (as for the build), SITE_URL and BUILD_HOOK_URL, and the
 * shrink guard's (SHRINK_GUARD_*, ALLOW_SHRINK) when they differ from the
 * defaults: a change the guard would stop requests no build.
 */
export const CHECK_DEADLINE_MS = 20_000;
export const HOOK_DEADLINE_MS = 5_000;

export default function scheduledRebuild(_request: Request): Promise<Response> {
  return checkAndRequest(process.env, requestedBuildStore());
}

/**
 * Where the function remembers the build it last requested (Netlify Blobs,
 * src/rebuild/requested-build.ts), so that a check every minute requests one
 * build per change, not one per minute while the build runs. Null outside
 * Netlify (no Blobs there): every check that finds a change requests a build.
 */
function requestedBuildStore(): JsonStore | null {
  try {
    return getStore({ name: "rebuild", consistency: "strong" });
  } catch (error) {
    if (error instanceof Error && error.name === "MissingBlobsEnvironmentError") return null;
    throw error;
  }
}

/** The function's work, with the store given (tests give a local one). */
export function checkAndRequest(
  env: NodeJS.ProcessEnv,
  store: JsonStore | null,
): Promise<Response> {
  return runLogged("scheduled-rebuild", async (log) => {
    if (env.REBUILD_ALWAYS?.trim() === "1") {
      const result = await triggerRebuild({
        hookUrl: env.BUILD_HOOK_URL,
        timeoutMs: HOOK_DEADLINE_MS,
        log: () => undefined,
      });
      log(`REBUILD_ALWAYS=1: ${result.message}`);
      return result.ok;
    }
    const published = env.SITE_URL?.trim() || env.URL?.trim();
    if (!published) throw new PublisherError("SITE_URL is not set for the Functions scope.");
    if (!env.BUILD_HOOK_URL?.trim()) {
      throw new PublisherError(
        "BUILD_HOOK_URL is not set; no rebuild can be started. Create a build hook (Site configuration > Build & deploy > Continuous deployment > Build hooks) and set BUILD_HOOK_URL for the Functions scope.",
      );
    }
    const result = await rebuildIfChanged({
      config: readPortalOrSources(env),
      published,
      // The clock, unless SITE_NOW pins it (as for the build).
      nowMs: readSiteConfig(env).now.toMillis(),
      hookUrl: env.BUILD_HOOK_URL,
      shrinkGuard: readShrinkGuardConfig(env),
      deadlineMs: CHECK_DEADLINE_MS,
      hookTimeoutMs: HOOK_DEADLINE_MS,
      log,
      ...(store ? { requested: storedMemory(store) } : {}),
    });
    return result.ok;
  });
}
