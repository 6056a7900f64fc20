import { appendFileSync, existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
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
  it("should add a build's changes to a journal, and write the file whole once the journal holds a quarter of its size", () => {
    const path = join(tempDir(), "kept.json");
    const journal = `${path}.journal`;
    const size = 2000;
    const first = KeptMap.load(path, "code", isNumber);
    for (let i = 0; i < size; i++) first.set(`k${i}`, i);
    first.save();
    const whole = readFileSync(path, "utf8");
    expect(existsSync(journal)).toBe(false);

    // Each build replaces one key by another: a line in the journal, the file as it was.
    let next = size;
    for (let build = 1; build <= 3; build++) {
      const map = KeptMap.load(path, "code", isNumber);
      for (let i = build; i < size; i++) map.set(`k${i}`, map.get(`k${i}`) ?? -1);
      for (let i = size; i < next; i++) map.set(`k${i}`, map.get(`k${i}`) ?? -1);
      map.set(`k${next}`, next);
      next++;
      map.save();
      expect(readFileSync(path, "utf8")).toBe(whole);
      expect(readFileSync(journal, "utf8").trim().split("\n")).toHaveLength(build);
    }
    const read = KeptMap.load(path, "code", isNumber);
    expect([
      read.get("k0"),
      read.get("k3"),
      read.get(`k${size}`),
      read.get(`k${size + 2}`),
    ]).toEqual([undefined, 3, size, size + 2]);

    // A build that changes more than a quarter of the keys writes the file again, and no journal.
    for (let i = 0; i < size; i++) read.set(`n${i}`, i);
    read.save();
    expect(existsSync(journal)).toBe(false);
    const after = KeptMap.load(path, "code", isNumber);
    expect([after.get("k3"), after.get("n7")]).toEqual([undefined, 7]);
    expect(JSON.parse(readFileSync(path, "utf8")).entries).toHaveProperty("n7", 7);
  });

  it("should stand on a journal's whole lines when its last was cut short, and start the file again after it", () => {
    const path = join(tempDir(), "kept.json");
    const journal = `${path}.journal`;
    const first = KeptMap.load(path, "code", isNumber);
    first.set("a", 1);
    first.save();
    const second = KeptMap.load(path, "code", isNumber);
    second.set("a", 1);
    second.set("b", 2);
    second.save();
    // A build stopped while it appended: half a line.
    appendFileSync(journal, '{"code":"code","set":{"c":3},"go');

    const third = KeptMap.load(path, "code", isNumber);
    expect([third.get("a"), third.get("b"), third.get("c")]).toEqual([1, 2, undefined]);
    third.set("a", 1);
    third.set("d", 4);
    third.save();
    // Written whole: a line after the cut one would never be read.
    expect(existsSync(journal)).toBe(false);
    const fourth = KeptMap.load(path, "code", isNumber);
    expect([fourth.get("a"), fourth.get("b"), fourth.get("d")]).toEqual([1, undefined, 4]);
  });

  it("should redact what it writes, in the file and in its journal", () => {
    const path = join(tempDir(), "kept.json");
    const redact = (text: string) => text.replaceAll("secret", "[redacted]");
    const isText = (value: unknown): value is string => typeof value === "string";
    const first = KeptMap.load(path, "code", isText, redact);
    first.set("a", "a secret");
    first.save();
    const second = KeptMap.load(path, "code", isText, redact);
    second.set("a", second.get("a") ?? "");
    second.set("b", "another secret");
    second.save();
    const written = readFileSync(path, "utf8") + readFileSync(`${path}.journal`, "utf8");
    expect(written).toContain("[redacted]");
    expect(written).not.toContain("secret");
    expect(KeptMap.load(path, "code", isText).get("b")).toBe("another [redacted]");
  });

  it("should give what any code kept to a reader that falls back on it, and nothing to a build of another code", () => {
    const path = join(tempDir(), "kept.json");
    const older = KeptMap.load(path, "code 1", isNumber);
    older.set("a", 1);
    older.save();
    const next = KeptMap.load(path, "code 1", isNumber);
    next.set("b", 2);
    next.save();
    expect([...KeptMap.keptByAnyCode(path, isNumber)]).toEqual([["b", 2]]);
    expect(KeptMap.load(path, "code 2", isNumber).get("b")).toBeUndefined();
    expect(KeptMap.keptByAnyCode(join(tempDir(), "none.json"), isNumber).size).toBe(0);
  });
});
