import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { inject } from "vitest";
import { type BuiltSite, buildSite } from "./demo-build.ts";

/**
 * The demo site, built once per test run the first time a suite asks for it
 * (test files run in parallel workers; a lock folder makes the others wait),
 * then shared read-only. Suites that need other settings call buildSite().
 */
export async function demoSite(): Promise<BuiltSite> {
  const root = inject("demoSiteRoot");
  const result = join(root, "result.json");
  try {
    mkdirSync(join(root, "lock"));
  } catch {
    for (let waited = 0; !existsSync(result); waited += 250) {
      if (waited > 300_000) throw new Error("Timed out waiting for the shared demo build");
      await sleep(250);
    }
    return JSON.parse(readFileSync(result, "utf8")) as BuiltSite;
  }
  const site = await buildSite({ EVENT_API_CACHE_DIR: join(root, ".cache") }, join(root, "_site"));
  writeFileSync(result, JSON.stringify(site));
  return site;
}

/** The demo site, failing the suite with the build log if the build failed. */
export async function builtDemoSite(): Promise<BuiltSite> {
  const site = await demoSite();
  if (site.status !== 0)
    throw new Error(`The demo build failed (exit ${site.status}):\n${site.log}`);
  return site;
}
