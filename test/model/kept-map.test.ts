import { readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { KeptMap } from "../../src/model/kept-map.ts";
import { tempDir } from "../helpers/temp-dir.ts";

const isNumber = (value: unknown): value is number => typeof value === "number";

describe("KeptMap", () => {
  it("should give the next build with the same code what this build kept, and nothing to another code", () => {
    const path = join(tempDir(), "cache", "kept.json");
    const first = KeptMap.load(path, "code 1", isNumber);
    expect(first.get("a")).toBeUndefined();
    first.set("a", 1);
    first.set("b", 2);
    expect(first.get("a")).toBe(1);
    first.save();

    const second = KeptMap.load(path, "code 1", isNumber);
    expect([second.get("a"), second.get("b"), second.get("c")]).toEqual([1, 2, undefined]);
    expect(KeptMap.load(path, "code 2", isNumber).get("a")).toBeUndefined();
  });

  it("should keep only the keys the last build asked for, and leave the file alone when they are the same", () => {
    const path = join(tempDir(), "kept.json");
    const first = KeptMap.load(path, "code", isNumber);
    first.set("old", 1);
    first.set("kept", 2);
    first.save();

    const second = KeptMap.load(path, "code", isNumber);
    second.set("kept", second.get("kept") ?? 0);
    second.set("new", 3);
    second.save();
    const third = KeptMap.load(path, "code", isNumber);
    expect([third.get("old"), third.get("kept"), third.get("new")]).toEqual([undefined, 2, 3]);

    // The same keys again: nothing written (a build with nothing new touches no cache file).
    const before = statSync(path, { bigint: true }).mtimeNs;
    const bytes = readFileSync(path, "utf8");
    third.set("kept", 2);
    third.set("new", 3);
    third.save();
    expect(statSync(path, { bigint: true }).mtimeNs).toBe(before);
    expect(readFileSync(path, "utf8")).toBe(bytes);
  });

  it("should start again from nothing when its file is damaged, and leave out values of the wrong kind", () => {
    const dir = tempDir();
    const damaged = join(dir, "damaged.json");
    writeFileSync(damaged, '{"code":"code","entries":{"a":1');
    expect(KeptMap.load(damaged, "code", isNumber).get("a")).toBeUndefined();

    const mixed = join(dir, "mixed.json");
    writeFileSync(mixed, JSON.stringify({ code: "code", entries: { a: 1, b: "two", c: null } }));
    const map = KeptMap.load(mixed, "code", isNumber);
    expect([map.get("a"), map.get("b"), map.get("c")]).toEqual([1, undefined, undefined]);
  });

  it("should keep nothing, and fail nothing, without a path or where it cannot write", () => {
    const none = KeptMap.load<number>(null, "code", isNumber);
    none.set("a", 1);
    expect(() => none.save()).not.toThrow();
    expect(none.get("a")).toBe(1);

    const file = join(tempDir(), "a file");
    writeFileSync(file, "");
    const blocked = KeptMap.load(join(file, "kept.json"), "code", isNumber);
    blocked.set("a", 1);
    expect(() => blocked.save()).not.toThrow();
  });
});
