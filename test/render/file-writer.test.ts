import { existsSync, statSync, utimesSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
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

/** What a publish of the files `writer` wrote into root/published leaves for the next build. */
const publishedBy = (writer: FileWriter) => ({
  folder: join(root, "published"),
  hashes: new Map([...writer.known].map(([path, file]) => [path, file.hash])),
  inputs: new Map(
    [...writer.known].map(([path, file]) => [
      path,
      { inputs: file.inputs ?? "", bytes: file.bytes },
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
    // Kept: left where it is, for the publish step to leave untouched; nothing is written.
    expect(existsSync(join(root, "next/same.html"))).toBe(false);
    expect(await readFile(join(root, "next/edited.xml"), "utf8")).toBe("2");
    expect(next.known.get("same.html")?.kept).toBe(true);
    expect(next.known.get("edited.xml")?.kept).toBe(false);
    expect(next.files).toBe(2);
  });

  it("should keep a file rendered from the same inputs without rendering it, and only then", async () => {
    const first = new FileWriter(join(root, "published"));
    first.write("same.xml", "<feed>same</feed>", "inputs of same");
    first.write("edited.xml", "<feed>1</feed>", "inputs of edited, 1");
    first.write("touched.xml", "<feed>t</feed>", "inputs of touched");
    const published = publishedBy(first);
    // Edited by hand since it was published: its size no longer matches.
    await writeFile(join(root, "published", "touched.xml"), "<feed>by hand</feed>");

    const next = new FileWriter(join(root, "next"), { published });
    const rendered: string[] = [];
    const render = (path: string, content: string) => () => {
      rendered.push(path);
      return content;
    };
    expect(next.write("same.xml", render("same.xml", "<feed>x</feed>"), "inputs of same")).toBe(
      false,
    );
    expect(
      next.write("edited.xml", render("edited.xml", "<feed>2</feed>"), "inputs of edited, 2"),
    ).toBe(true);
    expect(
      next.write("touched.xml", render("touched.xml", "<feed>t</feed>"), "inputs of touched"),
    ).toBe(true);
    expect(next.write("new.xml", render("new.xml", "<feed>n</feed>"), "inputs of new")).toBe(true);
    expect(rendered).toEqual(["edited.xml", "touched.xml", "new.xml"]);
    expect(existsSync(join(root, "next/same.xml"))).toBe(false);
    expect(await readFile(join(root, "next/touched.xml"), "utf8")).toBe("<feed>t</feed>");
    expect(next.known.get("same.xml")).toEqual({ ...first.known.get("same.xml"), kept: true });
    expect(next.known.get("edited.xml")?.inputs).not.toBe(first.known.get("edited.xml")?.inputs);
    expect(next.files).toBe(4);
    // The path is the writer's now: writing it again is refused as any second write.
    expect(() => next.write("same.xml", "x")).toThrow(/Two outputs want to write same.xml/);
  });

  it("should write again a published file edited by hand to the same size, kept by its inputs or its bytes", async () => {
    const first = new FileWriter(join(root, "published"));
    first.write("feed.xml", "<feed>one</feed>", "inputs of the feed");
    first.write("page.html", "<p>one</p>");
    const published = publishedBy(first);
    // Edited in place, the same number of bytes, the modification time set back.
    for (const [path, edited] of [
      ["feed.xml", "<feed>two</feed>"],
      ["page.html", "<p>two</p>"],
    ] as const) {
      const file = join(root, "published", path);
      const { atime, mtime, size } = statSync(file);
      await writeFile(file, edited);
      utimesSync(file, atime, mtime);
      expect(statSync(file).size).toBe(size);
    }
    const next = new FileWriter(join(root, "next"), { published });
    expect(next.write("feed.xml", () => "<feed>one</feed>", "inputs of the feed")).toBe(true);
    next.write("page.html", "<p>one</p>");
    expect(await readFile(join(root, "next/feed.xml"), "utf8")).toBe("<feed>one</feed>");
    expect(await readFile(join(root, "next/page.html"), "utf8")).toBe("<p>one</p>");
    expect(next.known.get("feed.xml")?.kept).toBe(false);
    expect(next.known.get("page.html")?.kept).toBe(false);
  });

  it("should give a published file's bytes only for its inputs and only while it is that file, keeping nothing", async () => {
    const first = new FileWriter(join(root, "published"));
    first.write("a/event.ics", "BEGIN:VCALENDAR one", "inputs of a");
    first.write("b/event.ics", "BEGIN:VCALENDAR two", "inputs of b");
    first.write("c/event.ics", "BEGIN:VCALENDAR three", "inputs of c");
    first.write("page.html", "<p>no inputs</p>");
    const published = publishedBy(first);
    // Edited in place to the same size, its stat set back: only its bytes tell.
    const edited = join(root, "published", "b/event.ics");
    const { atime, mtime } = statSync(edited);
    await writeFile(edited, "BEGIN:VCALENDAR 2wo");
    utimesSync(edited, atime, mtime);
    await rm(join(root, "published", "c/event.ics"));

    const next = new FileWriter(join(root, "next"), { published });
    expect(next.publishedCopy("a/event.ics", () => "inputs of a")?.toString()).toBe(
      "BEGIN:VCALENDAR one",
    );
    expect(next.publishedCopy("/a/event.ics", () => "inputs of a")?.toString()).toBe(
      "BEGIN:VCALENDAR one",
    );
    expect(next.publishedCopy("a/event.ics", () => "inputs of a, edited")).toBeUndefined();
    expect(next.publishedCopy("b/event.ics", () => "inputs of b")).toBeUndefined();
    expect(next.publishedCopy("c/event.ics", () => "inputs of c")).toBeUndefined();
    expect(next.publishedCopy("page.html", () => "")).toBeUndefined();
    expect(next.publishedCopy("new.ics", () => "inputs of a")).toBeUndefined();
    // Asking kept nothing and wrote nothing: the file is still the writer's to keep or write.
    expect(next.files).toBe(0);
    expect(next.write("a/event.ics", () => "not rendered", "inputs of a")).toBe(false);
  });

  it("should refuse a path written before, by itself or by Eleventy", () => {
    const writer = new FileWriter(root);
    writer.write("/a.html", "x");
    expect(() => writer.write("a.html", "y")).toThrow(/Two outputs want to write a.html/);
    expect(() => writer.refuseTaken(["index.html"])).not.toThrow();
    expect(() => writer.refuseTaken(["index.html", "a.html"])).toThrow(
      /Two outputs want to write a.html/,
    );
  });

  it("should take site paths and refuse any outside the output folder", () => {
    const writer = new FileWriter(root);
    writer.write("/feed.xml", "<rss/>");
    expect(writer.files).toBe(1);
    expect(() => writer.write("/../escape.txt", "x")).toThrow(/outside the output folder/);
    expect(() => writer.write("a/../../escape.txt", "x")).toThrow(/outside the output folder/);
  });

  it("should write a language's files into its folder, known and kept by their paths in the whole site", async () => {
    const first = new FileWriter(join(root, "published", "fr"), { folder: "fr/" });
    first.write("/feed.xml", "<rss>fr</rss>");
    expect(first.known.has("fr/feed.xml")).toBe(true);
    const published = {
      folder: join(root, "published"),
      hashes: new Map([["fr/feed.xml", first.known.get("fr/feed.xml")?.hash ?? ""]]),
    };
    const next = new FileWriter(join(root, "next", "fr"), { published, folder: "fr/" });
    next.write("feed.xml", "<rss>fr</rss>");
    expect(next.known.get("fr/feed.xml")?.kept).toBe(true);
    expect(existsSync(join(root, "next/fr/feed.xml"))).toBe(false);
    next.write("feed.json", "{}");
    expect(existsSync(join(root, "next/fr/feed.json"))).toBe(true);
    expect(() => next.refuseTaken(["feed.xml"])).toThrow(/Two outputs want to write fr\/feed.xml/);
  });
});
