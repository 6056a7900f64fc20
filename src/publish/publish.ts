import { randomBytes } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  readdirSync,
  renameSync,
  rmdirSync,
  rmSync,
  statSync,
  unlinkSync,
} from "node:fs";
import * as nodeFs from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { PublishError } from "../errors.ts";

/**
 * A build writes into a staging folder next to the output folder (same file
 * system, so renames are atomic) and swaps it in only when everything
 * succeeded. A failed build, or a failure during the swap, leaves the
 * previous site exactly as it was. The swap is two renames, so a server
 * reading the output folder sees at most a moment without it.
 *
 * Folder names: `<output>.staging-<pid>-<hex>` while building,
 * `<output>.previous-<pid>-<hex>` for the old site during the swap. Folders
 * of these shapes left by a crashed build are cleaned up by the next build,
 * and a previous site left aside by a crash mid-swap is put back.
 */
export interface PublishFs {
  rename(from: string, to: string): Promise<void>;
  /**
   * `files`: site paths the folder is known to hold (the last publish's
   * list), which may be removed without walking the folder first; whatever
   * else it holds is removed too.
   */
  rm(
    path: string,
    options: { recursive: true; force: true },
    files?: Iterable<string>,
  ): Promise<void>;
  mkdir(path: string): Promise<unknown>;
  readdir(path: string): Promise<string[]>;
  stat(path: string): Promise<{ isDirectory(): boolean }>;
}

export interface PublishOptions {
  readonly fs?: PublishFs;
  /** The files the output folder is known to hold (its last publish's list): see PublishFs.rm. */
  readonly previousFiles?: Iterable<string>;
  readonly log?: (line: string) => void;
  /** Whether a build with this process id may still be running. */
  readonly isProcessAlive?: (pid: number) => boolean;
}

/** The real file system, as PublishFs. */
export const nodeFileSystem: PublishFs = {
  rename: nodeFs.rename,
  // Synchronous on purpose: removing the old site of 530,000 files took
  // fs/promises' rm 27 s and 1.1 GB of memory, fs.rmSync 25 s and 100 MB
  // (docs/performance.md, "Memory at 100,000 events"); the build waits for it either way.
  rm: async (path, options, files) => {
    if (files) removeListed(path, files);
    rmSync(path, options);
  },
  mkdir: (path) => nodeFs.mkdir(path),
  readdir: (path) => nodeFs.readdir(path),
  stat: nodeFs.stat,
};

const TEMP_NAME = /^(?<base>.+)\.(?<kind>staging|previous)-(?<pid>\d+)-[0-9a-f]{12}$/;

/** Staging folders this process created: a same-pid folder not in here is a crashed run's. */
const ownFolders = new Set<string>();

/** Cleans what crashed builds left, then creates an empty staging folder for the build. */
export async function prepareStaging(
  outputDir: string,
  options: PublishOptions = {},
): Promise<string> {
  const fs = options.fs ?? nodeFileSystem;
  const output = resolve(outputDir);
  await cleanStaleStaging(output, options);
  const staging = tempName(output, "staging");
  try {
    await fs.mkdir(staging);
  } catch (error) {
    throw new PublishError(`Cannot create the staging folder ${staging}: ${describe(error)}.`, {
      cause: error,
    });
  }
  ownFolders.add(staging);
  return staging;
}

/**
 * Replaces the output folder with the staging folder. On any failure the
 * previous output is restored, the staging folder removed, and a
 * PublishError thrown.
 */
