import { randomBytes } from "node:crypto";
import {
  appendFileSync,
  closeSync,
  existsSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  rmSync,
  statSync,
} from "node:fs";
import { join } from "node:path";
import { publishedStateFolder } from "../changes/state-location.ts";
import { count } from "../metrics.ts";
import { MapView } from "../render/map-view.ts";
import {
  contentHash,
  type FileHashes,
  type FileSignatures,
  fileSignature,
  type KnownFile,
  type KnownFiles,
  keepPublished,
  knownFile,
  type ListPlaces,
  type PublishedFiles,
  type RenderedFrom,
  type RenderedInputs,
} from "../render/published-files.ts";
import { replaceFileSync } from "../replace-file-sync.ts";
import { HASH_LENGTH } from "../short-hash.ts";
import { FixedTexts } from "./fixed-texts.ts";

export type {
  FileHashes,
  FileSignatures,
  PublishedFiles,
  RenderedInputs,
} from "../render/published-files.ts";

/**
 * The files of a built site with a hash of each one's bytes: what hosts that
 * upload only changed files (Netlify's digest deploys, `wrangler`, `aws s3
 * sync`, rsync) compare too. Kept beside the published state after each
 * publish, so the next build can say how many files it adds, changes and
 * removes (docs/deploy.md, "Only what changed").
 */

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
  /** Every file: its hash, size and, if known, inputs (the maps below are views of it). */
  readonly record: ReadonlyMap<string, KnownFile>;
  readonly hashes: FileHashes;
  /** Each file's size in bytes, by the same paths. */
  readonly sizes: ReadonlyMap<string, number>;
  /** What the files rendered from known inputs were rendered from (FileWriter.write's `inputs`). */
  readonly inputs: RenderedInputs;
}

/**
 * The files of `record` with their hashes, sizes and inputs as views of it:
 * one map of the site's files, holding the writer's own record of each file
 * it wrote or kept, rather than a map of each made beside it.
 */
export function outputFiles<T extends OutputCount>(
  record: ReadonlyMap<string, KnownFile>,
  count: T,
): T & Omit<OutputFiles, keyof OutputCount> {
  return {
    ...count,
    record,
    hashes: new MapView(record, (file) => file.hash, { everyKey: true }),
    sizes: new MapView(record, (file) => file.bytes, { everyKey: true }),
    inputs: new MapView(record, (file): RenderedFrom | undefined =>
      file.inputs === undefined ? undefined : (file as RenderedFrom),
    ),
  };
}

export interface FileChanges {
  readonly added: number;
  readonly changed: number;
  readonly removed: number;
  readonly unchanged: number;
}

/**
 * Version 2 added each file's signature to its hash (a list of version 1 is
 * read without them). Version 3 writes the files and the inputs as flat
 * arrays, path after path, instead of objects keyed by path: at 100,000
 * events the list has 530,000 files, and objects of that many keys took 2.1
 * to 2.6 s to read where the arrays take about half of it
 * (docs/performance.md, "What changed", item 25). Version 4 writes a file's
 * hash and signature as two values rather than one text: the hash cut from
 * that text kept the whole text alive beside it, for every file of the
 * list, all through the build (item 29). Version 5 is a header line, then
 * lines of up to FILES_A_LINE files, each file's path, hash, signature,
 * inputs' digest and size together, then a line with their count (a list
 * cut short between two lines is refused): read a line at a time, where a
 * list of 630,000 files read whole and parsed at once (99 MB) took the
 * process to 555 MB, and a line at a time (74 MB) to 345 MB (item 31).
 * Version 6 names the list in its header, for the journal beside it
 * (`writeFileList`). All six are read.
 */
const LIST_VERSION = 6;
const READABLE_VERSIONS = new Set([1, 2, 3, 4]);
/** A header is a short line: a first line longer than this is a list of version 1 to 4. */
const HEADER_MAX = 256;
/** The journal's name: the list's, with this after it. */
const JOURNAL = ".journal";
/** A small list's journal may name this many files before the list is written again. */
const JOURNAL_FLOOR = 256;
/** Files on one line of a list of version 5 or 6: a few hundred kilobytes a line. */
const FILES_A_LINE = 2048;
/** A file's values on a line: path, hash, signature in base 36, inputs' digest, size. */
const FILE_VALUES = 5;

