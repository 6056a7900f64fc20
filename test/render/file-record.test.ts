import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fileSignatures, readFileList, writeFileList } from "../../src/publish/output-files.ts";
import { FileRecord } from "../../src/render/file-record.ts";
import { FileWriter } from "../../src/render/file-writer.ts";
import {
  type KnownFile,
  knownFile,
  type PublishedFiles,
  type RenderedFrom,
} from "../../src/render/published-files.ts";

let root: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "ecp-file-record-"));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

/**
 * Writes `files` (path -> content, rendered from "inputs of <path>") as a
 * publish would leave them, and reads back their list: the next build's
 * published files.
 */
function publish(files: ReadonlyMap<string, string>): PublishedFiles {
  const folder = join(root, "published");
  const writer = new FileWriter(folder);
  for (const [path, content] of files) writer.write(path, content, `inputs of ${path}`);
  const record = writer.known;
  const listPath = join(root, "files.json");
  writeFileList(
    listPath,
    new Map([...record].map(([path, file]) => [path, file.hash])),
    inputsOf(record),
    fileSignatures(folder, record.keys()),
  );
  const list = readFileList(listPath);
  if (!list) throw new Error("the list was not read back");
  return { ...list, folder };
}

/** What a record's files were rendered from, as the list a publish writes of them keeps it. */
function inputsOf(record: ReadonlyMap<string, KnownFile>): Map<string, RenderedFrom> {
  return new Map(
    [...record].map(([path, file]) => [path, { inputs: file.inputs ?? "", bytes: file.bytes }]),
  );
}

describe("file-record", () => {
  it("should hold a file kept as listed as a mark, and give back the list's record of it", () => {
    const published = publish(
      new Map([
        ["a.html", "A"],
        ["b.html", "B"],
      ]),
    );
    const record = new FileRecord(published);
    record.keptAsListed("a.html");
    record.set("c.html", knownFile("hash-of-c", 3, undefined, false));

    expect(record.ownEntries).toBe(1);
    expect(record.size).toBe(2);
    expect(record.has("a.html")).toBe(true);
    expect(record.has("b.html")).toBe(false);
    expect(record.get("b.html")).toBeUndefined();
    expect(record.get("a.html")).toEqual({
      hash: published.hashes.get("a.html"),
      bytes: 1,
      inputs: published.inputs?.get("a.html")?.inputs,
      kept: true,
    });
    expect(new Set(record.keys())).toEqual(new Set(["a.html", "c.html"]));
    expect(new Map(record)).toEqual(
      new Map([
        ["c.html", knownFile("hash-of-c", 3, undefined, false)],
        ["a.html", record.get("a.html")],
      ]),
    );
  });

  it("should key another file by the list's own text of its path", () => {
    const published = publish(new Map([["a.html", "A"]]));
    const record = new FileRecord(published);
    // A path made apart from the list's: the same text, another string.
    const path = ["a", "html"].join(".");
    record.set(path, knownFile("new", 1, undefined, false));
    const [key] = [...record.keys()];
    expect(key).toBe("a.html");
    expect(published.places?.path(published.places.of("a.html") ?? -1)).toBe(key);
  });

  it("should give a file of its own entry when there is no list to mark it in, and refuse one the list lacks", () => {
    const record = new FileRecord(null);
    expect(() => record.keptAsListed("a.html")).toThrow("a.html is not in the published list");
    record.set("a.html", knownFile("h", 1, undefined, false));
    expect(record.ownEntries).toBe(1);
    expect(record.get("a.html")?.hash).toBe("h");
  });

  it("should leave a writer over a list read back one entry of its own for the one file edited of fifty", () => {
    const files = new Map(
      Array.from({ length: 50 }, (_, n) => [`events/${n}/index.html`, `<p>${n}</p>`] as const),
    );
    const published = publish(files);
    const writer = new FileWriter(join(root, "next"), { published });
    let rendered = 0;
    for (const [path, content] of files) {
      const edited = path === "events/7/index.html";
      const kept = !writer.write(
        path,
        () => {
          rendered++;
          return edited ? "<p>seven, edited</p>" : content;
        },
        edited ? "inputs edited" : `inputs of ${path}`,
      );
      expect(kept).toBe(!edited);
    }
    expect(rendered).toBe(1);
    expect(writer.files).toBe(50);
    expect(writer.known.size).toBe(50);
    expect(writer.known.ownEntries).toBe(1);
    expect(writer.known.get("events/7/index.html")?.kept).toBe(false);
    expect(writer.known.get("events/8/index.html")).toMatchObject({
      kept: true,
      bytes: Buffer.byteLength("<p>8</p>"),
      hash: published.hashes.get("events/8/index.html"),
    });
    // Each path once, in the order written, the edited one among the kept: the list is
    // written in this order, and the next build's writer asks it in much the same.
    expect([...writer.known.keys()]).toEqual([...files.keys()]);
    expect([...writer.known.entries()].map(([path, file]) => [path, file.kept])).toEqual(
      [...files.keys()].map((path) => [path, path !== "events/7/index.html"]),
    );
  });

  it("should give back thousands of files in the order recorded, kept and written alike", () => {
    const files = new Map(Array.from({ length: 3000 }, (_, n) => [`f/${n}.ics`, `${n}`] as const));
    const published = publish(files);
    const record = new FileRecord(published);
    const order = [...files.keys()].reverse();
    for (const [at, path] of order.entries()) {
      if (at % 7 === 0) record.set(path, knownFile(`new ${path}`, 1, undefined, false));
      else record.keptAsListed(path);
    }
    // And more files than the list has, past the room made for them.
    const added = Array.from({ length: 2000 }, (_, n) => `new/${n}.ics`);
    for (const path of added) record.set(path, knownFile(`h ${path}`, 1, undefined, false));
    expect([...record.keys()]).toEqual([...order, ...added]);
    expect(record.get(order[7] ?? "")?.hash).toBe(`new ${order[7]}`);
    expect(record.get(order[8] ?? "")?.hash).toBe(published.hashes.get(order[8] ?? ""));
  });

  it("should mark a file rendered again to the list's bytes, with its new inputs, as a build under new code keeps most", () => {
    const files = new Map(
      Array.from({ length: 20 }, (_, n) => [`events/${n}/index.html`, `<p>${n}</p>`] as const),
    );
    const published = publish(files);
    const writer = new FileWriter(join(root, "next"), { published });
    // Other inputs (new code renders every file): each rendered, the same bytes but one.
    for (const [path, content] of files) {
      const edited = path === "events/3/index.html";
      expect(writer.write(path, edited ? "<p>three</p>" : content, `new inputs of ${path}`)).toBe(
        true,
      );
    }
    expect(writer.known.size).toBe(20);
    expect(writer.known.ownEntries).toBe(1);
    const kept = writer.known.get("events/4/index.html");
    expect(kept).toMatchObject({
      kept: true,
      bytes: Buffer.byteLength("<p>4</p>"),
      hash: published.hashes.get("events/4/index.html"),
    });
    // Its new inputs' digest, not the list's: the next build keeps it unrendered.
    expect(kept?.inputs).toBeDefined();
    expect(kept?.inputs).not.toBe(published.inputs?.get("events/4/index.html")?.inputs);
    const again = new FileWriter(join(root, "again"), {
      published: {
        ...published,
        inputs: inputsOf(writer.known),
      },
    });
    expect(
      again.write(
        "events/4/index.html",
        () => "never rendered",
        "new inputs of events/4/index.html",
      ),
    ).toBe(false);
    expect(writer.known.get("events/3/index.html")?.kept).toBe(false);
  });
});
