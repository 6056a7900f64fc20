import { createHash } from "node:crypto";
import * as nodeFs from "node:fs/promises";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PublishError } from "../../src/errors.ts";
import {
  cleanStaleStaging,
  discardStaging,
  nodeFileSystem,
  type PublishFs,
  prepareStaging,
  publishAtomically,
  publishInPlace,
} from "../../src/publish/publish.ts";
import { listFiles, writeTree } from "../helpers/files.ts";

const OLD_SITE = {
  "index.html": "<h1>old</h1>",
  "calendar.ics": "BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n",
  "api/manifest.json": '{"totals":{"events":3}}',
};
const NEW_SITE = { "index.html": "<h1>new</h1>", "feed.xml": "<rss/>" };

/** A digest of every path and byte below a folder. */
async function digest(root: string): Promise<string> {
  const hash = createHash("sha256");
  for (const file of await listFiles(root)) {
    hash
      .update(file)
      .update("\0")
      .update(await readFile(join(root, file)))
      .update("\0");
  }
  return hash.digest("hex");
}

/** The real file system, except that one rename fails like a full or read-only disk. */
function failingRename(shouldFail: (from: string, to: string) => boolean): PublishFs {
  return {
    ...nodeFileSystem,
    rename: async (from, to) => {
      if (shouldFail(from, to))
        throw Object.assign(new Error("EIO: i/o error, rename"), { code: "EIO" });
      await nodeFs.rename(from, to);
    },
  };
}

let work: string;
let output: string;
const quiet = () => undefined;

beforeEach(async () => {
  work = await mkdtemp(join(tmpdir(), "ecp-publish-"));
  output = join(work, "_site");
});

afterEach(async () => {
  await rm(work, { recursive: true, force: true });
});

/** OLD_SITE published at the output folder, NEW_SITE staged beside it; the old site's digest. */
async function stageOverOldSite(): Promise<{ before: string; staging: string }> {
  await writeTree(output, OLD_SITE);
  const before = await digest(output);
  const staging = await prepareStaging(output);
  await writeTree(staging, NEW_SITE);
  return { before, staging };
}

describe("prepareStaging", () => {
  it("should create an empty staging folder next to the output", async () => {
    const staging = await prepareStaging(output);

    expect(basename(staging)).toMatch(new RegExp(`^_site\\.staging-${process.pid}-[0-9a-f]{12}$`));
    expect(await readdir(staging)).toEqual([]);
    expect(await readdir(work)).toEqual([basename(staging)]);
  });

  it("should remove staging folders left by crashed builds and keep those of running ones", async () => {
    await mkdir(output);
    const crashed = join(work, "_site.staging-999001-aaaaaaaaaaaa");
    const running = join(work, "_site.staging-999002-bbbbbbbbbbbb");
    const otherSite = join(work, "other.staging-999001-cccccccccccc");
    for (const folder of [crashed, running, otherSite]) await mkdir(folder);

    await prepareStaging(output, { isProcessAlive: (pid) => pid === 999002 });

    const names = await readdir(work);
    expect(names).not.toContain(basename(crashed));
    expect(names).toContain(basename(running));
    expect(names).toContain(basename(otherSite));
  });

  it("should put back a site left aside by a build that crashed in the middle of a swap", async () => {
    const aside = join(work, "_site.previous-999003-dddddddddddd");
    await writeTree(aside, OLD_SITE);
    const before = await digest(aside);

    const done = await cleanStaleStaging(output, { isProcessAlive: () => false });

    expect(done).toEqual([`restored ${aside}`]);
    expect(await digest(output)).toBe(before);
  });
});

