import { createHash } from "node:crypto";
import { linkSync, statSync } from "node:fs";
import { join } from "node:path";

/**
 * What a build knows of the files the last publish left in the output
 * folder (its file list, src/publish/output-files.ts), and the one way a
 * file is taken from there instead of written again (keepPublished).
 */

/** Site-relative path ("calendars/x/index.html") -> content hash. */
export type FileHashes = ReadonlyMap<string, string>;

/** The files the last publish put in the output folder. */
export interface PublishedFiles {
  /** The output folder as published. */
  readonly folder: string;
  readonly hashes: FileHashes;
  /** What some of them were rendered from (FileWriter.write's `inputs`), by the same paths. */
  readonly inputs?: RenderedInputs;
}

/** Site path -> what the file was rendered from: its inputs' digest and its size. */
export type RenderedInputs = ReadonlyMap<string, RenderedFrom>;

export interface RenderedFrom {
  /** The digest of the inputs and the code that rendered them (FileWriter). */
  readonly inputs: string;
  readonly bytes: number;
}

/** Files already hashed where they were written, by site path: what hashOutput needs of them. */
export type KnownFiles = Pick<ReadonlyMap<string, KnownFile>, "get">;

/** A file already hashed where it was written (src/render/file-writer.ts). */
export interface KnownFile {
  readonly hash: string;
  readonly bytes: number;
  /** The published copy was kept (keepPublished) rather than written. */
  readonly kept?: boolean;
  /** The digest of what it was rendered from, when its writer was told (FileWriter.write). */
  readonly inputs?: string;
}

/**
 * Puts the published copy of `path` at `target` when it has the bytes the
 * build would write: a hard link, so the file keeps its inode and
 * modification time and the staging folder's swap (src/publish/publish.ts)
 * leaves it exactly as it was. Hosts and tools that upload what changed by
 * time and size (rsync, `aws s3 sync`) then skip it too, not only those that
 * compare contents. False when it cannot (no such file, another size,
 * another file system): the caller writes the bytes instead.
 */
export function keepPublished(
  published: PublishedFiles | null | undefined,
  path: string,
  known: KnownFile,
  target: string,
): boolean {
  if (!published || published.hashes.get(path) !== known.hash) return false;
  const source = join(published.folder, path);
  try {
    if (statSync(source).size !== known.bytes) return false;
    linkSync(source, target);
    return true;
  } catch {
    return false;
  }
}

/** 128 bits of SHA-256: plenty to tell files apart, half the size of the whole hash. */
export function contentHash(content: string | Uint8Array): string {
  return createHash("sha256").update(content).digest("base64url").slice(0, 22);
}
