import { mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { type BuiltSite, buildSite } from "./demo-build.ts";
import { scratchSpace } from "./scratch-space.ts";

declare module "vitest" {
  export interface ProvidedContext {
    demoSiteRoot: string;
  }
}

/** The shared demo build's outcome, written once the build has ended (see demo-site.ts). */
export const DEMO_RESULT = "result.json";

/**
 * The one demo build a test run shares (test/helpers/demo-site.ts), started
 * here, once, for the test files of the demo project. It runs while the
 * other files run; those that read it wait for its outcome. Removed when the
 * run ends, after the build has ended.
 */
export function setup(project: TestProject): () => Promise<void> {
  // This process is vitest's own, which the tests' TMPDIR (vitest.config.ts) does not reach.
  const root = mkdtempSync(join(scratchSpace(), "ecp-demo-site-"));
  project.provide("demoSiteRoot", root);
  const done = (site: BuiltSite) => {
    // Whole or not at all: readers see the file only once it is complete.
    writeFileSync(join(root, `${DEMO_RESULT}.part`), JSON.stringify(site));
    renameSync(join(root, `${DEMO_RESULT}.part`), join(root, DEMO_RESULT));
  };
  const dir = join(root, "_site");
  const building = buildSite({ EVENT_API_CACHE_DIR: join(root, ".cache") }, dir).then(
    done,
    (error) => done({ status: null, stdout: "", stderr: String(error), log: String(error), dir }),
  );
  return async () => {
    await building;
    rmSync(root, { recursive: true, force: true });
  };
}
