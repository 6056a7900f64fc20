import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { replaceFileSync } from "../../src/replace-file-sync.ts";
import { tempDir } from "../helpers/temp-dir.ts";

/** The file list, the page record and the kept maps are written this way: whole or not at all. */
describe("replaceFileSync", () => {
  it("should put the pieces in place of the file, in order, in a folder it makes", () => {
    const dir = tempDir("replace-file-sync-");
    const file = join(dir, "a", "b", "list.json");
    replaceFileSync(file, (append) => {
      for (const piece of ["[", "1", ",2", "]\n"]) append(piece);
    });
    expect(readFileSync(file, "utf8")).toBe("[1,2]\n");
    replaceFileSync(file, (append) => append("é\n"));
    expect(readFileSync(file, "utf8")).toBe("é\n");
    expect(readdirSync(join(dir, "a", "b"))).toEqual(["list.json"]);
  });

  it("should leave the old file whole and no temporary file when the writing fails", () => {
    const dir = tempDir("replace-file-sync-");
    const file = join(dir, "record.json");
    writeFileSync(file, "the last build's\n");
    expect(() =>
      replaceFileSync(file, (append) => {
        append("half of");
        throw new Error("out of space");
      }),
    ).toThrow("out of space");
    expect(readFileSync(file, "utf8")).toBe("the last build's\n");
    expect(readdirSync(dir)).toEqual(["record.json"]);
  });
});
