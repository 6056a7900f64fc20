import { existsSync, readFileSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readMetrics } from "../../src/metrics.ts";
import {
  compareFiles,
  fileSignatures,
  hashOutput,
  readFileList,
  writeFileList,
} from "../../src/publish/output-files.ts";
import { knownFile, type RenderedFrom } from "../../src/render/published-files.ts";
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
    // The largest file is what hosts limit (src/publish/host-limits.ts); --metrics carries it.
    const { record, hashes: _, sizes, inputs, ...count } = output;
    // One record of the files, of which the hashes, sizes and inputs are views.
    expect(record.get("a/feed.xml")).toEqual({
      hash: output.hashes.get("a/feed.xml"),
      bytes: 1,
      inputs: undefined,
      kept: false,
    });
    // Nothing here was rendered by a writer that knew its inputs.
    expect(inputs.size).toBe(0);
    expect(count).toEqual({
      files: 4,
      bytes: 9,
      pages: 2,
      largestFile: { path: "index.html", bytes: 5 },
      kept: 0,
    });
    expect(sizes.get("a/b/index.html")).toBe(3);
    expect([...output.hashes.keys()].sort()).toEqual([
      "a/b/index.html",
      "a/feed.xml",
      "c.ics",
      "index.html",
    ]);
  });
});

describe("hashOutput with the files a writer wrote", () => {
  it("should list them first, as written, then the others; and not one that is gone", async () => {
    await writeTree(join(root, "site"), {
      "z/index.html": "written first",
      "a.html": "written second",
      "m/feed.xml": "no writer's",
    });
    const known = new Map([
      ["z/index.html", knownFile("hz", 13, "dz", false)],
      ["kept.ics", knownFile("hk", 40, "dk", true)],
      ["a.html", knownFile("ha", 14, undefined, false)],
      ["gone.html", knownFile("hg", 99, undefined, false)],
    ]);
    const output = hashOutput(join(root, "site"), { known });
    // The published list is written in this order, which the next build's writer follows.
    expect([...output.hashes.keys()]).toEqual(["z/index.html", "kept.ics", "a.html", "m/feed.xml"]);
    expect(output.hashes.get("z/index.html")).toBe("hz");
    const { record: _, hashes: __, sizes: ___, inputs: ____, ...count } = output;
    expect(count).toEqual({
      files: 4,
      bytes: 13 + 40 + 14 + "no writer's".length,
      pages: 2,
      largestFile: { path: "kept.ics", bytes: 40 },
      kept: 1,
    });
  });
});

describe("hashOutput with the last publish's files", () => {
  it("should keep the published copy of each file with the same bytes, and no other", async () => {
    await writeTree(join(root, "published"), { "same.html": "x", "edited.xml": "1" });
    await writeTree(join(root, "staging"), { "same.html": "x", "edited.xml": "2", "new.ics": "n" });
    const published = {
      folder: join(root, "published"),
      hashes: hashOutput(join(root, "published")).hashes,
    };
    const output = hashOutput(join(root, "staging"), { published });
    expect(output.kept).toBe(1);
    // Left out of the staging folder: the publish step leaves the published file untouched,
    // and hosts that compare times and sizes skip it. Still a file of the site.
    expect(existsSync(join(root, "staging/same.html"))).toBe(false);
    expect([...output.hashes.keys()].sort()).toEqual(["edited.xml", "new.ics", "same.html"]);
    expect(await readFile(join(root, "staging/edited.xml"), "utf8")).toBe("2");
  });

  it("should write a file whose published copy is not what the list says (edited by hand)", async () => {
    await writeTree(join(root, "published"), { "a.html": "old" });
    const published = {
      folder: join(root, "published"),
      hashes: hashOutput(join(root, "published")).hashes,
    };
    await writeTree(join(root, "published"), { "a.html": "edited" });
    await writeTree(join(root, "staging"), { "a.html": "old" });
    expect(hashOutput(join(root, "staging"), { published }).kept).toBe(0);
    expect(await readFile(join(root, "staging/a.html"), "utf8")).toBe("old");
  });

  it("should write a file whose published copy was edited by hand to the same size, its time set back", async () => {
    await writeTree(join(root, "published"), { "a.html": "<p>old</p>", "b.html": "<p>same</p>" });
    const folder = join(root, "published");
    const published = {
      folder,
      hashes: hashOutput(folder).hashes,
      signatures: fileSignatures(folder, ["a.html", "b.html"]),
    };
    const edited = join(folder, "a.html");
    const { atime, mtime } = statSync(edited);
    writeFileSync(edited, "<p>new</p>");
    utimesSync(edited, atime, mtime);
    await writeTree(join(root, "staging"), { "a.html": "<p>old</p>", "b.html": "<p>same</p>" });
    expect(hashOutput(join(root, "staging"), { published }).kept).toBe(1);
    expect(readFileSync(join(root, "staging/a.html"), "utf8")).toBe("<p>old</p>");
    expect(existsSync(join(root, "staging/b.html"))).toBe(false);
  });
});

