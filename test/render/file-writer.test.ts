import { statSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FileWriter, pieceDigests } from "../../src/render/file-writer.ts";

let root: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "ecp-file-writer-"));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

/** What a publish of the files `writer` wrote into root/published leaves for the next build. */
const publishedBy = (writer: FileWriter) => ({
  folder: join(root, "published"),
  hashes: new Map([...writer.known].map(([path, file]) => [path, file.hash])),
  inputs: new Map(
    [...writer.known].map(([path, file]) => [
      path,
      { inputs: file.inputs ?? "", bytes: file.bytes, pieces: file.pieces },
    ]),
  ),
});

describe("file-writer", () => {
  it("should write files in new folders and count them", async () => {
    const writer = new FileWriter(root);
    writer.write("a/b/index.html", "<p>é</p>");
    writer.write("a/b/event.ics", "BEGIN:VCALENDAR");
    expect(await readFile(join(root, "a/b/index.html"), "utf8")).toBe("<p>é</p>");
    expect(writer.files).toBe(2);
    expect(writer.bytes).toBe(Buffer.byteLength("<p>é</p>") + 15);
  });

  it("should keep the last publish's copy of a file with the same bytes instead of writing it, and say so", async () => {
    const first = new FileWriter(join(root, "published"));
    first.write("same.html", "x");
    first.write("edited.xml", "1");
    const published = {
      folder: join(root, "published"),
      hashes: new Map([...first.known].map(([path, file]) => [path, file.hash])),
    };
    const next = new FileWriter(join(root, "next"), { published });
    next.write("same.html", "x");
    next.write("edited.xml", "2");
    const inode = (path: string) => statSync(join(root, path)).ino;
    expect(inode("next/same.html")).toBe(inode("published/same.html"));
    expect(inode("next/edited.xml")).not.toBe(inode("published/edited.xml"));
    expect(await readFile(join(root, "next/edited.xml"), "utf8")).toBe("2");
    expect(next.known.get("same.html")?.kept).toBe(true);
    expect(next.known.get("edited.xml")?.kept).toBeUndefined();
    expect(next.files).toBe(2);
  });

  it("should keep a file rendered from the same inputs without its bytes, and only then", async () => {
    const first = new FileWriter(join(root, "published"));
    first.write("same.xml", "<feed>same</feed>", "inputs of same");
    first.write("edited.xml", "<feed>1</feed>", "inputs of edited, 1");
    first.write("touched.xml", "<feed>t</feed>", "inputs of touched");
    const published = publishedBy(first);
    // Edited by hand since it was published: its size no longer matches.
    await writeFile(join(root, "published", "touched.xml"), "<feed>by hand</feed>");

    const next = new FileWriter(join(root, "next"), { published });
    expect(next.keepUnchanged("same.xml", "inputs of same")).toBe(true);
    expect(next.keepUnchanged("edited.xml", "inputs of edited, 2")).toBe(false);
    expect(next.keepUnchanged("touched.xml", "inputs of touched")).toBe(false);
    expect(next.keepUnchanged("new.xml", "inputs of new")).toBe(false);
    next.write("edited.xml", "<feed>2</feed>", "inputs of edited, 2");
    const inode = (path: string) => statSync(join(root, path)).ino;
    expect(inode("next/same.xml")).toBe(inode("published/same.xml"));
    expect(next.known.get("same.xml")).toEqual({ ...first.known.get("same.xml"), kept: true });
    expect(next.known.get("edited.xml")?.inputs).not.toBe(first.known.get("edited.xml")?.inputs);
    expect(next.files).toBe(2);
    expect(next.bytes).toBe(Buffer.byteLength("<feed>same</feed><feed>2</feed>"));
    // The path is the writer's now: writing it again is refused as any second write.
    expect(() => next.write("same.xml", "x")).toThrow(/Two outputs want to write same.xml/);
  });

  it("should offer a published file's pieces by what they are made from, with its bytes, and only as published", async () => {
    const first = new FileWriter(join(root, "published"));
    first.write(
      "feed.xml",
      "<feed><a/><b/></feed>",
      "inputs 1",
      pieceDigests(["piece a", "piece b"]),
    );
    first.write("touched.xml", "<feed><a/></feed>", "inputs 1", pieceDigests(["piece a"]));
    first.write("plain.xml", "<feed/>", "inputs 1");
    const published = publishedBy(first);
    await writeFile(join(root, "published", "touched.xml"), "<feed>by hand</feed>");

    const next = new FileWriter(join(root, "next"), { published });
    const asked = pieceDigests(["piece b", "piece a", "piece c"]);
    const pieces = next.publishedPieces("/feed.xml", asked);
    expect(pieces?.bytes.toString()).toBe("<feed><a/><b/></feed>");
    expect(pieces?.count).toBe(2);
    expect(pieces?.positions).toEqual([1, 0, -1]);
    // Kept with the file, the pieces are published again with it.
    expect(next.keepUnchanged("feed.xml", "inputs 1")).toBe(true);
    expect(next.known.get("feed.xml")?.pieces).toBe(first.known.get("feed.xml")?.pieces);
    // Edited by hand (another size), without pieces, or never published: none.
    expect(next.publishedPieces("touched.xml", asked)).toBeNull();
    expect(next.publishedPieces("plain.xml", asked)).toBeNull();
    expect(next.publishedPieces("new.xml", asked)).toBeNull();
  });

  it("should refuse a path written before, by itself or by Eleventy", () => {
    const writer = new FileWriter(root, { taken: ["index.html"] });
    expect(() => writer.write("/index.html", "x")).toThrow(/Two outputs want to write index.html/);
    writer.write("/a.html", "x");
    expect(() => writer.write("a.html", "y")).toThrow(/Two outputs want to write a.html/);
  });

  it("should take site paths and refuse any outside the output folder", () => {
    const writer = new FileWriter(root);
    writer.write("/feed.xml", "<rss/>");
    expect(writer.files).toBe(1);
    expect(() => writer.write("/../escape.txt", "x")).toThrow(/outside the output folder/);
    expect(() => writer.write("a/../../escape.txt", "x")).toThrow(/outside the output folder/);
  });
});