export async function publishAtomically(
  stagingDir: string,
  outputDir: string,
  options: PublishOptions = {},
): Promise<void> {
  const fs = options.fs ?? nodeFileSystem;
  const log = options.log ?? ((line: string) => console.warn(line));
  const staging = resolve(stagingDir);
  const output = resolve(outputDir);
  if (dirname(staging) !== dirname(output)) {
    throw new PublishError(
      `The staging folder ${staging} must sit next to ${output} (same file system).`,
    );
  }
  if (!(await isDirectory(fs, staging))) {
    throw new PublishError(`Nothing to publish: the staging folder ${staging} does not exist.`);
  }

  const previous = tempName(output, "previous");
  let movedAside = false;
  try {
    if (await exists(fs, output)) {
      if (!(await isDirectory(fs, output))) throw new Error(`${output} is not a folder`);
      await fs.rename(output, previous);
      movedAside = true;
    }
    await fs.rename(staging, output);
  } catch (error) {
    const restored = movedAside ? await tryRename(fs, previous, output) : true;
    await fs.rm(staging, { recursive: true, force: true }).catch(() => undefined);
    ownFolders.delete(staging);
    const state = restored
      ? "the previous site is unchanged"
      : `the previous site is kept in ${previous} and the next build puts it back`;
    throw new PublishError(`Publishing ${output} failed (${describe(error)}); ${state}.`, {
      cause: error,
    });
  }
  ownFolders.delete(staging);
  if (movedAside) {
    // The new site is live; a leftover old copy is only disk space, removed by the next build.
    const listed = options.previousFiles;
    await fs.rm(previous, { recursive: true, force: true }, listed).catch((error: unknown) => {
      log(
        `warning: could not remove the old site ${previous} (${describe(error)}); the next build removes it.`,
      );
    });
  }
}

/**
 * Moves what a build wrote into the output folder the last publish left,
 * and removes what that publish had and this one has not: the files kept
 * as published (src/render/published-files.ts, keepPublished) are never
 * in the staging folder, and stay as they are. A build that changed a few
 * files of 53,735 moves a few files, where swapping the whole folder in
 * meant a hard link for every kept file and removing the old tree
 * (docs/performance.md, "What changed", item 20).
 *
 * Each file is replaced by a rename, so a reader never sees half a file,
 * but the site changes file by file, over the moment the moves take (a
 * host deploys the folder once the build is done). A failure half-way
 * leaves some files moved: the published list is not updated, and the next
 * build takes none of the moved or missing files as published (their
 * signatures differ: checkFile), writes them again and removes the rest.
 * Returns the site paths moved in.
 */
export function publishInPlace(
  stagingDir: string,
  outputDir: string,
  change: {
    readonly previousFiles: Iterable<string>;
    /** The site's files: a set, or the map of their hashes (only asked whether it has a path). */
    readonly files: { has(path: string): boolean };
  },
): string[] {
  const staging = resolve(stagingDir);
  const output = resolve(outputDir);
  if (!existsSync(output)) {
    throw new PublishError(
      `The output folder ${output} went away during the build, with the files it kept; build again.`,
    );
  }
  const moved: string[] = [];
  try {
    // Removed first, so that a folder may give way to a file and a file to a folder.
    const gone: string[] = [];
    for (const path of change.previousFiles) if (!change.files.has(path)) gone.push(path);
    removeListed(output, gone);
    const made = new Set<string>();
    const pending = [""];
    for (let folder = pending.pop(); folder !== undefined; folder = pending.pop()) {
      for (const entry of readdirSync(join(staging, folder), { withFileTypes: true })) {
        const path = folder ? `${folder}/${entry.name}` : entry.name;
        if (entry.isDirectory()) {
          pending.push(path);
          continue;
        }
        const target = join(output, path);
        if (!made.has(folder)) {
          makeFolder(output, folder);
          made.add(folder);
        }
        try {
          renameSync(join(staging, path), target);
        } catch (error) {
          // A folder of files no build wrote where this file goes: it is not the site's.
          if ((error as NodeJS.ErrnoException).code !== "EISDIR") throw error;
          rmSync(target, { recursive: true, force: true });
          renameSync(join(staging, path), target);
        }
        moved.push(path);
      }
    }
  } catch (error) {
    throw new PublishError(
      `Publishing ${output} failed after ${moved.length} new files were moved in (${describe(error)}); the next build completes it.`,
      { cause: error },
    );
  }
  rmSync(staging, { recursive: true, force: true });
  ownFolders.delete(staging);
  return moved;
}

