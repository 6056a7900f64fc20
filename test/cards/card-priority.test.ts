import { execFileSync, spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { OG_SIZE } from "../../src/cards/card-layout.ts";
import { CardStudio } from "../../src/cards/card-studio.ts";
import { idleLaunch, mayLeaveIdle } from "../../src/cards/drawing-priority.ts";
import { CARD_CALENDAR, cardWriter } from "../helpers/cards.ts";
import { calendarEvent } from "../helpers/events.ts";
import { systemDependency } from "../helpers/system-packages.ts";
import { tempDir } from "../helpers/temp-dir.ts";

/** Linux's scheduling policies, as /proc/<pid>/task/<tid>/stat numbers them (sched.h). */
const SCHED_OTHER = 0;
const SCHED_IDLE = 5;

/** The scheduling policy of each thread of a process: field 41 of its stat line. */
function threadPolicies(pid: number): number[] {
  return readdirSync(`/proc/${pid}/task`).map((tid) => {
    const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
    // The command name, in parentheses, may hold spaces: count the fields after it (the third on).
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return Number(fields[41 - 3]);
  });
}

/**
 * The policies of a process's threads once Node runs in it: `chrt` has one
 * thread, and sets the policy before it starts Node, which starts several.
 */
async function nodeThreads(pid: number): Promise<number[]> {
  for (let attempt = 0; attempt < 500; attempt++) {
    const policies = threadPolicies(pid);
    if (policies.length > 1) return policies;
    await new Promise((wake) => setTimeout(wake, 20));
  }
  throw new Error(`process ${pid} did not start Node's threads within 10 s`);
}

/** A shell command as an ordinary user (nobody), with no capability: how a build on most hosts runs. */
const AS_NOBODY = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--"];

/** What a process of this start reads in /proc, and whether the kernel lets it leave the idle policy at niceness 10. */
function processFacts(prefix: readonly string[]): {
  status: string;
  limits: string;
  leaves: boolean;
} {
  const script = [
    "cat /proc/self/status; echo @@; cat /proc/self/limits; echo @@",
    // Started idle at the drawing process's niceness, it asks for the normal policy back.
    'nice -n 10 chrt --idle 0 sh -c "chrt --other --pid 0 \\$\\$ 2>/dev/null && echo left || echo refused"',
  ].join("; ");
  const [command, ...args] = [...prefix, "sh", "-c", script];
  const [status, limits, answer] = execFileSync(command as string, args, {
    encoding: "utf8",
  }).split("@@\n");
  return { status: status as string, limits: limits as string, leaves: answer?.trim() === "left" };
}

const linux = process.platform === "linux";
const hasUtilLinux =
  linux &&
  systemDependency("util-linux's chrt and setpriv (Debian's util-linux)", () =>
    ["chrt", "setpriv"].every(
      (command) => spawnSync(command, ["--version"], { stdio: "ignore" }).status === 0,
    ),
  );
const privileged = linux && process.getuid?.() === 0;

describe("the share card process's priority", () => {
  it.skipIf(!hasUtilLinux)(
    "should say a process may leave the idle policy exactly when the kernel lets it",
    () => {
      const mine = processFacts([]);
      expect(mayLeaveIdle(mine.status, mine.limits)).toBe(mine.leaves);
      if (privileged) {
        // An ordinary user's build: no CAP_SYS_NICE, RLIMIT_NICE 0. Idle for good, so never started idle.
        const nobody = processFacts(AS_NOBODY);
        expect(nobody.leaves).toBe(false);
        expect(mayLeaveIdle(nobody.status, nobody.limits)).toBe(false);
      }
      // RLIMIT_NICE as /proc/<pid>/limits writes it: 10 allows niceness 10, 9 does not.
      const limits = (soft: string) =>
        `Limit                     Soft Limit           Hard Limit           Units     \nMax nice priority         ${soft}                   ${soft}                    \n`;
      const noCapabilities = "CapEff:\t0000000000000000\n";
      expect(mayLeaveIdle(noCapabilities, limits("10"))).toBe(true);
      expect(mayLeaveIdle(noCapabilities, limits("unlimited"))).toBe(true);
      expect(mayLeaveIdle(noCapabilities, limits("9"))).toBe(false);
    },
  );

  it.skipIf(!hasUtilLinux || idleLaunch() === null)(
    "should draw under the idle policy while the build goes on, and under the normal one while it waits for cards",
    async () => {
      const studio = await CardStudio.open(tempDir("cards-priority-"), { concurrency: 2 });
      try {
        const event = calendarEvent({
          id: "e1",
          calendarId: "music",
          title: "Evening concert",
          start: "2026-04-12T20:00:00+02:00",
          end: "2026-04-12T22:00:00+02:00",
        });
        studio.request(cardWriter.event(event, CARD_CALENDAR, "#862e9c", null), [OG_SIZE]);
        const pid = studio.drawingProcessId as number;
        expect(pid).toBeTypeOf("number");
        // Started under it (by chrt, before Node runs: its threads inherit it).
        const started = await nodeThreads(pid);
        expect(new Set(started)).toEqual(new Set([SCHED_IDLE]));

        // The build waits for its cards: nothing else of the machine holds them up.
        const waiting = studio.settled();
        expect(new Set(threadPolicies(pid))).toEqual(new Set([SCHED_OTHER]));
        await waiting;
        expect(studio.stats.rendered).toBe(1);

        // The build goes on: idle again, every thread (the main one, V8's, libuv's pool that drew the card).
        const drawing = threadPolicies(pid);
        expect(drawing.length).toBeGreaterThan(2);
        expect(new Set(drawing)).toEqual(new Set([SCHED_IDLE]));
        // The build's own threads keep the normal policy.
        expect(threadPolicies(process.pid)).not.toContain(SCHED_IDLE);
      } finally {
        await studio.close();
      }
    },
  );
});
