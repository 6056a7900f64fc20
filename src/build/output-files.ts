import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

/**
 * The files of a built site with a hash of each one's bytes: what hosts that
 * upload only changed files (Netlify's digest deploys, `wrangler`, `aws s3
 * sync`, rsync) compare too. Kept beside the published state after each
 * publish, so the next build can say how many files it adds, changes and
 * removes (docs/deploy.md, "Only what changed").
 */

/** Site-relative path ("calendars/x/index.html") -> content hash. */
export type FileHashes = ReadonlyMap<string, string>;

/** What a build wrote, as the report and the host limits (host-limits.ts) count it. */
export interface OutputCount {
  readonly files: number;
  readonly bytes: number;
  /** HTML files: the pages of the site. */
  readonly pages: number;
  /** The largest file (site-relative path), which hosts limit; null in an empty folder. */
  readonly largestFile: { readonly path: string; readonly bytes: number } | null;
}

export interface OutputFiles extends OutputCount {
  readonly hashes: FileHashes;
}

export interface FileChanges {
  readonly added: number;
  readonly changed: number;
  readonly removed: number;
  readonly unchanged: number;
}

const LIST_VERSION = 1;

/**
 * Reads and hashes every file under `root` (one pass: the count, sizes and
 * largest file come with it). Synchronous: tens of thousands of small reads
 * cost several times more through libuv's thread pool than directly.
 */
export function hashOutput(root: string): OutputFiles {
  const hashes = new Map<string, string>();
  let bytes = 0;
  let pages = 0;
  let largestFile: OutputCount["largestFile"] = null;
  const pending = [""];
  for (let folder = pending.pop(); folder !== undefined; folder = pending.pop()) {
    for (const entry of readdirSync(join(root, folder), { withFileTypes: true })) {
      const path = folder ? `${folder}/${entry.name}` : entry.name;
      if (entry.isDirectory()) pending.push(path);
      else if (entry.isFile()) {
        const content = readFileSync(join(root, path));
        bytes += content.byteLength;
        if (!largestFile || content.byteLength > largestFile.bytes) {
          largestFile = { path, bytes: content.byteLength };
        }
        if (entry.name.endsWith(".html")) pages++;
        hashes.set(path, contentHash(content));
      }
    }
  }
  return { hashes, files: hashes.size, bytes, pages, largestFile };
}

/** How `next` differs from `previous`, file by file. */
export function compareFiles(previous: FileHashes, next: FileHashes): FileChanges {
  let added = 0;
  let changed = 0;
  let unchanged = 0;
  for (const [path, hash] of next) {
    const before = previous.get(path);
    if (before === undefined) added++;
    else if (before === hash) unchanged++;
    else changed++;
  }
  return { added, changed, removed: previous.size + added - next.size, unchanged };
}

/** The list kept by the last publish; null when there is none or it is unreadable. */
export function readFileList(path: string): FileHashes | null {
  try {
    const json = JSON.parse(readFileSync(path, "utf8")) as { version?: unknown; files?: unknown };
    if (json.version !== LIST_VERSION || typeof json.files !== "object" || json.files === null) {
      return null;
    }
    const entries = Object.entries(json.files as Record<string, unknown>);
    return entries.every(([, hash]) => typeof hash === "string")
      ? new Map(entries as [string, string][])
      : null;
  } catch {
    return null;
  }
}

/** Keeps the list for the next build (replaced whole, never left half written). */
export function writeFileList(path: string, hashes: FileHashes): void {
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(
    temporary,
    `${JSON.stringify({ version: LIST_VERSION, files: Object.fromEntries(hashes) })}\n`,
  );
  renameSync(temporary, path);
}

/** 128 bits of SHA-256: plenty to tell files apart, half the size of the whole hash. */
function contentHash(content: Uint8Array): string {
  return createHash("sha256").update(content).digest("base64url").slice(0, 22);
}
