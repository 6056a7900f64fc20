import { execFileSync, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";

/**
 * How the share card process gives the build the CPU (src/cards/card-studio.ts).
 *
 * Always: a niceness of 10, so that the operating system gives the build
 * the CPU first. Where Linux allows it, more: the process runs under the
 * idle scheduling policy (SCHED_IDLE, through util-linux's `chrt`) while
 * the build goes on, so that a thread of the build that wakes (an answer of
 * the portal arrived) takes the core from a card at once, where a niceness
 * leaves it a little behind; and under the normal policy while the build
 * waits for cards, when they are what the build is waiting for, so that
 * other processes on the machine cannot hold them up.
 *
 * Leaving the idle policy takes CAP_SYS_NICE, or a RLIMIT_NICE that allows
 * the niceness (sched(7)): without it a process stays idle for good, and
 * its cards would wait for every other process on the machine. Where it is
 * not allowed (a build run by an ordinary user), the niceness stays alone.
 */

export const BACKGROUND_NICENESS = 10;

export type DrawingPolicy = "idle" | "normal";

/** `chrt`'s arguments that start a command under the idle policy, or null where it cannot be left again. */
export function idleLaunch(): readonly string[] | null {
  return canLeaveIdle() ? ["chrt", "--idle", "0"] : null;
}

/**
 * Every thread of the process under this policy, as far as `chrt` could
 * (where it could not, the niceness stays). Twice: a thread started while
 * the first pass went through the process's threads, by one it had not
 * reached yet, has its creator's old policy; the second pass reaches it,
 * and any thread started after the first pass takes the new policy from
 * its creator.
 */
export function setDrawingPolicy(pid: number, policy: DrawingPolicy): void {
  const flag = policy === "idle" ? "--idle" : "--other";
  try {
    for (let pass = 0; pass < 2; pass++) {
      execFileSync("chrt", ["--all-tasks", flag, "--pid", "0", String(pid)], {
        stdio: "ignore",
        timeout: 5_000,
      });
    }
  } catch {
    // The process ended meanwhile, or chrt failed: nothing the build must stop for.
  }
}

/** Linux, `chrt` there, and the right to leave the idle policy at the build's niceness. */
function canLeaveIdle(): boolean {
  if (process.platform !== "linux") return false;
  try {
    const status = readFileSync("/proc/self/status", "utf8");
    const limits = readFileSync("/proc/self/limits", "utf8");
    return mayLeaveIdle(status, limits) && hasChrt();
  } catch {
    return false;
  }
}

/**
 * Whether a process of these /proc/<pid>/status and /proc/<pid>/limits may
 * leave the idle policy at the background niceness: it has CAP_SYS_NICE,
 * or a RLIMIT_NICE that allows that niceness (sched(7), getrlimit(2)).
 */
export function mayLeaveIdle(status: string, limits: string): boolean {
  // CAP_SYS_NICE is capability 23 (linux/capability.h).
  const effective = /^CapEff:\s*([0-9a-f]+)$/m.exec(status)?.[1];
  if (effective && (BigInt(`0x${effective}`) >> 23n) & 1n) return true;
  // RLIMIT_NICE allows a niceness down to 20 minus its soft limit.
  const soft = /^Max nice priority\s+(\d+|unlimited)\s/m.exec(limits)?.[1];
  if (soft === undefined) return false;
  return soft === "unlimited" || 20 - Number(soft) <= BACKGROUND_NICENESS;
}

function hasChrt(): boolean {
  return spawnSync("chrt", ["--version"], { stdio: "ignore", timeout: 5_000 }).status === 0;
}
