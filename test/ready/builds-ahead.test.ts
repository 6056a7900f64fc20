import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BuildsAhead } from "../../src/ready/builds-ahead.ts";
import { tempDir } from "../helpers/temp-dir.ts";

/*
 * How `npm run publish-on-change` runs its builds (src/ready/builds-ahead.ts),
 * with a stand-in for `npm run build` in real child processes, which notes
 * what it was asked: each build after the first is the one started ahead,
 * told to go; one that started under other code hands over to a build
 * started afresh; the one waiting when the loop stops ends having done
 * nothing.
 */

const work = tempDir("ecp-builds-ahead-");
const BUILD = join(work, "build.mjs");
writeFileSync(
  BUILD,
  `import { appendFileSync } from "node:fs";
const [log, behaviour] = process.argv.slice(2);
if (!process.argv.includes("--ready")) {
  appendFileSync(log, "fresh\\n");
} else {
  appendFileSync(log, "ready\\n");
  let input = "";
  process.stdin.setEncoding("utf8").on("data", (chunk) => (input += chunk));
  process.stdin.on("end", () => {
    if (!input.includes("go")) {
      appendFileSync(log, "not needed\\n");
      return;
    }
    appendFileSync(log, "go\\n");
    process.exitCode = behaviour === "other code" ? 75 : 0;
  });
}
`,
);

function builds(name: string, behaviour: string, options = {}) {
  const log = join(work, `${name}.log`);
  writeFileSync(log, "");
  const ahead = new BuildsAhead([process.execPath, BUILD, log, behaviour], options);
  return { ahead, said: () => readFileSync(log, "utf8").trim().split("\n") };
}

describe("the builds of publish-on-change", () => {
  it("should start each build after the first ahead and tell it to go, and end the one waiting at the stop", async () => {
    const { ahead, said } = builds("ahead", "builds");
    const signal = new AbortController().signal;
    expect(await ahead.build(signal)).toBe(0);
    expect(await ahead.build(signal)).toBe(0);
    expect(await ahead.build(signal)).toBe(0);
    await ahead.stop();
    expect(said()).toEqual(["fresh", "ready", "go", "ready", "go", "ready", "not needed"]);
  });

  it("should run a build started afresh when the one told to go started under other code", async () => {
    const { ahead, said } = builds("other-code", "other code");
    const signal = new AbortController().signal;
    expect(await ahead.build(signal)).toBe(0);
    expect(await ahead.build(signal)).toBe(0);
    await ahead.stop();
    expect(said()).toEqual(["fresh", "ready", "go", "fresh", "ready", "not needed"]);
  });

  it("should start every build when needed with fresh builds asked for", async () => {
    const { ahead, said } = builds("fresh", "builds", { fresh: true });
    const signal = new AbortController().signal;
    expect(await ahead.build(signal)).toBe(0);
    expect(await ahead.build(signal)).toBe(0);
    await ahead.stop();
    expect(said()).toEqual(["fresh", "fresh"]);
  });

  it("should start no build ahead after a build the loop stopped", async () => {
    const { ahead, said } = builds("stopped", "builds");
    const stop = new AbortController();
    stop.abort();
    await ahead.build(stop.signal);
    await ahead.stop();
    expect(said().filter((line) => line === "ready")).toEqual([]);
  });
});
