import { existsSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { INPUTS_RECORD_FILE } from "../../src/publish/unchanged-build.ts";

/**
 * Forgets what the last publishes into a cache folder recorded of their
 * inputs (src/publish/unchanged-build.ts): the next build of each site then
 * visits every output and keeps each by its own inputs, rather than keeping
 * the whole site at once; what a test of that path needs from an unchanged
 * portal.
 */
export function forgetPublishedInputs(cacheDir: string): void {
  const published = join(cacheDir, "published");
  if (!existsSync(published)) return;
  for (const key of readdirSync(published)) {
    rmSync(join(published, key, INPUTS_RECORD_FILE), { force: true });
  }
}