describe("fileSignatures", () => {
  it("should change with any write to a file, whatever its size and times, and not without one", async () => {
    await writeTree(join(root, "site"), { "a.html": "12345", "b.html": "x" });
    const site = join(root, "site");
    const before = fileSignatures(site, ["a.html", "b.html", "gone.html"]);
    expect([...before.keys()]).toEqual(["a.html", "b.html"]);
    expect(fileSignatures(site, ["a.html", "b.html"])).toEqual(before);
    const { atime, mtime } = statSync(join(site, "a.html"));
    writeFileSync(join(site, "a.html"), "54321");
    utimesSync(join(site, "a.html"), atime, mtime);
    const after = fileSignatures(site, ["a.html", "b.html"]);
    expect(after.get("a.html")).not.toBe(before.get("a.html"));
    expect(after.get("b.html")).toBe(before.get("b.html"));
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

/** How much `run` adds to a counter of this process's metrics. */
function counted(name: string, run: () => void): number {
  const before = readMetrics().counters[name] ?? 0;
  run();
  return (readMetrics().counters[name] ?? 0) - before;
}

/** What the list at `path` says, as maps (null: none). */
function listed(path: string) {
  const list = readFileList(path);
  return (
    list && {
      hashes: new Map(list.hashes),
      inputs: new Map(list.inputs),
      signatures: new Map(list.signatures),
    }
  );
}

describe("the kept list", () => {
  it("should read back what was written, and nothing from a missing or foreign file", async () => {
    await writeTree(join(root, "site"), { "index.html": "a", "feed.xml": "b" });
    const hashes = new Map(hashOutput(join(root, "site")).hashes);
    const path = join(root, "state", "published-files.json");
    expect(readFileList(path)).toBeNull();
    writeFileList(path, hashes);
    expect(listed(path)).toEqual({ hashes, inputs: new Map(), signatures: new Map() });
    // What a file was rendered from, for the next build to keep it unrendered.
    const inputs = new Map<string, RenderedFrom>([
      ["feed.xml", { inputs: "digest", bytes: 1 }],
      ["index.html", { inputs: "digest", bytes: 2 }],
    ]);
    // And each file's signature once published, for the next build to trust it without reading it.
    const signatures = fileSignatures(join(root, "site"), hashes.keys());
    expect(signatures.size).toBe(2);
    writeFileList(path, hashes, inputs, signatures);
    expect(listed(path)).toEqual({ hashes, inputs, signatures });
    // The inputs of a file the list does not name are of no use, and left out.
    writeFileList(
      path,
      hashes,
      new Map([...inputs, ["gone.ics", { inputs: "digest", bytes: 3 }]]),
      signatures,
    );
    expect(listed(path)).toEqual({ hashes, inputs, signatures });
    // Versions 3 and 4: one JSON document, files and inputs as flat arrays.
    const flatList = (version: number, files: unknown[]) =>
      writeTree(join(root, "state"), {
        "published-files.json": JSON.stringify({
          version,
          files,
          inputs: [...inputs].flatMap(([file, from]) => [file, from.inputs, from.bytes]),
        }),
      });
    // A list of version 4, each file's hash and signature two values: read whole.
    const signed = (file: string) => signatures.get(file)?.toString(36);
    await flatList(
      4,
      [...hashes].flatMap(([file, hash]) => [file, hash, signed(file)]),
    );
    expect(listed(path)).toEqual({ hashes, inputs, signatures });
    // A list of version 3, each file's hash and signature in one text: read whole.
    await flatList(
      3,
      [...hashes].flatMap(([file, hash]) => [file, `${hash} ${signed(file)}`]),
    );
    expect(listed(path)).toEqual({ hashes, inputs, signatures });
    // A list of version 2, whose files and inputs were objects keyed by path: read whole.
    await writeTree(join(root, "state"), {
      "published-files.json": JSON.stringify({
        version: 2,
        files: Object.fromEntries(
          [...hashes].map(([file, hash]) => [
            file,
            `${hash} ${signatures.get(file)?.toString(36)}`,
          ]),
        ),
        inputs: Object.fromEntries(
          [...inputs].map(([file, from]) => [file, [from.inputs, from.bytes]]),
        ),
      }),
    });
    expect(listed(path)).toEqual({ hashes, inputs, signatures });
    // A list of the version before signatures: read, without them.
    await writeTree(join(root, "state"), {
      "published-files.json": JSON.stringify({ version: 1, files: Object.fromEntries(hashes) }),
    });
    expect(listed(path)).toEqual({ hashes, inputs: new Map(), signatures: new Map() });
    await writeTree(join(root, "state"), { "published-files.json": '{"files":[1]}' });
    expect(readFileList(path)).toBeNull();
    // A list of version 4 without a file's signature's place: not a list of version 4.
    await writeTree(join(root, "state"), {
      "published-files.json": '{"version":4,"files":["index.html","hash"]}',
    });
    expect(readFileList(path)).toBeNull();
  });

  it("should add only the files that changed to a journal beside the list, and read the two as one", () => {
    const path = join(root, "state", "files.json");
    const journal = `${path}.journal`;
    const files = (n: number) => Array.from({ length: n }, (_, i) => `page-${i}/index.html`);
    const hashes = new Map<string, string>(files(2000).map((file, i) => [file, `h${i}`]));
    const inputs = new Map(files(2000).map((file, i) => [file, { inputs: `d${i}`, bytes: i }]));
    const signatures = new Map(files(2000).map((file, i) => [file, 1000 + i] as const));
    const before = counted("files.listed", () => writeFileList(path, hashes, inputs, signatures));
    expect(before).toBe(2000);
    const whole = readFileSync(path);

    // A publish that changed a hash, a signature and an input, added a file and removed one.
    const next = {
      hashes: new Map(hashes),
      inputs: new Map(inputs),
      signatures: new Map(signatures),
    };
    next.hashes.set("page-1/index.html", "edited");
    next.signatures.set("page-2/index.html", 7);
    next.inputs.set("page-3/index.html", { inputs: "other", bytes: 3 });
    next.hashes.set("new/index.html", "n").delete("page-4/index.html");
    next.inputs.delete("page-4/index.html");
    next.signatures.delete("page-4/index.html");
    const written = counted("files.listed", () =>
      writeFileList(path, next.hashes, next.inputs, next.signatures, readFileList(path)),
    );
    // Five files named in one line of the journal; the list itself not written again.
    expect(written).toBe(5);
    expect(readFileSync(path).equals(whole)).toBe(true);
    expect(readFileSync(journal, "utf8").split("\n")).toHaveLength(2);
    expect(listed(path)).toEqual(next);

    // Nothing changed: nothing written.
    expect(
      counted("files.listed", () =>
        writeFileList(path, next.hashes, next.inputs, next.signatures, readFileList(path)),
      ),
    ).toBe(0);
    expect(listed(path)).toEqual(next);

    // A list read once is added to once: written again with it, the list is written whole.
    const read = readFileList(path);
    writeFileList(path, next.hashes, next.inputs, next.signatures, read);
    next.hashes.set("page-5/index.html", "again");
    expect(
      counted("files.listed", () =>
        writeFileList(path, next.hashes, next.inputs, next.signatures, read),
      ),
    ).toBe(2000);
    expect(existsSync(journal)).toBe(false);
    expect(listed(path)).toEqual(next);

    // More changed files than a quarter of the list: written whole, the journal gone.
    next.hashes.set("page-6/index.html", "edited");
    writeFileList(path, next.hashes, next.inputs, next.signatures, readFileList(path));
    expect(existsSync(journal)).toBe(true);
    for (const file of files(600)) next.hashes.set(file, `${file} edited`);
    expect(
      counted("files.listed", () =>
        writeFileList(path, next.hashes, next.inputs, next.signatures, readFileList(path)),
      ),
    ).toBe(next.hashes.size);
    expect(existsSync(journal)).toBe(false);
    expect(listed(path)).toEqual(next);
  });

  it("should read a journal's whole lines of its own list only, and no list from one that does not add up", () => {
    const path = join(root, "state", "files.json");
    const journal = `${path}.journal`;
    const hashes = new Map([
      ["index.html", "a"],
      ["feed.xml", "b"],
    ]);
    writeFileList(path, hashes);
    const first = new Map([...hashes, ["new.ics", "c"]]);
    writeFileList(path, first, new Map(), new Map(), readFileList(path));
    const second = new Map([...first, ["index.html", "a2"]]);
    writeFileList(path, second, new Map(), new Map(), readFileList(path));
    expect(listed(path)?.hashes).toEqual(second);
    const lines = readFileSync(journal, "utf8");
    // A build stopped while adding its line: the lines before it stand, and the next
    // write writes the list whole rather than add after a broken line.
    writeFileSync(journal, lines.slice(0, -10));
    expect(listed(path)?.hashes).toEqual(first);
    expect(readFileList(path)?.journal).toBeNull();
    writeFileList(path, second, new Map(), new Map(), readFileList(path));
    expect(existsSync(journal)).toBe(false);
    expect(listed(path)?.hashes).toEqual(second);
    // A journal of an earlier list (left by a failure after the list was written whole)
    // is not read with the new one.
    writeFileSync(journal, lines);
    writeFileList(path, hashes);
    writeFileSync(journal, lines);
    expect(listed(path)?.hashes).toEqual(hashes);
    // A whole line of this list that does not leave the count it says: no list at all.
    writeFileList(path, hashes);
    writeFileList(path, first, new Map(), new Map(), readFileList(path));
    writeFileSync(journal, readFileSync(journal, "utf8").replace('"files":3', '"files":4'));
    expect(readFileList(path)).toBeNull();
    // A list of version 5, before lists were named: read, and written whole next time.
    writeFileSync(
      path,
      '{"version":5}\n["index.html","a",null,null,null,"feed.xml","b","k",null,null]\n{"files":2}\n',
    );
    expect(listed(path)?.hashes).toEqual(hashes);
    expect(listed(path)?.signatures).toEqual(new Map([["feed.xml", 20]]));
    expect(readFileList(path)?.journal).toBeNull();
  });

  it("should give each path its own values asked in the list's order, after a journal moved some", () => {
    // The publish step asks the list for each kept file in the list's order: the place after
    // the last one asked is tried first, and must never be a place a path has left.
    const path = join(root, "state", "files.json");
    const files = Array.from({ length: 10 }, (_, i) => `page-${i}/index.html`);
    const hashes = new Map(files.map((file, i) => [file, `h${i}`]));
    const inputs = new Map(files.map((file, i) => [file, { inputs: `d${i}`, bytes: i }]));
    writeFileList(path, hashes, inputs);
    const next = { hashes: new Map(hashes), inputs: new Map(inputs) };
    next.hashes.set("page-3/index.html", "edited");
    next.inputs.set("page-3/index.html", { inputs: "other", bytes: 33 });
    next.hashes.delete("page-5/index.html");
    next.inputs.delete("page-5/index.html");
    next.hashes.set("page-10/index.html", "new");
    writeFileList(path, next.hashes, next.inputs, new Map(), readFileList(path));
    expect(existsSync(`${path}.journal`)).toBe(true);
    const list = readFileList(path);
    if (!list?.places) throw new Error("the list was not read back");
    for (const order of [[...files, "page-10/index.html"], [...files].reverse()]) {
      for (const file of order) {
        expect(list.hashes.get(file), file).toBe(next.hashes.get(file));
        expect(list.inputs.get(file), file).toEqual(next.inputs.get(file));
        const place = list.places.of(file);
        expect(place === undefined ? undefined : list.places.hash(place), file).toBe(
          next.hashes.get(file),
        );
      }
    }
  });

  it("should give a path named twice in a list its last values, whatever was asked before", () => {
    // Not written by a publish (each path once), but read as it says.
    const path = join(root, "by-hand.json");
    writeFileSync(
      path,
      `{"version":6,"list":"by-hand"}\n${JSON.stringify([
        ...["b", "hb", null, null, null],
        ...["a", "old", null, null, null],
        ...["c", "hc", null, null, null],
        ...["a", "new", null, null, null],
      ])}\n{"files":4}\n`,
    );
    const list = readFileList(path);
    expect(list && [list.hashes.get("b"), list.hashes.get("a"), list.hashes.get("c")]).toEqual([
      "hb",
      "new",
      "hc",
    ]);
  });

  it("should write a list far larger than one write a line at a time, and read it back", () => {
    // Written piece by piece; names with quotes, backslashes and non-ASCII letters.
    const hashes = new Map(
      Array.from({ length: 20_000 }, (_, i) => [`café/"q"\\${i}/index.html`, `h${i}`] as const),
    );
    const path = join(root, "state", "large-list.json");
    writeFileList(path, hashes);
    const inputs = new Map(
      [...hashes.keys()].map((file, i) => [file, { inputs: `d${i}`, bytes: i }] as const),
    );
    const signatures = new Map([...hashes.keys()].map((file, i) => [file, 2 ** 52 - i] as const));
    writeFileList(path, hashes, inputs, signatures);
    expect(statSync(path).size).toBeGreaterThan(6 * 65536);
    expect(listed(path)).toEqual({ hashes, inputs, signatures });
    // A header line, lines of files read one at a time (20,000 files on 10), their count.
    const lines = readFileSync(path, "utf8").split("\n");
    expect(lines.length).toBe(13);
    expect(lines.at(-2)).toBe('{"files":20000}');
    // A list cut short (a full disk, a copy stopped halfway) is no list: the next build
    // renders everything rather than keep files by a list it has only part of. Cut within
    // a line, or between two.
    const text = readFileSync(path);
    const lineEnds: number[] = [];
    for (let at = text.indexOf(10); at !== -1; at = text.indexOf(10, at + 1)) lineEnds.push(at + 1);
    for (const cut of [
      text.length - 1,
      Math.floor(text.length / 2),
      20,
      ...lineEnds.slice(0, -1),
    ]) {
      writeFileSync(path, text.subarray(0, cut));
      expect(readFileList(path)).toBeNull();
    }
  });
});
