import { readFileSync } from "node:fs";
import { expect } from "vitest";
import type { RunningPortal } from "../../src/portal/index.ts";
import { runScript } from "./demo-build.ts";
import { fileBytesSync } from "./files.ts";

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

export const counter = (metrics: BuildMetrics, name: string): number => metrics.counters[name] ?? 0;

/** Every file's bytes (base64) by its path relative to `root`, with "/". */
export async function fileTree(root: string): Promise<Map<string, string>> {
  return fileBytesSync(root);
}
