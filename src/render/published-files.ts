import { existsSync, readFileSync, type Stats, statSync } from "node:fs";
import { join } from "node:path";
import { count } from "../metrics.ts";
import { contentHash } from "../short-hash.ts";
import type { SignatureCheck } from "./signatures-aside.ts";

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
  /** Kept files whose signature moved with their bytes unchanged: the publish step takes it again. */
  readonly restat?: Set<string>;
  /** Each file's place in the list: a record of the build's files marks the kept ones by it (file-record.ts). */
  readonly places?: ListPlaces;
  /** The files' signatures taken again on another thread (signatures-aside.ts), when started. */
  readonly aside?: SignatureCheck;
}

/**
 * The list's files numbered: each path it names has one place, below
 * `count`, and the list's own text of the path there, so that a record of
 * the build's files can mark a file by its place and key another by the
 * list's text, holding each path once (src/render/file-record.ts).
 */
export interface ListPlaces {
  /** Places are below this. */
  readonly count: number;
  /** The path's place, or undefined when the list does not name it. */
  of(path: string): number | undefined;
  /** The list's text of the path at a place (undefined: a place left unused). */
  path(place: number): string | undefined;
  /** The hash the list has at a place, read there, without the path looked up. */
  hash(place: number): string | undefined;
  /** What the file at a place was rendered from, if the list knows. */
  renderedFrom(place: number): RenderedFrom | undefined;
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
export type KnownFiles = ReadonlyMap<string, KnownFile>;

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
 * A file's record, every field in its place: one object of four fields,
 * rather than one spread from another with a field added (`{ ...file,
 * kept }`), for each of 630,000 files at 100,000 events (docs/performance.md,
 * What changed, item 31).
 */
export function knownFile(
  hash: string,
  bytes: number,
  inputs: string | undefined,
  kept: boolean,
): KnownFile {
  return { hash, bytes, inputs, kept };
}

/**
 * Whether the published copy of `path` is the file the build would write,
 * so that it stays where it is: a build writes only new and changed files
 * into its staging folder, and the publish step moves those in and leaves
 * every other file untouched (src/publish/publish.ts, publishInPlace), with
 * its inode and modification time. Hosts and tools that upload what changed
 * by time and size (rsync, `aws s3 sync`) then skip it too, not only those
 * that compare contents. The copy must still be what the list says: a file
 * edited on disk since it was published is not kept, whatever its size
 * (checkFile). False when it is not (no such file, other bytes): the
 * caller writes the bytes instead.
 */
export function keepPublished(
  published: PublishedFiles | null | undefined,
  path: string,
  known: Pick<KnownFile, "hash" | "bytes">,
): boolean {
  if (!published || published.hashes.get(path) !== known.hash) return false;
  if (published.aside?.unchanged(path)) {
    count("files.checkedAside");
    return true;
  }
  const signature = published.signatures?.get(path);
  const { check, signed } = checkSigned(join(published.folder, path), known, signature);
  if (check !== "same") return false;
  // Hashed again (its stat moved: a backup, a touch): its new signature is taken once published.
  if (!signed) published.restat?.add(path);
  return true;
}

/**
 * The published copy's bytes of `path` when it was rendered from inputs
 * with this digest and is still that file: read, and its hash the list's.
 * For an output whose part is another's (a subscription's VEVENT is its
 * event's download's, src/outputs/ics.ts): nothing is marked kept, and
 * any doubt (another digest, a file gone or edited) answers undefined.
 * The digest is made only for a path the list knows the inputs of (none
 * in a first build).
 */
export function publishedCopy(
  published: PublishedFiles | null | undefined,
  path: string,
  digest: () => string,
): Buffer | undefined {
  const before = published?.inputs?.get(path);
  const hash = published?.hashes.get(path);
  if (!published || !before || hash === undefined || before.inputs !== digest()) return undefined;
  let bytes: Buffer;
  try {
    bytes = readFileSync(join(published.folder, path));
  } catch {
    return undefined;
  }
  return bytes.byteLength === before.bytes && contentHash(bytes) === hash ? bytes : undefined;
}

/**
 * Where a file of the site is before its publish: in the staging folder
 * when this build wrote it, else the published one this build kept, which
 * stays in the output folder (keepPublished).
 */
export function siteFile(staging: string, output: string, sitePath: string): string {
  const staged = join(staging, sitePath);
  return existsSync(staged) ? staged : join(output, sitePath);
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
  return checkSigned(path, expected, signature).check;
}

/**
 * checkFile, and whether the file's signature is the one recorded (`signed`:
 * it was not read), from its one `stat` (counted: a kept file costs one).
 */
function checkSigned(
  path: string,
  expected: Pick<KnownFile, "hash" | "bytes">,
  signature: number | undefined,
): { readonly check: FileCheck; readonly signed: boolean } {
  let stats: Stats;
  count("files.statted");
  try {
    stats = statSync(path);
  } catch {
    return { check: "missing", signed: false };
  }
  if (!stats.isFile()) return { check: "missing", signed: false };
  if (stats.size !== expected.bytes) return { check: "resized", signed: false };
  if (signature !== undefined && fileSignature(stats) === signature) {
    return { check: "same", signed: true };
  }
  count("files.rehashed");
  try {
    return {
      check: contentHash(readFileSync(path)) === expected.hash ? "same" : "changed",
      signed: false,
    };
  } catch {
    return { check: "missing", signed: false };
  }
}

/**
 * A file's state on disk in one number, from its stat: its size, its inode
 * and its change time (ctime, to a fraction of a microsecond). Any write to
 * a file moves its ctime, and no program can set it back (utimes sets the
 * modification time, and moves ctime to now); a file replaced by another
 * has another inode. So a file whose signature is the one taken when it was
 * hashed still has those bytes. Linking and unlinking a file move its ctime
 * too: a publish takes the signatures of the files it moved in, and of
 * those found unchanged with another signature (src/publish/publish-site.ts),
 * so that such a file (linked by a backup) is only read again, once.
 *
 * It runs on the thread of signatures-aside.ts too, from its source: it
 * uses nothing but its argument.
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

// A file's hash, and its inputs' digest: src/short-hash.ts, which the model's event digests share.
export { contentHash };
