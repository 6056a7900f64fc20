import { rm } from "node:fs/promises";
import path from "node:path";
import { type BuildRun, benchEnv, run, runBuild } from "./build.ts";

/**
 * `npm run bench -- --shards 2,4`: the build split over n shards
 * (src/shards), each with its own cache folder as on separate runners, and
 * merged with `npm run merge-shards`. Two figures per n:
 *
 * - projected to n runners: each shard cold, then warm, alone on the
 *   machine, one after the other; the split build would take the slowest
 *   shard plus the merge;
 * - as processes here: the n shards of a warm build at once on this
 *   machine's cores, then the merge.
 */

export interface ShardsFigures {
  readonly shards: number;
  /** Each shard's cold build alone, in seconds (shard 1 first). */
  readonly coldShardSeconds: readonly number[];
  readonly coldMergeSeconds: number;
  /** Each shard's warm build alone, in seconds. */
  readonly warmShardSeconds: readonly number[];
  readonly warmMergeSeconds: number;
  readonly warmTogetherSeconds: number;
  readonly warmTogetherMergeSeconds: number;
  /** Each shard's peak RSS in the cold builds, MB. */
  readonly coldPeakRssMB: readonly number[];
  /** Each shard's time waiting on the portal in the cold builds, in seconds. */
  readonly coldFetchSeconds: readonly number[];
}

export async function benchShards(options: {
  readonly shards: number;
  readonly work: string;
  readonly env: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  /** Before each cold shard: the portal's counters reset, for instance. */
  readonly beforeEach?: () => void;
}): Promise<ShardsFigures> {
  const { shards, work } = options;
  const folder = (index: number) => path.join(work, `shards-${shards}`, `shard-${index}`);
  const merged = path.join(work, `shards-${shards}`, "site");
  const shard = (index: number, name: string) => {
    const env = {
      ...options.env,
      // One cache per shard, as each runner has its own.
      EVENT_API_CACHE_DIR: path.join(work, `shards-${shards}`, `cache-${index}`),
    };
    return runBuild({
      output: folder(index),
      metricsFile: path.join(work, `shards-${shards}`, `${name}-${index}.json`),
      env,
      timeoutMs: options.timeoutMs,
      args: ["--shard", `${index}/${shards}`, "--target", merged],
    });
  };
  const indexes = Array.from({ length: shards }, (_, i) => i + 1);
  const merge = async () => {
    const started = performance.now();
    const result = await run(
      ["src/launch.mjs", "src/cli/merge-shards.ts", "--output", merged, ...indexes.map(folder)],
      benchEnv({
        ...options.env,
        EVENT_API_CACHE_DIR: path.join(work, `shards-${shards}`, "cache-merge"),
      }),
      options.timeoutMs,
    );
    if (result.code !== 0) {
      throw new Error(`merge-shards of ${shards} shards failed:\n${result.log.slice(-2000)}`);
    }
    return (performance.now() - started) / 1000;
  };
  const checked = (result: BuildRun, what: string) => {
    if (!result.ok) throw new Error(`${what} failed:\n${result.error}`);
    return result;
  };

  await rm(path.join(work, `shards-${shards}`), { recursive: true, force: true });
  const cold: BuildRun[] = [];
  for (const index of indexes) {
    options.beforeEach?.();
    cold.push(checked(await shard(index, "cold"), `cold shard ${index}/${shards}`));
  }
  const coldMergeSeconds = await merge();

  const warm: BuildRun[] = [];
  for (const index of indexes) {
    warm.push(checked(await shard(index, "warm"), `warm shard ${index}/${shards}`));
  }
  const warmMergeSeconds = await merge();

  const started = performance.now();
  const together = await Promise.all(indexes.map((index) => shard(index, "together")));
  for (const [i, result] of together.entries()) checked(result, `warm shard ${i + 1}/${shards}`);
  const warmTogetherSeconds = (performance.now() - started) / 1000;
  const warmTogetherMergeSeconds = await merge();

  const coldShardSeconds = cold.map((result) => result.wallSeconds);
  const warmShardSeconds = warm.map((result) => result.wallSeconds);
  return {
    shards,
    coldShardSeconds,
    coldMergeSeconds,
    warmShardSeconds,
    warmMergeSeconds,
    warmTogetherSeconds,
    warmTogetherMergeSeconds,
    coldPeakRssMB: cold.map((result) => result.metrics?.peakRssMB ?? 0),
    coldFetchSeconds: cold.map((result) => (result.metrics?.phases.fetch ?? 0) / 1000),
  };
}
