import { describe, expect, it } from "vitest";
import { type CheckOutcome, runPublishLoop } from "../../src/rebuild/publish-loop.ts";

/**
 * The rounds of `npm run publish-on-change` (the command itself, with a
 * portal and builds, is publish-on-change.test.ts): what it does when a
 * build or the copy fails, and what it says. The check and the commands are
 * scripted here, each round's result in turn.
 */

const UNCHANGED: CheckOutcome = {
  changed: false,
  lines: [
    "portal: 3 list requests",
    "unchanged: the portal shows what the published site was built from",
  ],
};
const CHANGED: CheckOutcome = {
  changed: true,
  lines: ["portal: 3 list requests", "changed: 1 event updated in 1 calendar; building"],
};

interface Script {
  readonly checks: readonly (CheckOutcome | Error)[];
  readonly builds?: readonly number[];
  readonly copies?: readonly number[];
  readonly buildFirst?: string;
  readonly rounds: number;
}

async function play(script: Script) {
  const steps: string[] = [];
  const lines: string[] = [];
  const checks = [...script.checks];
  const builds = [...(script.builds ?? [])];
  const copies = [...(script.copies ?? [])];
  const summary = await runPublishLoop({
    everyMs: 100,
    maxBackoffMs: 500,
    maxRounds: script.rounds,
    signal: new AbortController().signal,
    log: (line) => lines.push(line),
    describe: (error) => (error as Error).message,
    ...(script.buildFirst ? { buildFirst: script.buildFirst } : {}),
    check: async () => {
      steps.push("check");
      const next = checks.shift() ?? UNCHANGED;
      if (next instanceof Error) throw next;
      return next;
    },
    build: async () => {
      steps.push("build");
      return builds.shift() ?? 0;
    },
    ...(script.copies
      ? {
          publish: async () => {
            steps.push("copy");
            return copies.shift() ?? 0;
          },
        }
      : {}),
  });
  return { steps, lines, summary };
}

describe("the publish loop", () => {
  it("should build at start, then check, build on a change and check again right after it", async () => {
    const run = await play({
      buildFirst: "building at start",
      checks: [UNCHANGED, CHANGED, UNCHANGED],
      copies: [],
      rounds: 4,
    });

    expect(run.steps).toEqual(["build", "copy", "check", "check", "build", "copy", "check"]);
    expect(run.summary).toEqual({ checks: 3, builds: 2, failedBuilds: 0, publications: 2 });
    expect(run.lines[0]).toBe("building at start");
    expect(run.lines.filter((line) => line.startsWith("published in"))).toHaveLength(2);
  });

  it("should say an unchanged portal once, not at every check, and again after a change", async () => {
    const run = await play({
      checks: [UNCHANGED, UNCHANGED, UNCHANGED, CHANGED, UNCHANGED],
      rounds: 5,
    });

    const unchanged = run.lines.filter((line) => line.startsWith("unchanged"));
    expect(unchanged).toHaveLength(2);
    expect(run.lines).toContain("portal: 3 list requests");
  });

  it("should try a failed build again after waits that double up to the limit, and leave the start's build owed until one succeeds", async () => {
    const run = await play({
      buildFirst: "building at start",
      checks: [],
      builds: [1, 1, 1, 1, 0],
      rounds: 6,
    });

    expect(run.steps).toEqual(["build", "build", "build", "build", "build", "check"]);
    expect(run.summary.failedBuilds).toBe(4);
    expect(
      run.lines
        .filter((line) => line.startsWith("the build failed"))
        .map((line) => /trying again in ([\d.]+) s$/.exec(line)?.[1]),
    ).toEqual(["0.2", "0.4", "0.5", "0.5"]);
  });

  it("should copy a build whose copy failed again before the next check, since the check no longer sees its change", async () => {
    const run = await play({ checks: [CHANGED, UNCHANGED], copies: [1, 1, 0], rounds: 3 });

    expect(run.steps).toEqual(["check", "build", "copy", "copy", "copy", "check"]);
    expect(run.summary).toMatchObject({ builds: 1, publications: 1 });
    expect(run.lines).toContain("published: the copy of the last build succeeded");
  });

  it("should say a check that cannot tell once, and go on checking", async () => {
    const down = new Error("The portal did not answer");
    const run = await play({ checks: [down, down, down, CHANGED], rounds: 5 });

    expect(
      run.lines.filter((line) => line.startsWith("error: The portal did not answer")),
    ).toHaveLength(1);
    expect(run.steps.filter((step) => step === "build")).toHaveLength(1);
  });

  it("should end when stopped, during a wait, without starting another step", async () => {
    const stop = new AbortController();
    const steps: string[] = [];
    const loop = runPublishLoop({
      everyMs: 60_000,
      signal: stop.signal,
      log: () => undefined,
      describe: String,
      check: async () => {
        steps.push("check");
        return UNCHANGED;
      },
      build: async () => 0,
    });
    await new Promise((resolve) => setImmediate(resolve));
    stop.abort();

    expect(await loop).toMatchObject({ checks: 1, builds: 0 });
    expect(steps).toEqual(["check"]);
  });
});