/** Makes `folder` under `root`, removing a file no build wrote that stands where a folder must be. */
function makeFolder(root: string, folder: string): void {
  try {
    mkdirSync(join(root, folder), { recursive: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "EEXIST" && code !== "ENOTDIR") throw error;
    const parts = folder.split("/");
    for (let end = 1; end <= parts.length; end++) {
      const at = join(root, ...parts.slice(0, end));
      if (existsSync(at) && !statSync(at).isDirectory()) rmSync(at, { force: true });
    }
    mkdirSync(join(root, folder), { recursive: true });
  }
}

/** Removes a staging folder after a failed build. Refuses paths that are not staging folders. */
export async function discardStaging(
  stagingDir: string,
  options: PublishOptions = {},
): Promise<void> {
  const fs = options.fs ?? nodeFileSystem;
  const staging = resolve(stagingDir);
  if (TEMP_NAME.exec(basename(staging))?.groups?.kind !== "staging") {
    throw new PublishError(`Refusing to remove ${staging}: not a staging folder.`);
  }
  await fs.rm(staging, { recursive: true, force: true });
  ownFolders.delete(staging);
}

/**
 * Removes staging and old-site folders of builds that are no longer running.
 * If a crash happened between the two renames of a swap, the output folder is
 * missing and the old site is put back instead of removed. Returns what it did.
 */
export async function cleanStaleStaging(
  outputDir: string,
  options: PublishOptions = {},
): Promise<string[]> {
  const fs = options.fs ?? nodeFileSystem;
  const isAlive = options.isProcessAlive ?? isProcessAlive;
  const output = resolve(outputDir);
  const parent = dirname(output);
  const base = basename(output);
  let names: string[];
  try {
    names = await fs.readdir(parent);
  } catch {
    return [];
  }
  const stale = names
    .map((name) => ({ name, match: TEMP_NAME.exec(name)?.groups }))
    .filter(({ name, match }) => {
      if (!match || match.base !== base) return false;
      const pid = Number(match.pid);
      if (pid === process.pid) return !ownFolders.has(join(parent, name));
      return !isAlive(pid);
    })
    .map(({ name, match }) => ({ path: join(parent, name), kind: match?.kind }))
    .sort((a, b) => a.path.localeCompare(b.path));

  const done: string[] = [];
  let outputPresent = await exists(fs, output);
  for (const folder of stale) {
    if (
      folder.kind === "previous" &&
      !outputPresent &&
      (await tryRename(fs, folder.path, output))
    ) {
      outputPresent = true;
      done.push(`restored ${folder.path}`);
      continue;
    }
    await fs.rm(folder.path, { recursive: true, force: true });
    done.push(`removed ${folder.path}`);
  }
  return done;
}

/**
 * Removes the listed files under `root`, then their folders, deepest first:
 * the old site's own list saves reading every folder and stating every
 * entry, half of what removing it cost (0.5 s of 1.0 s for the 53,664 files
 * of 10,000 events on tmpfs). Anything not listed stays for rmSync to find;
 * a path that could leave `root` is never followed.
 */
function removeListed(root: string, files: Iterable<string>): void {
  const folders = new Set<string>();
  for (const file of files) {
    if (file.startsWith("/") || /(^|[/\\])\.\.([/\\]|$)/.test(file)) continue;
    try {
      unlinkSync(join(root, file));
    } catch {
      continue; // gone already, or not a file: rmSync decides
    }
    for (let end = file.lastIndexOf("/"); end > 0; end = file.lastIndexOf("/", end - 1)) {
      const folder = file.slice(0, end);
      if (folders.has(folder)) break; // and so are the folders above it
      folders.add(folder);
    }
  }
  // A folder's path is longer than its parent's: longest first empties children first.
  for (const folder of [...folders].sort((a, b) => b.length - a.length)) {
    try {
      rmdirSync(join(root, folder));
    } catch {
      // not empty (an unlisted file): rmSync removes it
    }
  }
}

function tempName(output: string, kind: "staging" | "previous"): string {
  return `${output}.${kind}-${process.pid}-${randomBytes(6).toString("hex")}`;
}

/** Whether a process with this id is running (another user's too). */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

async function exists(fs: PublishFs, path: string): Promise<boolean> {
  try {
    await fs.stat(path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw error;
  }
}

async function isDirectory(fs: PublishFs, path: string): Promise<boolean> {
  try {
    return (await fs.stat(path)).isDirectory();
  } catch {
    return false;
  }
}

async function tryRename(fs: PublishFs, from: string, to: string): Promise<boolean> {
  try {
    await fs.rename(from, to);
    return true;
  } catch {
    return false;
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
