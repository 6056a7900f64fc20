import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { removeFixtureSite } from "../helpers/plugin-site.ts";

const CLI = fileURLToPath(new URL("../helpers/hostile-build-cli.ts", import.meta.url));
const ROOT = fileURLToPath(new URL("../..", import.meta.url));

const run = promisify(execFile);

async function buildUnder(tz: string): Promise<{ outDir: string; files: string[] }> {
  const { stdout } = await run("npx", ["tsx", CLI], {
    cwd: ROOT,
    env: { ...process.env, TZ: tz },
    encoding: "utf8",
    // Only a hang takes this long: each build takes seconds on a busy machine.
    timeout: 300_000,
    maxBuffer: 16 * 1024 * 1024,
  });
  const lastLine = stdout.trim().split("\n").pop() ?? "";
  return JSON.parse(lastLine) as { outDir: string; files: string[] };
}

describe("ics-tz", () => {
  it("should write the same bytes under TZ=Pacific/Auckland and TZ=UTC", async () => {
    const [auckland, utc] = await Promise.all([buildUnder("Pacific/Auckland"), buildUnder("UTC")]);
    expect(auckland.files.length).toBeGreaterThan(20);
    expect(auckland.files).toEqual(utc.files);
    for (const file of auckland.files) {
      const [a, b] = await Promise.all([
        readFile(join(auckland.outDir, file)),
        readFile(join(utc.outDir, file)),
      ]);
      expect(a.equals(b), file).toBe(true);
    }
    // The DST event is at the same wall-clock time, in its own zone, in both.
    const ics = await readFile(join(utc.outDir, "calendar.ics"), "utf8");
    expect(ics).toContain("DTSTART;TZID=Europe/Amsterdam:20260329T013000\r\n");
    await Promise.all([removeFixtureSite(auckland.outDir), removeFixtureSite(utc.outDir)]);
  });
});
