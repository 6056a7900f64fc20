import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  compareFiles,
  hashOutput,
  readFileList,
  writeFileList,
} from "../../src/build/output-files.ts";
import { writeTree } from "../helpers/files.ts";

/*
 * The hashes of a built site's files, against which the next build counts
 * what it adds, changes and removes (docs/deploy.md, "Only what changed").
 */

let root: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "ecp-files-"));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("hashOutput", () => {
  it("should count files, bytes and HTML pages in nested folders, by site path", async () => {
    await writeTree(join(root, "site"), {
      "index.html": "12345",
      "a/b/index.html": "123",
      "a/feed.xml": "1",
      "c.ics": "",
    });
    const output = hashOutput(join(root, "site"));
    // The largest file is what hosts limit (src/build/host-limits.ts); --metrics carries it.
    const { hashes: _, ...count } = output;
    expect(count).toEqual({
      files: 4,
      bytes: 9,
      pages: 2,
      largestFile: { path: "index.html", bytes: 5 },
    });
    expect([...output.hashes.keys()].sort()).toEqual([
      "a/b/index.html",
      "a/feed.xml",
      "c.ics",
      "index.html",
    ]);
  });
});

describe("compareFiles", () => {
  it("should count new, changed, removed and unchanged files as diff -r would", async () => {
    await writeTree(join(root, "before"), { "same.html": "x", "edited.xml": "1", "gone.ics": "g" });
    await writeTree(join(root, "after"), {
      "same.html": "x",
      "edited.xml": "2",
      "new/a.json": "{}",
    });
    const changes = compareFiles(
      hashOutput(join(root, "before")).hashes,
      hashOutput(join(root, "after")).hashes,
    );
    expect(changes).toEqual({ added: 1, changed: 1, removed: 1, unchanged: 1 });
  });
});

describe("the kept list", () => {
  it("should read back what was written, and nothing from a missing or foreign file", async () => {
    await writeTree(join(root, "site"), { "index.html": "a", "feed.xml": "b" });
    const { hashes } = hashOutput(join(root, "site"));
    const path = join(root, "state", "published-files.json");
    expect(readFileList(path)).toBeNull();
    writeFileList(path, hashes);
    expect(readFileList(path)).toEqual(hashes);
    await writeTree(join(root, "state"), { "published-files.json": '{"files":[1]}' });
    expect(readFileList(path)).toBeNull();
  });
});