export interface HashOutputOptions {
  /**
   * Files hashed when they were written: taken as they are, not read again;
   * those kept as published are in the site though not under `root`.
   */
  readonly known?: KnownFiles;
  /** The last publish's files: any other file with the same bytes stays as published, and leaves `root`. */
  readonly published?: PublishedFiles | null;
}

/**
 * Reads and hashes every file under `root` (one pass: the count, sizes and
 * largest file come with it), with the files `known` kept as published.
 * Synchronous: tens of thousands of small reads cost several times more
 * through libuv's thread pool than directly. `kept` counts the files that
 * are the published copies (keepPublished).
 *
 * The files `known` come first, in the order they were written, then the
 * others: the list of published files is written in this order, and the
 * next build keeps and writes its files in much the same order, asking the
 * list for each; the list tries the place after the last asked before its
 * map of every path (RecentPlaces). With the list in the order the folders
 * were read, the writer's look-ups in that map of 557,000 paths took 0.6 s
 * of an edited 100,000-event build (docs/performance.md, What changed,
 * item 89).
 */
export function hashOutput(
  root: string,
  options: HashOutputOptions = {},
): OutputFiles & { readonly kept: number } {
  const { known, published } = options;
  const record = new Map<string, KnownFile>();
  let kept = 0;
  let bytes = 0;
  let pages = 0;
  let largestFile: OutputCount["largestFile"] = null;
  // Those written under `root` are counted as they are found there.
  let written = 0;
  for (const [path, file] of known ?? []) {
    add(path, file);
    if (!file.kept) written++;
  }
  const pending = [""];
  for (let folder = pending.pop(); folder !== undefined; folder = pending.pop()) {
    for (const entry of readdirSync(join(root, folder), { withFileTypes: true })) {
      const path = folder ? `${folder}/${entry.name}` : entry.name;
      if (entry.isDirectory()) pending.push(path);
      else if (entry.isFile()) {
        const file = known?.get(path);
        if (file) {
          if (!file.kept) written--;
          continue;
        }
        const content = readFileSync(join(root, path));
        const hash = contentHash(content);
        // Written again with the published bytes (Eleventy's pages, its copies): the published file stays.
        const keep = keepPublished(published, path, { hash, bytes: content.byteLength });
        if (keep) rmSync(join(root, path));
        add(path, knownFile(hash, content.byteLength, undefined, keep));
      }
    }
  }
  // Written by the writer but no longer under `root`: not the site's.
  if (written > 0) {
    for (const [path, file] of known ?? []) {
      if (!file.kept && !existsSync(join(root, path))) forget(path, file);
    }
  }
  return outputFiles(record, { files: record.size, bytes, pages, largestFile, kept });

  function add(path: string, file: KnownFile): void {
    if (file.kept) kept++;
    bytes += file.bytes;
    if (!largestFile || file.bytes > largestFile.bytes) {
      largestFile = { path, bytes: file.bytes };
    }
    if (isPage(path)) pages++;
    record.set(path, file);
  }

  function forget(path: string, file: KnownFile): void {
    if (file.kept) kept--;
    bytes -= file.bytes;
    if (isPage(path)) pages--;
    record.delete(path);
    if (largestFile?.path === path) {
      largestFile = null;
      for (const [other, { bytes }] of record) {
        if (!largestFile || bytes > largestFile.bytes) largestFile = { path: other, bytes };
      }
    }
  }
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

/** Whether a site path is one of the site's pages (an HTML file), as the counts take them. */
export function isPage(path: string): boolean {
  return path.endsWith(".html");
}

/** Where the list of a site's published files is kept (beside its published state). */
export function fileListPath(
  config: { readonly cacheDir: string; readonly site: { readonly url: string } },
  output: string,
): string {
  return join(publishedStateFolder(config.cacheDir, output, config.site.url), "files.json");
}

/** What the last publish's list says of its files. */
export interface FileList {
  readonly hashes: FileHashes;
  readonly inputs: RenderedInputs;
  /** Each file's signature once published; a file without one is read again before it is kept. */
  readonly signatures: FileSignatures;
  /** Each file's place in the list, and the list's own text of its path: see ListedFiles. */
  readonly places?: ListPlaces;
  /** Where the list was read and what its journal holds: what `writeFileList` adds to. */
  readonly journal?: ListJournal | null;
}

/**
 * A list as read from its file, for the next write to add to its journal:
 * the list's name, the files its journal names, and whether a write has
 * used it (a list read once is added to once; written again, it is read
 * again).
 */
export interface ListJournal {
  readonly path: string;
  readonly list: string;
  readonly entries: number;
  spent: boolean;
}

/**
 * The list as read: one map of paths to places in arrays of hashes,
 * signatures, inputs' digests and sizes, rather than a map for each of
 * them and an object for each file's inputs. At 100,000 events the list
 * names 630,000 files, and is held all through the build (docs/performance.md,
 * What changed, item 31). The file writer's record marks a file kept as
 * listed by its place here, and keys any other by the list's own text of
 * its path (`places`, src/render/file-record.ts): each path held once, and
 * no object for a kept file (item 83).
 */
class ListedFiles implements FileList {
  readonly hashes: FileHashes;
  readonly inputs: RenderedInputs;
  readonly signatures: FileSignatures;
  readonly places: ListPlaces;
  journal: ListJournal | null = null;
  readonly #paths: (string | undefined)[] = [];
  readonly #places = new RecentPlaces(this.#paths);
  readonly #hashes = new FixedTexts(HASH_LENGTH);
  readonly #signatures: number[] = [];
  readonly #digests = new FixedTexts(HASH_LENGTH);
  readonly #sizes: number[] = [];

  constructor() {
    const places = this.#places;
    const paths = this.#paths;
    const renderedFrom = (place: number): RenderedFrom | undefined => {
      const inputs = this.#digests.get(place);
      return inputs === undefined ? undefined : { inputs, bytes: this.#sizes[place] ?? 0 };
    };
    this.places = {
      get count() {
        return paths.length;
      },
      of: (path) => places.get(path),
      path: (place) => paths[place],
      hash: (place) => this.#hashes.get(place),
      renderedFrom,
    };
    this.hashes = new MapView(places, (place) => this.#hashes.get(place), { everyKey: true });
    this.signatures = new MapView(places, (place) => {
      const signature = this.#signatures[place];
      return Number.isNaN(signature) ? undefined : signature;
    });
    this.inputs = new MapView(places, renderedFrom);
  }

  /**
   * A file of the list, with what it was rendered from if known (the last
   * of the same path counts, inputs and all); NaN: no signature. Always
   * at a new place, without looking the path up first: a list names each
   * path once, and the look-up was a fifth of reading 560,000 files
   * (docs/performance.md, What changed, item 72). A path named again (a
   * list written by hand) leaves its earlier place unused, unnamed: found
   * by the map's size, which does not grow.
   */
  add(path: string, hash: string, signature: number, from?: RenderedFrom): void {
    const place = this.#paths.length;
    const size = this.#places.size;
    this.#places.set(path, place);
    if (this.#places.size === size) this.#places.renamed();
    this.#paths.push(path);
    this.#hashes.set(place, hash);
    this.#signatures[place] = signature;
    this.#digests.set(place, from?.inputs);
    this.#sizes[place] = from?.bytes ?? 0;
  }

  /**
   * A file its journal sets: at a new place, as `add`, its earlier place
   * (if any) left unused and unnamed. The journal names a few files of a
   * build, so each is looked up.
   */
  set(path: string, hash: string, signature: number, from?: RenderedFrom): void {
    this.remove(path);
    this.add(path, hash, signature, from);
  }

  /** Leaves a file out of the list, its place unused and unnamed. */
  remove(path: string): void {
    const place = this.#places.get(path);
    if (place === undefined) return;
    this.#paths[place] = undefined;
    this.#places.delete(path);
  }

  /** What a file of the list was rendered from; ignored for a path the list does not have. */
  addInputs(path: string, digest: string, bytes: number): void {
    const place = this.#places.get(path);
    if (place === undefined) return;
    this.#digests.set(place, digest);
    this.#sizes[place] = bytes;
  }
}

/**
 * The list's places by path, remembering the last path asked: the file
 * writer asks for one file's inputs, hash and text in turn (FileWriter.keep
 * and keepPublished), one look-up in a map of up to 630,000 paths rather
 * than four. And the place after the last: the publish step walks the
 * build's files, and the writer keeps them, in about the order the list
 * was written in (the order the last build wrote them: hashOutput,
 * src/render/file-record.ts), asking the list for each; the look-ups in
 * the map of every path took 1.4 s of an edited 100,000-event build
 * (docs/performance.md, What changed, item 89). That place is taken when
 * the list names this path there: `paths` names a place only while the
 * map gives that path that place (ListedFiles unnames the places a path
 * leaves; `renamed`, a path named twice without, and `clear` stop the
 * guess).
 */
class RecentPlaces extends Map<string, number> {
  readonly #paths: readonly (string | undefined)[];
  #path: string | undefined;
  #place: number | undefined;
  #guess = true;

  constructor(paths: readonly (string | undefined)[]) {
    super();
    this.#paths = paths;
  }

  override get(path: string): number | undefined {
    if (path !== this.#path) {
      const next = this.#place === undefined ? -1 : this.#place + 1;
      this.#place = this.#guess && this.#paths[next] === path ? next : super.get(path);
      this.#path = path;
    }
    return this.#place;
  }

  /** A path was given a second place without its first unnamed: no more guesses. */
  renamed(): void {
    this.#guess = false;
  }

  override set(path: string, place: number): this {
    this.#path = undefined;
    return super.set(path, place);
  }

  override delete(path: string): boolean {
    this.#path = undefined;
    return super.delete(path);
  }

  override clear(): void {
    this.#path = undefined;
    // The paths still name their places: no guess may take one.
    this.#guess = false;
    super.clear();
  }
}

/** The list kept by the last publish; null when there is none or it is unreadable. */
export function readFileList(path: string): FileList | null {
  try {
    const list = new ListedFiles();
    let files = 0;
    let ended = false;
    const read = readListLines(path, (line) => {
      const values: unknown = JSON.parse(line);
      if (ended) return false;
      if (!Array.isArray(values)) {
        // The last line counts the files: a list cut short between two lines is refused too.
        ended = (values as { files?: unknown } | null)?.files === files;
        return ended;
      }
      if (!areFiles(values)) return false;
      files += addFiles(list, values);
      return true;
    });
    if (read === "not lines") return readWholeFileList(path);
    if (typeof read !== "object" || !ended) return null;
    if (read.list !== null) {
      const journalled = readJournal(path, read.list, list);
      if (journalled === "refused") return null;
      list.journal = journalled;
    }
    return list;
  } catch {
    return null;
  }
}

/** Adds a line's files to `list` (values that `areFiles` took), or a journal's; how many. */
function addFiles(
  list: ListedFiles,
  values: readonly unknown[],
  from: "list" | "journal" = "list",
): number {
  for (let index = 0; index < values.length; index += FILE_VALUES) {
    const path = values[index] as string;
    const hash = values[index + 1] as string;
    const digest: unknown = values[index + 3];
    const bytes: unknown = values[index + 4];
    const rendered =
      typeof digest === "string" && typeof bytes === "number"
        ? { inputs: digest, bytes }
        : undefined;
    if (from === "journal") list.set(path, hash, signature(values[index + 2]), rendered);
    else list.add(path, hash, signature(values[index + 2]), rendered);
  }
  return values.length / FILE_VALUES;
}

/** Whether a line's values are files of the list: FILE_VALUES each, a path and a hash first. */
function areFiles(values: readonly unknown[]): boolean {
  if (values.length % FILE_VALUES !== 0) return false;
  for (let index = 0; index < values.length; index += FILE_VALUES) {
    if (typeof values[index] !== "string" || typeof values[index + 1] !== "string") return false;
  }
  return true;
}

/**
 * The journal beside a list of version 6, each line applied in order while
 * it names this list and is whole: the files a later publish set and
 * removed, and the count after it. Null when a line stops it (a build
 * stopped while adding it, or a list written again since): the lines
 * before it stand, and the next write writes the list whole. "refused" when
 * a whole line of this list does not leave the count it says: no list.
 */
function readJournal(
  path: string,
  name: string,
  list: ListedFiles,
): ListJournal | "refused" | null {
  let text: string;
  try {
    text = readFileSync(`${path}${JOURNAL}`, "utf8");
  } catch {
    // No journal: the list alone.
    return { path, list: name, entries: 0, spent: false };
  }
  let entries = 0;
  for (const line of text.split("\n")) {
    if (line === "") continue;
    let change: { list?: unknown; set?: unknown; gone?: unknown; files?: unknown };
    try {
      change = JSON.parse(line);
    } catch {
      return null;
    }
    const { set, gone } = change;
    if (change.list !== name || !Array.isArray(set) || !Array.isArray(gone)) return null;
    // A line is applied whole or not at all.
    if (!gone.every((file) => typeof file === "string") || !areFiles(set)) return null;
    for (const file of gone) list.remove(file);
    entries += addFiles(list, set, "journal") + gone.length;
    if (change.files !== list.hashes.size) return "refused";
  }
  return { path, list: name, entries, spent: false };
}

/** A signature in base 36 as the list keeps it; NaN when there is none, or it is not one. */
function signature(base36: unknown): number {
  const value = typeof base36 === "string" ? Number.parseInt(base36, 36) : Number.NaN;
  return Number.isSafeInteger(value) ? value : Number.NaN;
}

/**
 * Each line after the header of a list of version 5 or 6, in turn, read
 * 1 MB at a time; once read, the list's name (null for version 5): "not
 * lines" for a list of another version, "refused" when a line is refused
 * (false) or the list ends within a line.
 */
function readListLines(
  path: string,
  onLine: (line: string) => boolean,
): { readonly list: string | null } | "not lines" | "refused" {
  const file = openSync(path, "r");
  try {
    let buffer = Buffer.alloc(1 << 20);
    let filled = 0;
    let header = true;
    let list: string | null = null;
    for (;;) {
      if (filled === buffer.length) buffer = Buffer.concat([buffer, Buffer.alloc(buffer.length)]);
      const read = readSync(file, buffer, filled, buffer.length - filled, null);
      filled += read;
      const data = buffer.subarray(0, filled);
      let start = 0;
      for (let end = data.indexOf(10); end !== -1; end = data.indexOf(10, start)) {
        const line = data.toString("utf8", start, end);
        if (header) {
          const named = listName(line);
          if (named === undefined) return "not lines";
          list = named;
          header = false;
        } else if (!onLine(line)) return "refused";
        start = end + 1;
      }
      if (header && filled >= HEADER_MAX && start === 0) return "not lines";
      buffer.copy(buffer, 0, start, filled);
      filled -= start;
      if (read === 0) return filled === 0 && !header ? { list } : header ? "not lines" : "refused";
    }
  } finally {
    closeSync(file);
  }
}

/**
 * The name in a header line: null for version 5, which has none;
 * undefined for a line that is no header of version 5 or 6.
 */
function listName(line: string): string | null | undefined {
  if (line === '{"version":5}') return null;
  if (line.length > HEADER_MAX || !line.startsWith(`{"version":${LIST_VERSION},`)) return undefined;
  try {
    const header = JSON.parse(line) as { list?: unknown };
    return typeof header.list === "string" ? header.list : undefined;
  } catch {
    return undefined;
  }
}

/** A list of version 1 to 4: one JSON document. */
function readWholeFileList(path: string): FileList | null {
  try {
    const json = JSON.parse(readFileSync(path, "utf8")) as {
      version?: unknown;
      files?: unknown;
      inputs?: unknown;
    };
    if (
      !READABLE_VERSIONS.has(json.version as number) ||
      typeof json.files !== "object" ||
      json.files === null
    ) {
      return null;
    }
    const list = new ListedFiles();
    if (json.version === 4) {
      // [path, hash, signature in base 36 or null, …]
      const entries = json.files;
      if (!Array.isArray(entries) || entries.length % 3 !== 0) return null;
      for (let index = 0; index < entries.length; index += 3) {
        const filePath = entries[index];
        const hash = entries[index + 1];
        if (typeof filePath !== "string" || typeof hash !== "string") return null;
        list.add(filePath, hash, signature(entries[index + 2]));
      }
    } else {
      // Version 3: [path, value, path, value, …]; before: {path: value}.
      const entries = Array.isArray(json.files) ? json.files : Object.entries(json.files).flat();
      for (let index = 0; index < entries.length; index += 2) {
        const filePath = entries[index];
        const value = entries[index + 1];
        if (typeof filePath !== "string" || typeof value !== "string") return null;
        // "<hash>" or "<hash> <signature in base 36>"
        const space = value.indexOf(" ");
        if (space === -1) list.add(filePath, value, Number.NaN);
        else list.add(filePath, value.slice(0, space), signature(value.slice(space + 1)));
      }
    }
    readInputs(json.inputs, list);
    return list;
  } catch {
    return null;
  }
}

/**
 * The signature of each of `paths` under `root` as it is now (fileSignature):
 * what the next build compares a published file's stat with before keeping
 * it. A file that cannot be read is left out (it is read again, if ever kept).
 */
export function fileSignatures(root: string, paths: Iterable<string>): FileSignatures {
  const signatures = new Map<string, number>();
  for (const path of paths) {
    try {
      signatures.set(path, fileSignature(statSync(join(root, path))));
    } catch {
      // gone, or not readable: no signature, so never kept without reading it
    }
  }
  return signatures;
}

/**
 * The list's `inputs` ({ path: [digest, bytes] }) into `list`; what is not
 * of that form, or not of a file of the list, is left out.
 */
function readInputs(value: unknown, list: ListedFiles): void {
  if (typeof value !== "object" || value === null) return;
  // Versions 3 and 4: [path, digest, bytes, …]; before: {path: [digest, bytes]}.
  const entries: unknown[] = Array.isArray(value)
    ? value
    : Object.entries(value).flatMap(([path, entry]) =>
        Array.isArray(entry) ? [path, entry[0], entry[1]] : [],
      );
  for (let index = 0; index + 2 < entries.length; index += 3) {
    const [path, digest, bytes] = [entries[index], entries[index + 1], entries[index + 2]];
    if (typeof path === "string" && typeof digest === "string" && typeof bytes === "number") {
      list.addInputs(path, digest, bytes);
    }
  }
}

/**
 * Keeps the list for the next build. With `previous`, the list as read from
 * `path` (readFileList), only the files that differ from it are written:
 * their values, and the paths gone, as one line added to the journal
 * beside the list, while the journal names fewer files than a quarter of
 * the list (or JOURNAL_FLOOR). One edited event changes a few dozen of the
 * 557,000 files of a 100,000-event site, whose list written whole took 1.7
 * to 2.7 s, and the line 0.5 s (docs/performance.md, What changed, item 71).
 * Otherwise the list is written whole, under a new name, and replaces the
 * old one (never left half written: the header, FILES_A_LINE files a line,
 * their count; version 6, above), and the journal goes: a journal left by
 * a failure in between names the old list, so it is not read with the new.
 */
export function writeFileList(
  path: string,
  hashes: FileHashes,
  inputs: Pick<RenderedInputs, "get"> = new Map(),
  signatures: Pick<FileSignatures, "get"> = new Map(),
  previous: ReadList | null = null,
): void {
  const journal = previous?.journal;
  if (previous && journal && !journal.spent && journal.path === path) {
    // Spent either way: the list on disk is no longer the one read.
    journal.spent = true;
    const most = Math.max(JOURNAL_FLOOR, hashes.size / 4) - journal.entries;
    const changes = changedFiles(previous, hashes, inputs, signatures, most);
    // The same files: the list on disk stands as it is.
    if (changes && changes.files + changes.gone.length === 0) return;
    if (changes) {
      appendFileSync(
        `${path}${JOURNAL}`,
        `{"list":${JSON.stringify(journal.list)},"set":[${changes.set}],"gone":${JSON.stringify(
          changes.gone,
        )},"files":${hashes.size}}\n`,
      );
      count("files.listed", changes.files + changes.gone.length);
      return;
    }
  }
  writeWholeFileList(path, hashes, inputs, signatures);
  count("files.listed", hashes.size);
}

/** A list as read (FileList), or the last publish's files made from one (lastPublishedFiles). */
type ReadList = Pick<FileList, "hashes" | "journal"> &
  Partial<Pick<FileList, "inputs" | "signatures">>;

/**
 * The files of `hashes` whose values differ from `previous`'s (as the list
 * writes them), and the paths of `previous` that are gone; null when they
 * are more than `most`.
 */
function changedFiles(
  previous: ReadList,
  hashes: FileHashes,
  inputs: Pick<RenderedInputs, "get">,
  signatures: Pick<FileSignatures, "get">,
  most: number,
): { readonly set: string; readonly files: number; readonly gone: string[] } | null {
  let set = "";
  let files = 0;
  let listed = 0;
  for (const [path, hash] of hashes) {
    const before = previous.hashes.get(path);
    if (before !== undefined) listed++;
    const signature = signatures.get(path);
    const from = inputs.get(path);
    const was = previous.inputs?.get(path);
    if (
      before === hash &&
      previous.signatures?.get(path) === signature &&
      was?.inputs === from?.inputs &&
      (was?.bytes ?? 0) === (from?.bytes ?? 0)
    ) {
      continue;
    }
    if (++files > most) return null;
    set += `${files === 1 ? "" : ","}${fileValues(path, hash, signature, from)}`;
  }
  const gone: string[] = [];
  if (listed < previous.hashes.size) {
    for (const path of previous.hashes.keys()) {
      if (hashes.has(path)) continue;
      if (files + gone.push(path) > most) return null;
    }
  }
  return { set, files, gone };
}

/** A file's values on a line of the list (FILE_VALUES). */
function fileValues(
  path: string,
  hash: string,
  signature: number | undefined,
  from: RenderedFrom | undefined,
): string {
  return `${JSON.stringify(path)},${JSON.stringify(hash)},${
    signature === undefined ? "null" : `"${signature.toString(36)}"`
  },${from ? `${JSON.stringify(from.inputs)},${from.bytes}` : "null,null"}`;
}

/** The list written whole, under a new name, in place of the old one and its journal. */
function writeWholeFileList(
  path: string,
  hashes: FileHashes,
  inputs: Pick<RenderedInputs, "get">,
  signatures: Pick<FileSignatures, "get">,
): void {
  replaceFileSync(path, (append) => {
    const list = randomBytes(12).toString("base64url");
    append(`{"version":${LIST_VERSION},"list":"${list}"}\n`);
    let line = "";
    let onLine = 0;
    let files = 0;
    for (const [filePath, hash] of hashes) {
      files++;
      line += `${onLine === 0 ? "[" : ","}${fileValues(
        filePath,
        hash,
        signatures.get(filePath),
        inputs.get(filePath),
      )}`;
      if (++onLine === FILES_A_LINE) {
        append(`${line}]\n`);
        line = "";
        onLine = 0;
      }
    }
    if (onLine > 0) append(`${line}]\n`);
    append(`{"files":${files}}\n`);
  });
  rmSync(`${path}${JOURNAL}`, { force: true });
}
