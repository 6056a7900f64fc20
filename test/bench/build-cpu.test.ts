import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { countBuildCpu } from "../../bench/build.ts";

/**
 * The benchmark's CPU figures (bench/build.ts, countBuildCpu): a build's
 * own process as its --metrics says, and the processes it started, read
 * from what Linux counts for the children this process waited for. A
 * child and its grandchild each spend a known amount of CPU (measured in
 * CPU time, so the test does not depend on the machine's speed).
 */

const BURN_MS = 300;

const linux = existsSync("/proc/self/stat");
const why = linux ? "" : " (skipped: it reads Linux's /proc, which this system lacks)";

/** Spends `ms` of this process's CPU time. */
function burn(ms: number): void {
  const started = process.cpuUsage();
  while ((process.cpuUsage(started).user + process.cpuUsage(started).system) / 1000 < ms) {
    // spinning on purpose: work that takes CPU time, whatever the machine's speed
  }
}

/** A script for `node -e` that spends `ms` of its own CPU time with `burn`, then runs `then`. */
const burner = (ms: number, then: string) => `(${burn.toString()})(${ms}); ${then}`;

describe.skipIf(!linux && process.env.CI !== "true")(`countBuildCpu${why}`, () => {
  it("should count the build's process from its metrics and the processes it waited for beside it", async () => {
    const cpuOf = countBuildCpu();
    // The "build": burns, runs a "Pagefind" that burns too and waits for it, then reports its own CPU.
    const grandchild = JSON.stringify(burner(BURN_MS, ""));
    const child = burner(
      BURN_MS,
      `require("node:child_process").execFileSync(process.execPath, ["-e", ${grandchild}]);
       const u = process.resourceUsage();
       process.stdout.write(JSON.stringify({ cpuSeconds: (u.userCPUTime + u.systemCPUTime) / 1e6 }));`,
    );
    const output = await new Promise<string>((resolve, reject) => {
      const build = spawn(process.execPath, ["-e", child], {
        stdio: ["ignore", "pipe", "inherit"],
      });
      let text = "";
      build.stdout.on("data", (chunk: Buffer) => {
        text += chunk.toString("utf8");
      });
      build.on("error", reject);
      build.on("close", (code) => (code === 0 ? resolve(text) : reject(new Error(`exit ${code}`))));
      // The portal's share: this process's own CPU while the build runs.
      burn(BURN_MS);
    });
    const metrics = JSON.parse(output) as { cpuSeconds: number };
    const cpu = cpuOf.ended()(metrics);

    expect(cpu).not.toBeNull();
    expect(cpu?.build).toBe(metrics.cpuSeconds);
    expect(cpu?.build).toBeGreaterThanOrEqual(BURN_MS / 1000);
    // The grandchild's CPU, in the 10 ms ticks /proc counts in, is not the build's own.
    expect(cpu?.processes).toBeGreaterThanOrEqual(BURN_MS / 1000 - 0.02);
    expect(cpu?.portal).toBeGreaterThanOrEqual(BURN_MS / 1000);
  });

  it("should give no figures for a build whose metrics have no CPU time", () => {
    expect(countBuildCpu().ended()({} as { cpuSeconds: number })).toBeNull();
  });
});
