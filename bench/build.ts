import { spawn } from "node:child_process";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { withoutProjectSettings } from "../src/config/every-setting.ts";
import { procStat } from "../src/proc-stat.ts";
import { npmScript } from "../test/helpers/npm-script.ts";

/**
 * One site build, timed from the outside: the command of `npm run build`
 * (package.json's `build` script, Node's flags included) in a child
 * process, with `--metrics` so the build reports its own phase times and
 * work counts.
 */

export interface BuildMetrics {
  readonly events: number;
  readonly files: number;
  readonly bytes: number;
  readonly pages: number;
  readonly seconds: number;
  readonly peakRssMB: number;
  /** The build process's own CPU time, every thread, user and system. */
  readonly cpuSeconds: number;
  readonly phases: Readonly<Record<string, number>>;
  readonly counters: Readonly<Record<string, number>>;
}

export interface BuildRun {
  readonly ok: boolean;
  /** Spawn to exit: Node and TypeScript start-up included. */
  readonly wallSeconds: number;
  readonly metrics: BuildMetrics | null;
  /**
   * Where Linux tells it: what the machine's cores did for this build. Only
   * for a build run alone from this process (the shards' builds run at once
   * share their counts, and nothing reads them there).
   */
  readonly cpu: BuildCpu | null;
  /** The last lines of the log when the build failed. */
  readonly error?: string;
}

/**
 * CPU seconds, user and system, spent while one build ran. Their sum over
 * the machine's cores is the shortest the build could take here, however
 * its work were spread: the bound a scheduling change cannot pass.
 */
export interface BuildCpu {
  /** The build's own process, every thread (its --metrics). */
  readonly build: number;
  /** The processes it started and waited for: the share cards' drawing, Pagefind's indexing. */
  readonly processes: number;
  /** This process meanwhile: the portal the build talks to, which runs here. */
  readonly portal: number;
}

const ROOT = path.resolve(import.meta.dirname, "..");

export async function runBuild(options: {
  readonly output: string;
  readonly metricsFile: string;
  readonly env: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  /** More arguments: `--shard 2/4 --target DIR`. */
  readonly args?: readonly string[];
}): Promise<BuildRun> {
  const command = npmScript("build");
  const env = { ...benchEnv(options.env), ...command.env };
  const started = performance.now();
  const cpuOf = countBuildCpu();
  const { code, log } = await run(
    [
      ...command.args,
      "--output",
      options.output,
      "--metrics",
      options.metricsFile,
      ...(options.args ?? []),
    ],
    env,
    options.timeoutMs,
  );
  const wallSeconds = (performance.now() - started) / 1000;
  const cpuAtExit = cpuOf.ended();
  if (code !== 0) {
    return {
      ok: false,
      wallSeconds,
      metrics: null,
      cpu: null,
      error: log.trim().split("\n").slice(-5).join("\n"),
    };
  }
  const metrics = JSON.parse(await readFile(options.metricsFile, "utf8")) as BuildMetrics;
  return { ok: true, wallSeconds, metrics, cpu: cpuAtExit(metrics) };
}

/**
 * Counts the CPU of one build about to be spawned from this process, the
 * only child to end meanwhile: `ended()` once it has exited, then the
 * result from its --metrics.
 */
export function countBuildCpu(): {
  ended(): (metrics: Pick<BuildMetrics, "cpuSeconds">) => BuildCpu | null;
} {
  const ownBefore = process.cpuUsage();
  const childrenBefore = waitedChildrenSeconds();
  return {
    ended() {
      const own = process.cpuUsage(ownBefore);
      const childrenAfter = waitedChildrenSeconds();
      return (metrics) =>
        childrenBefore === null || childrenAfter === null || typeof metrics.cpuSeconds !== "number"
          ? null
          : {
              build: metrics.cpuSeconds,
              // The build's whole tree, less its own process as it reported it
              // (the few milliseconds of its exit after that count here).
              processes: Math.max(0, childrenAfter - childrenBefore - metrics.cpuSeconds),
              portal: (own.user + own.system) / 1e6,
            };
    },
  };
}

/** The CPU time of this process's children that have ended and been waited for; null where /proc cannot tell. */
export function waitedChildrenSeconds(): number | null {
  return procStat("self")?.waitedChildrenCpuSeconds ?? null;
}

/** The shell's environment without the project's settings, then the benchmark's. */
export function benchEnv(
  settings: Readonly<Record<string, string>>,
  shell: NodeJS.ProcessEnv = process.env,
): Record<string, string | undefined> {
  // DEBUG too: Eleventy's debug log would be timed with the build.
  const env = withoutProjectSettings(shell, /^DEBUG$/);
  return { ...env, PREVIOUS_MANIFEST_URL: "none", ...settings };
}

/** Runs a Node script; asynchronous on purpose: the portal the build talks to runs in this process. */
export function run(
  args: readonly string[],
  env: Record<string, string | undefined>,
  timeoutMs: number,
): Promise<{ code: number | null; log: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, {
      cwd: ROOT,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    const chunks: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => chunks.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => chunks.push(chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, log: Buffer.concat(chunks).toString("utf8") });
    });
  });
}
