import { existsSync, readFileSync, watch } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, inject } from "vitest";
import type { BuiltSite } from "./demo-build.ts";
import { DEMO_RESULT } from "./global-setup.ts";
import { type RunningServer, startStaticServer } from "./static-server.ts";

/**
 * The demo site, built once per test run by the demo project's global set-up
 * (test/helpers/global-setup.ts) and shared read-only: a test that changes
 * files or settings builds its own with buildSite(). Resolves when the build
 * has ended, however long it takes; it cannot outlast its own time limit
 * (runScript()).
 */
export async function demoSite(): Promise<BuiltSite> {
  const root = inject("demoSiteRoot");
  if (!root) {
    throw new Error(
      "No shared demo build in this project: files that read it run in the demo project (vitest.config.ts)",
    );
  }
  const result = join(root, DEMO_RESULT);
  await new Promise<void>((resolve, reject) => {
    const watcher = watch(root, () => {
      if (existsSync(result)) finish();
    });
    const finish = () => {
      watcher.close();
      resolve();
    };
    watcher.on("error", reject);
    // Written before the watch began.
    if (existsSync(result)) finish();
  });
  return JSON.parse(readFileSync(result, "utf8")) as BuiltSite;
}

/** The demo site, failing the suite with the build log if the build failed. */
export async function builtDemoSite(): Promise<BuiltSite> {
  const site = await demoSite();
  if (site.status !== 0)
    throw new Error(`The demo build failed (exit ${site.status}):\n${site.log}`);
  return site;
}

export interface ServedDemo {
  /** The shared build's folder. */
  readonly dir: string;
  /** Where it is served, as the CDN serves it (netlify.toml's headers): http://127.0.0.1:<port> */
  readonly origin: string;
}

/**
 * The shared demo build served on loopback for the tests of one describe
 * block (call it in the block): from before the first test to after the last.
 */
export function useServedDemo(): ServedDemo {
  let server: RunningServer | undefined;
  let dir = "";
  beforeAll(async () => {
    dir = (await builtDemoSite()).dir;
    server = await startStaticServer();
    server.setRoot(dir);
  });
  afterAll(async () => {
    await server?.close();
  });
  return {
    get dir() {
      return dir;
    },
    get origin() {
      if (!server) throw new Error("the demo is served before the tests");
      return server.origin;
    },
  };
}
