import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

/** The clock every demo build in the tests is pinned to (DST change on 29 March is ahead). */
export const DEMO_NOW = "2026-03-20T12:00:00Z";
export const DEMO_SITE_URL = "https://events.example.org";

export interface BuiltSite {
  /** The output folder. */
  readonly dir: string;
  /** Combined stdout and stderr of the build. */
  readonly log: string;
  readonly status: number | null;
}

const ROOT = resolve(import.meta.dirname, "../..");

/**
 * Runs `npm run build`'s entry point exactly as a user would, in a child
 * process, into a temporary folder. With no EVENT_API_URL in `env`, the build
 * uses the bundled reference portal.
 */
export function buildSite(
  env: Record<string, string | undefined> = {},
  outputDir?: string,
): BuiltSite {
  const work = mkdtempSync(join(tmpdir(), "ecp-build-"));
  const dir = outputDir ?? join(work, "_site");
  const baseEnv: Record<string, string | undefined> = { ...process.env };
  for (const name of Object.keys(baseEnv)) {
    if (
      /^(EVENT_API_|SITE_|FEED_|ALLOW_SHRINK|SHRINK_GUARD|PREVIOUS_MANIFEST_URL|REBUILD_INTERVAL)/.test(
        name,
      )
    )
      delete baseEnv[name];
  }
  const result = spawnSync(
    process.execPath,
    ["--import", "tsx", "src/cli/build.ts", "--output", dir],
    {
      cwd: ROOT,
      encoding: "utf8",
      env: {
        ...baseEnv,
        SITE_NOW: DEMO_NOW,
        SITE_URL: DEMO_SITE_URL,
        // Tests talk to loopback only: the shrink guard compares with local output.
        PREVIOUS_MANIFEST_URL: "none",
        EVENT_API_CACHE_DIR: join(work, ".cache"),
        ...env,
      },
      timeout: 180_000,
    },
  );
  return { dir, log: `${result.stdout}${result.stderr}`, status: result.status };
}

/** Removes a build made by buildSite() without an explicit output folder. */
export function removeBuild(site: BuiltSite): void {
  rmSync(resolve(site.dir, ".."), { recursive: true, force: true });
}
