import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readMetrics } from "../../src/metrics.ts";
import { writeAside, writeFiles, writeNow } from "../../src/render/disk-writes.ts";
import { FileWriter } from "../../src/render/file-writer.ts";

let root: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "ecp-disk-writes-"));
});

afterEach(async () => {
  chmodSync(root, 0o700);
  await rm(root, { recursive: true, force: true });
});

/** A page of `size` bytes that says which it is. */
const page = (n: number, size: number) => {
  const head = `<p>${n} é</p>`;
  return Buffer.from(head + "x".repeat(Math.max(0, size - Buffer.byteLength(head))));
};

describe("disk-writes", () => {
  it("should make each folder before its first file, remembering only the latest folders", () => {
    const made: string[] = [];
    const fs = {
      mkdirSync: ((path: string, options: { recursive: true }) => {
        made.push(path);
        return mkdirSync(path, options);
      }) as typeof mkdirSync,
      writeFileSync,
      dirname,
    };
    const folders = new Set<string>();
    // Ten folders of two files each, then the first folder again, three folders remembered.
    const targets = Array.from({ length: 20 }, (_, n) =>
      join(root, `d${n >> 1}`, `${n}.html`),
    ).concat(join(root, "d0", "again.html"));
    const bytes = Buffer.from(targets.map((_, n) => String.fromCharCode(97 + n)).join(""));
    writeFiles(
      fs,
      folders,
      3,
      targets,
      Array.from(targets, (_, n) => n + 1),
      bytes,
    );
    const folder = (n: number) => join(root, `d${n}`);
    expect(made).toEqual([...Array.from({ length: 10 }, (_, n) => folder(n)), folder(0)]);
    expect(folders.size).toBeLessThanOrEqual(3);
    targets.forEach((target, n) => {
      expect(readFileSync(target, "utf8")).toBe(String.fromCharCode(97 + n));
    });
  });

  it("should write every file aside, in its folders, with its bytes, by the time finish settles", async () => {
    const disk = writeAside();
    // 3,000 files of 2 kB over 30 folders (several batches), then one larger than a batch.
    const files = Array.from({ length: 3000 }, (_, n) => ({
      target: join(root, `f${n % 30}`, `${n}.html`),
      bytes: page(n, 2048),
    }));
    files.push({ target: join(root, "large", "sitemap.xml"), bytes: page(-1, 3 << 20) });
    for (const { target, bytes } of files) {
      expect(Buffer.from(disk.bytesOf(bytes)).equals(bytes)).toBe(true);
      disk.write(target);
    }
    await disk.finish();
    for (const { target, bytes } of files) expect(readFileSync(target).equals(bytes)).toBe(true);
    expect(readdirSync(root)).toHaveLength(31);
  });

  it("should encode texts in place, large ones too, and write only the bytes it is told to", async () => {
    const disk = writeAside();
    const texts = [
      { target: join(root, "a.html"), text: "<p>ünïcödé ✓ 𝄞</p>" },
      {
        target: join(root, "big", "sitemap.xml"),
        text: `<urlset>${"<loc>é</loc>".repeat(200_000)}`,
      },
      { target: join(root, "b.html"), text: "" },
    ];
    for (const [n, { target, text }] of texts.entries()) {
      // Encoded, then not written (a file kept as published): the next takes its place.
      disk.bytesOf(`never written ${n}`.repeat(n * 5000 + 1));
      expect(Buffer.from(disk.bytesOf(text)).toString()).toBe(text);
      disk.write(target);
    }
    await disk.finish();
    for (const { target, text } of texts) expect(readFileSync(target, "utf8")).toBe(text);
    expect(readdirSync(root).sort()).toEqual(["a.html", "b.html", "big"]);
  });

  it("should write a text given in pieces as the text, in batches and at once alike", async () => {
    // Pieces of one and several bytes a character, 3 MB in all: more than a batch.
    const pieces = Array.from(
      { length: 3000 },
      (_, n) => `<item>${n} é ✓ 𝄞 ${"x".repeat(1000)}</item>`,
    );
    const disks = { now: writeNow(), aside: writeAside() };
    for (const [name, disk] of Object.entries(disks)) {
      disk.bytesOf("a file before it");
      disk.write(join(root, name, "before.html"));
      expect(Buffer.from(disk.bytesOf(pieces)).toString()).toBe(pieces.join(""));
      disk.write(join(root, name, "feed.xml"));
      disk.bytesOf([]);
      disk.write(join(root, name, "empty.xml"));
      await disk.finish();
      expect(readFileSync(join(root, name, "feed.xml"), "utf8")).toBe(pieces.join(""));
      expect(readFileSync(join(root, name, "before.html"), "utf8")).toBe("a file before it");
      expect(readFileSync(join(root, name, "empty.xml"), "utf8")).toBe("");
    }
  });

  it("should fill the buffers the thread has written again, not a new one for each batch", async () => {
    const made = () => readMetrics().counters["write.batchBuffersMade"] ?? 0;
    const before = made();
    const disk = writeAside();
    // 40 MB in 2 kB files: about 40 batches of a megabyte.
    for (let n = 0; n < 20_000; n++) {
      disk.bytesOf(page(n, 2048));
      disk.write(join(root, `f${n % 50}`, `${n}.html`));
    }
    await disk.finish();
    // At most 8 MB wait to be written: 8 buffers on the thread, and the one being filled.
    expect(made() - before).toBeGreaterThan(0);
    expect(made() - before).toBeLessThanOrEqual(9);
    expect(readFileSync(join(root, "f7", "19957.html")).equals(page(19_957, 2048))).toBe(true);
    expect(readdirSync(join(root, "f7"))).toHaveLength(400);
  });

  it("should write through the file writer aside as at once: the same files, known by the same hashes", async () => {
    const disks = { now: writeNow(), aside: writeAside() };
    const now = new FileWriter(join(root, "now"), { disk: disks.now });
    const aside = new FileWriter(join(root, "aside"), { disk: disks.aside });
    for (const [writer, disk] of [
      [now, disks.now],
      [aside, disks.aside],
    ] as const) {
      for (let n = 0; n < 600; n++)
        writer.write(`calendars/c${n % 7}/e${n}/index.html`, `${page(n, 900)}`);
      await disk.finish();
    }
    expect([...aside.known]).toEqual([...now.known]);
    for (const path of now.known.keys()) {
      expect(readFileSync(join(root, "aside", path), "utf8")).toBe(
        readFileSync(join(root, "now", path), "utf8"),
      );
    }
  });

  it("should write nothing more once abandoned, so that a failed build's staging folder stays removed", async () => {
    const disk = writeAside();
    // Enough for several batches: some are still waiting when the build gives up.
    for (let n = 0; n < 2000; n++) {
      disk.bytesOf(page(n, 4096));
      disk.write(join(root, "staging", `f${n % 40}`, `${n}.html`));
    }
    await disk.abandon();
    rmSync(join(root, "staging"), { recursive: true, force: true });
    // Nothing comes back after the folder is gone.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(existsSync(join(root, "staging"))).toBe(false);
  });

  it("should fail finish with the file that could not be written, as a direct write would", async () => {
    if (process.getuid?.() === 0) {
      // root writes into a read-only folder: a file where a folder must go fails for everyone.
      writeFileSync(join(root, "taken"), "");
    } else {
      chmodSync(root, 0o500);
    }
    const target = join(root, "taken", "index.html");
    const direct = (() => {
      try {
        const disk = writeNow();
        disk.bytesOf(page(1, 10));
        disk.write(target);
        return null;
      } catch (error) {
        return error as NodeJS.ErrnoException;
      }
    })();
    expect(direct).not.toBeNull();
    const disk = writeAside();
    disk.bytesOf(page(1, 10));
    disk.write(target);
    await expect(disk.finish()).rejects.toMatchObject({
      message: direct?.message,
      code: direct?.code,
    });
  });
});
