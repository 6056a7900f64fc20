import { mkdirSync, mkdtempSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readMetrics } from "../../src/metrics.ts";
import {
  contentHash,
  fileSignature,
  keepPublished,
  type PublishedFiles,
} from "../../src/render/published-files.ts";
import { checkSignaturesAside } from "../../src/render/signatures-aside.ts";
import { scratchSpace } from "../helpers/scratch-space.ts";

/*
 * The published files' stats taken on another thread while a build renders
 * (src/render/signatures-aside.ts): it may only ever say "as recorded" of a
 * file whose stat still gives the signature the last publish recorded.
 */

const root = mkdtempSync(join(scratchSpace(), "ecp-signatures-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A published folder of `count` files, and the signatures its publish recorded. */
function publishedFolder(name: string, count: number) {
  const folder = join(root, name);
  mkdirSync(join(folder, "pages"), { recursive: true });
  const signatures = new Map<string, number>();
  const hashes = new Map<string, string>();
  for (let i = 0; i < count; i++) {
    const path = `pages/${i}.html`;
    const content = `<p>page ${i}</p>`;
    writeFileSync(join(folder, path), content);
    signatures.set(path, fileSignature(statSync(join(folder, path))));
    hashes.set(path, contentHash(content));
  }
  return { folder, signatures, hashes };
}

/**
 * Other bytes at the same size, in a file of its own put in its place: its
 * signature moves by its inode, whatever the clock's grain (an edit within
 * the same tick of a coarse clock may leave its change time as it was).
 */
function replaceSameSize(folder: string, path: string, content: string): void {
  writeFileSync(join(folder, `${path}.new`), content);
  renameSync(join(folder, `${path}.new`), join(folder, path));
}

describe("checkSignaturesAside", () => {
  it("should say a file is as recorded only once its stat shows it, batch after batch", async () => {
    const { folder, signatures } = publishedFolder("batches", 12);
    // Replaced at the same size, gone, made a folder: each stat says something else.
    replaceSameSize(folder, "pages/3.html", "<p>page X</p>");
    rmSync(join(folder, "pages/7.html"));
    rmSync(join(folder, "pages/10.html"));
    mkdirSync(join(folder, "pages/10.html"));
    // A file without a recorded signature is never said to be as recorded.
    signatures.delete("pages/5.html");

    const check = checkSignaturesAside(folder, signatures, 5);
    // Nothing is said before the pass is done: the build's thread checks for itself.
    expect(check.unchanged("pages/0.html")).toBe(false);
    await check.done;
    const unchanged = [...Array(12).keys()].filter((i) => check.unchanged(`pages/${i}.html`));
    expect(unchanged).toEqual([0, 1, 2, 4, 6, 8, 9, 11]);
    expect(check.unchanged("pages/elsewhere.html")).toBe(false);
  });

  it("should leave a path no site has (one holding a NUL) to the build's thread, and answer for the rest", async () => {
    const published = publishedFolder("nul", 3);
    const signatures = new Map([["pages/1.html\0pages/2.html", 1], ...published.signatures]);
    const check = checkSignaturesAside(published.folder, signatures);
    await check.done;
    expect(check.unchanged("pages/1.html\0pages/2.html")).toBe(false);
    expect([0, 1, 2].map((i) => check.unchanged(`pages/${i}.html`))).toEqual([true, true, true]);
  });

  it("should say nothing of a folder it cannot read", async () => {
    const { signatures } = publishedFolder("gone", 3);
    const check = checkSignaturesAside(join(root, "no-such-folder"), signatures);
    await check.done;
    expect(check.unchanged("pages/0.html")).toBe(false);
  });

  it("should let a build keep a file without a stat of its own, and check a moved one itself", async () => {
    const { folder, signatures, hashes } = publishedFolder("kept", 4);
    replaceSameSize(folder, "pages/2.html", "<p>page Y</p>");
    const aside = checkSignaturesAside(folder, signatures);
    await aside.done;
    const published: PublishedFiles = { folder, hashes, signatures, aside };
    const counted = (name: string) => readMetrics().counters[name] ?? 0;
    const [stattedBefore, asideBefore] = [counted("files.statted"), counted("files.checkedAside")];

    const file = (i: number) => ({ hash: contentHash(`<p>page ${i}</p>`), bytes: 13 });
    expect([0, 1, 3].map((i) => keepPublished(published, `pages/${i}.html`, file(i)))).toEqual([
      true,
      true,
      true,
    ]);
    // Another content at the same size: read on the build's thread, not kept.
    expect(keepPublished(published, "pages/2.html", file(2))).toBe(false);
    expect(counted("files.checkedAside") - asideBefore).toBe(3);
    expect(counted("files.statted") - stattedBefore).toBe(1);
  });
});
