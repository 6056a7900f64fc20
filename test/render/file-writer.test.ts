import { statSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FileWriter } from "../../src/render/file-writer.ts";

let root: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "ecp-file-writer-"));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
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
