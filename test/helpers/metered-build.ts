import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import type { RunningPortal } from "../../src/portal/index.ts";
import { runScript } from "./demo-build.ts";
import { fileBytesSync } from "./files.ts";
import { startSyntheticPortal } from "./synthetic-portal.ts";
import { tempDir } from "./temp-dir.ts";
import { useForTests } from "./use-for-tests.ts";

/**
 * Builds through the real CLI against a test's portal with `--metrics`, for
 * the tests that count a build's work rather than time it
 * (docs/performance.md): what a regression would change fails on any
 * machine, without a clock.
 */

export interface BuildMetrics {
  readonly events: number;
  readonly files: number;
  /** Unchanged files kept as published (src/render/published-files.ts). */
  readonly filesKept: number;
  readonly counters: Readonly<Record<string, number>>;
}

export interface MeteredBuildOptions {
  readonly portal: RunningPortal;
  /** EVENT_API_CACHE_DIR. */
  readonly cacheDir: string;
  /** Where the metrics file goes: a new name each call. */
  readonly metricsFile: string;
  readonly env?: Record<string, string>;
  /** More arguments (`--shard 2/4`...). */
  readonly args?: readonly string[];
  readonly script?: string;
}

/** One build into `output`; fails the test with the build's log unless it succeeds. */
export async function meteredBuild(
  output: string,
  options: MeteredBuildOptions,
): Promise<BuildMetrics> {
  const run = await runScript(
    options.script ?? "src/cli/build.ts",
    ["--output", output, "--metrics", options.metricsFile, ...(options.args ?? [])],
    {
      EVENT_API_URL: options.portal.url,
      EVENT_API_TOKEN: options.portal.token,
      EVENT_API_CACHE_DIR: options.cacheDir,
      EVENT_API_PAGE_SIZE_PARAM: "limit",
      ...options.env,
    },
  );
  expect(run.status, run.log).toBe(0);
  return JSON.parse(readFileSync(options.metricsFile, "utf8")) as BuildMetrics;
}

/** Builds one after another into the same site and cache (`useSmallPortalBuilds`). */
export interface BuildSequence {
  /** The site's folder. */
  site(): string;
  /** The next build, with `env` as its settings beside the portal's. */
  build(env: Record<string, string>): Promise<BuildMetrics>;
}

/**
 * A test file's builds of a small portal (2 calendars of 6 generated events,
 * the same for the same `seed`), started before its tests and stopped after
 * them: one after another into one folder (prefixed `prefix`), with one cache,
 * each with its own metrics file.
 */
export function useSmallPortalBuilds(seed: number, prefix: string): BuildSequence {
  const work = tempDir(prefix);
  const portal = useForTests(
    "the small portal",
    () => startSyntheticPortal(2, 6, { seed }),
    (running) => running.close(),
  );
  let builds = 0;
  const site = () => join(work, "_site");
  return {
    site,
    build: (env) =>
      meteredBuild(site(), {
        portal: portal(),
        cacheDir: join(work, "cache"),
        metricsFile: join(work, `metrics-${++builds}.json`),
        env,
      }),
  };
}

export const counter = (metrics: BuildMetrics, name: string): number => metrics.counters[name] ?? 0;

/** Every file's bytes (base64) by its path relative to `root`, with "/". */
export async function fileTree(root: string): Promise<Map<string, string>> {
  return fileBytesSync(root);
}