describe("publishAtomically", () => {
  it("should replace the previous output with the staged one", async () => {
    const { staging } = await stageOverOldSite();

    await publishAtomically(staging, output, { log: quiet });

    expect(await listFiles(output)).toEqual(["feed.xml", "index.html"]);
    expect(await readFile(join(output, "index.html"), "utf8")).toBe("<h1>new</h1>");
    expect(await readdir(work)).toEqual(["_site"]);
  });

  it("should publish a first build when there is no previous output", async () => {
    const staging = await prepareStaging(output);
    await writeTree(staging, NEW_SITE);

    await publishAtomically(staging, output, { log: quiet });

    expect(await listFiles(output)).toEqual(["feed.xml", "index.html"]);
  });

  it("should leave the previous site byte-identical when moving the new one into place fails", async () => {
    const { before, staging } = await stageOverOldSite();
    const fs = failingRename((from) => from === staging);

    const error = await publishAtomically(staging, output, { fs, log: quiet }).catch(
      (caught: unknown) => caught,
    );

    expect(error).toBeInstanceOf(PublishError);
    expect((error as Error).message).toMatch(/the previous site is unchanged/);
    expect(await digest(output)).toBe(before);
    expect(await readdir(work)).toEqual(["_site"]);
  });

  it("should leave the previous site byte-identical when moving it aside fails", async () => {
    const { before, staging } = await stageOverOldSite();
    const fs = failingRename((from) => from === output);

    await expect(publishAtomically(staging, output, { fs, log: quiet })).rejects.toThrow(
      PublishError,
    );

    expect(await digest(output)).toBe(before);
    expect(await readdir(work)).toEqual(["_site"]);
  });

  it("should keep the old site recoverable when even restoring it fails, and recover it next build", async () => {
    const { before, staging } = await stageOverOldSite();
    // Every rename after moving the old site aside fails.
    let renames = 0;
    const fs = failingRename(() => ++renames > 1);

    const error = await publishAtomically(staging, output, { fs, log: quiet }).catch(
      (caught: unknown) => caught,
    );
    expect((error as Error).message).toMatch(
      /the previous site is kept in .*_site\.previous-.* and the next build puts it back/,
    );

    // The process id of this test is alive, so pretend the failed run belonged to a dead one.
    const [aside] = (await readdir(work)).filter((name) => name.includes(".previous-"));
    const orphan = join(work, (aside ?? "").replace(`-${process.pid}-`, "-999004-"));
    await nodeFs.rename(join(work, aside ?? ""), orphan);
    await prepareStaging(output, { isProcessAlive: () => false });

    expect(await digest(output)).toBe(before);
  });

  it("should refuse a staging folder that does not exist, without touching the output", async () => {
    await writeTree(output, OLD_SITE);
    const before = await digest(output);

    await expect(
      publishAtomically(join(work, "_site.staging-1-000000000000"), output),
    ).rejects.toThrow(/Nothing to publish/);
    expect(await digest(output)).toBe(before);
  });
});

describe("discardStaging", () => {
  it("should remove a failed build's staging folder and leave the output alone", async () => {
    await writeTree(output, OLD_SITE);
    const staging = await prepareStaging(output);
    await writeFile(join(staging, "half-written.html"), "<h1>");

    await discardStaging(staging);

    expect(await readdir(work)).toEqual(["_site"]);
  });

  it("should refuse to remove a folder that is not a staging folder", async () => {
    await writeTree(output, OLD_SITE);

    await expect(discardStaging(output)).rejects.toThrow(/not a staging folder/);
    expect(await listFiles(output)).toHaveLength(3);
  });
});

describe("publishInPlace", () => {
  /** The published site, and a build that kept some of its files and wrote the others. */
  async function keptAndWritten() {
    await writeTree(output, {
      ...OLD_SITE,
      "kept/index.html": "<p>kept</p>",
      "gone/index.html": "<p>gone</p>",
      "becomes-folder": "a file",
      "becomes-file/index.html": "<p>a folder</p>",
    });
    const previousFiles = await listFiles(output);
    const staging = await prepareStaging(output);
    // Written by the build: what changed or is new; "kept/index.html" is kept as published.
    await writeTree(staging, {
      "index.html": "<h1>new</h1>",
      "feed.xml": "<rss/>",
      "becomes-folder/index.html": "<p>now a folder</p>",
      "becomes-file": "now a file",
    });
    const files = new Set([
      "index.html",
      "feed.xml",
      "kept/index.html",
      "becomes-folder/index.html",
      "becomes-file",
    ]);
    return { staging, previousFiles, files };
  }

  it("should move in what the build wrote, remove what it did not keep, and leave the kept files untouched", async () => {
    const { staging, previousFiles, files } = await keptAndWritten();
    const kept = join(output, "kept/index.html");
    const before = await nodeFs.stat(kept);

    const moved = publishInPlace(staging, output, { previousFiles, files });

    expect(moved.sort()).toEqual(
      ["becomes-file", "becomes-folder/index.html", "feed.xml", "index.html"].sort(),
    );
    expect(await listFiles(output)).toEqual([...files].sort());
    expect(await readFile(join(output, "index.html"), "utf8")).toBe("<h1>new</h1>");
    expect(await readFile(join(output, "becomes-file"), "utf8")).toBe("now a file");
    expect(await readFile(join(output, "becomes-folder/index.html"), "utf8")).toBe(
      "<p>now a folder</p>",
    );
    // The same file: its inode, modification and change times (what the next build checks).
    const after = await nodeFs.stat(kept);
    expect([after.ino, after.mtimeMs, after.ctimeMs]).toEqual([
      before.ino,
      before.mtimeMs,
      before.ctimeMs,
    ]);
    // No folder of a removed page is left, nor the staging folder.
    expect(await readdir(work)).toEqual(["_site"]);
    expect((await readdir(output)).sort()).toEqual(
      ["becomes-file", "becomes-folder", "feed.xml", "index.html", "kept"].sort(),
    );
  });

  it("should refuse to publish into an output folder that went away during the build, with one line", async () => {
    const { staging, previousFiles, files } = await keptAndWritten();
    await rm(output, { recursive: true, force: true });
    expect(() => publishInPlace(staging, output, { previousFiles, files })).toThrow(PublishError);
    expect(() => publishInPlace(staging, output, { previousFiles, files })).toThrow(
      /went away during the build.*build again/,
    );
  });
});
