import { appendFileSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { KeptMap } from "../../src/model/kept-map.ts";
import { KeptReads } from "../../src/model/kept-reads.ts";
import { tempDir } from "../helpers/temp-dir.ts";

/*
 * What a build started ahead hands its build (src/ready): the kept files as
 * they were read ahead while they are unchanged since, and otherwise what
 * reading them now gives, so that the build never works from a file's old
 * contents.
 */

const work = tempDir("ecp-kept-reads-");
const isNumber = (value: unknown): value is number => typeof value === "number";

/** A reader that counts its reads of `path`. */
function counted(path: string) {
  let reads = 0;
  return {
    read: () => {
      reads++;
      return readFileSync(path, "utf8");
    },
    reads: () => reads,
  };
}

describe("kept files read ahead", () => {
  it("should hand over what was read ahead, once, without reading the unchanged file again", () => {
    const path = join(work, "unchanged.json");
    writeFileSync(path, "first");
    const reads = new KeptReads();
    const file = counted(path);
    reads.ahead(() => reads.kept(path, file.read));
    expect(file.reads()).toBe(1);
    expect(reads.waiting).toBe(1);
    expect(reads.kept(path, file.read)).toBe("first");
    expect(file.reads()).toBe(1);
    // Handed over once: a second build's read is a read.
    expect(reads.kept(path, file.read)).toBe("first");
    expect(file.reads()).toBe(2);
  });

  it.each([
    ["written again in place", (path: string) => writeFileSync(path, "second")],
    [
      "replaced by a file renamed over it",
      (path: string) => {
        writeFileSync(`${path}.new`, "second");
        renameSync(`${path}.new`, path);
      },
    ],
    ["given a journal line beside it", (path: string) => appendFileSync(`${path}.journal`, "x\n")],
  ])("should read a file %s since it was read ahead again", (_, change) => {
    const path = join(work, `changed-${Math.random().toString(36).slice(2)}.json`);
    writeFileSync(path, "first");
    const reads = new KeptReads();
    const file = counted(path);
    reads.ahead(() => reads.kept(path, file.read));
    change(path);
    const now = readFileSync(path, "utf8");
    expect(reads.kept(path, file.read)).toBe(now);
    expect(file.reads()).toBe(2);
  });

  it("should give a kept map the entries its journal added after the read ahead, as a map loaded now has", () => {
    const path = join(work, "map.json");
    const first = KeptMap.load(path, "code", isNumber);
    first.set("a", 1);
    first.save();
    const reads = new KeptReads();
    reads.ahead(() => KeptMap.load(path, "code", isNumber, undefined, reads));
    // The next build adds a key: one journal line (src/model/kept-map.ts).
    const next = KeptMap.load(path, "code", isNumber);
    next.get("a");
    next.set("a", 1);
    next.set("b", 2);
    next.save();
    const loaded = KeptMap.load(path, "code", isNumber, undefined, reads);
    expect([loaded.get("a"), loaded.get("b")]).toEqual([1, 2]);
  });
});
