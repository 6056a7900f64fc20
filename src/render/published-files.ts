import { createHash } from "node:crypto";
import { linkSync, readFileSync, type Stats, statSync } from "node:fs";
import { join } from "node:path";
import { count } from "../metrics.ts";

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
  /** Each file's signature on disk once published (fileSignature), by the same paths. */
  readonly signatures?: FileSignatures;
}

/** Site path -> the file's signature on disk (fileSignature). */
export type FileSignatures = ReadonlyMap<string, number>;

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
 * compare contents. The copy must still be what the list says: a file
 * edited on disk since it was published is not kept, whatever its size
 * (checkFile). False when it cannot (no such file, other bytes, another
 * file system): the caller writes the bytes instead.
 */
export function keepPublished(
  published: PublishedFiles | null | undefined,
  path: string,
  known: KnownFile,
  target: string,
): boolean {
  if (!published || published.hashes.get(path) !== known.hash) return false;
  const source = join(published.folder, path);
  if (checkFile(source, known, published.signatures?.get(path)) !== "same") return false;
  try {
    linkSync(source, target);
    return true;
  } catch {
    return false;
  }
}

/** What a file on disk is, against what was recorded of it: see checkFile. */
export type FileCheck = "same" | "missing" | "resized" | "changed";

/**
 * Whether the file at `path` still has the bytes `expected` was hashed
 * from: not there, another size, or, at the same size, its signature
 * (fileSignature) the one recorded when it was hashed; with another
 * signature, or none recorded, it is read and hashed again. Reading every
 * file would cost a build of 10,000 events a second or more
 * (docs/deploy.md, "Only what changed", has the figures); a stat is about
 * a twentieth of that, and only files something touched are read.
 */
export function checkFile(
  path: string,
  expected: Pick<KnownFile, "hash" | "bytes">,
  signature: number | undefined,
): FileCheck {
  let stats: Stats;
  try {
    stats = statSync(path);
  } catch {
    return "missing";
  }
  if (!stats.isFile()) return "missing";
  if (stats.size !== expected.bytes) return "resized";
  if (signature !== undefined && fileSignature(stats) === signature) return "same";
  count("files.rehashed");
  try {
    return contentHash(readFileSync(path)) === expected.hash ? "same" : "changed";
  } catch {
    return "missing";
  }
}

/**
 * A file's state on disk in one number, from its stat: its size, its inode
 * and its change time (ctime, to a fraction of a microsecond). Any write to
 * a file moves its ctime, and no program can set it back (utimes sets the
 * modification time, and moves ctime to now); a file replaced by another
 * has another inode. So a file whose signature is the one taken when it was
 * hashed still has those bytes. Linking and unlinking a file move its ctime
 * too: a publish takes its files' signatures once the swap is done and the
 * old site removed (src/publish/publish-site.ts), and a file linked since
 * (a build that did not publish, a backup) is only read again, once.
 *
 * A 52-bit FNV-1a of those three, which a double holds exactly: a number
 * rather than a string keeps the list of 530,000 files of 100,000 events
 * small in memory, and two states of a file share one by a chance of one
 * in 2^52.
 */
export function fileSignature(stats: Pick<Stats, "size" | "ino" | "ctimeMs">): number {
  const text = `${stats.size}:${stats.ino}:${stats.ctimeMs}`;
  let high = 0x811c9dc5;
  let low = 0x050c5d1f;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    high = Math.imul(high ^ code, 0x01000193);
    low = Math.imul(low ^ code, 0x01000193);
  }
  return (high >>> 12) * 0x100000000 + (low >>> 0);
}

/** 128 bits of SHA-256: plenty to tell files apart, half the size of the whole hash. */
export function contentHash(content: string | Uint8Array): string {
  return createHash("sha256").update(content).digest("base64url").slice(0, 22);
}
