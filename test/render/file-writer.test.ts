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
