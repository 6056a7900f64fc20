import { join, normalize, sep } from "node:path";
import { codeFingerprint } from "../code-fingerprint.ts";
import { type DiskWrites, type FileContent, writeNow } from "./disk-writes.ts";
import { FileRecord } from "./file-record.ts";
import {
  contentHash,
  type KnownFile,
  keepPublished,
  knownFile,
  type PublishedFiles,
  publishedCopy,
} from "./published-files.ts";

/**
 * Writes the build's files into the output folder, one at a time, each
 * folder created once, refusing to write one path twice (two items claiming
 * the same URL would silently overwrite each other; Eleventy's duplicate
 * permalink check refuses the same).
 *
 * Every output is written through `write`, the one place where a file is
 * reused rather than made again:
 *
 * - a file given its `inputs` (everything its bytes depend on besides the
 *   code, as text) that were those of its last publish is not rendered: the
 *   published copy is kept, as long as it is still the file that publish
 *   wrote (same size, and its stat unchanged or its bytes hashed again:
 *   src/render/published-files.ts, checkFile);
 * - any other file is rendered and hashed; if its bytes are those of the
 *   published copy, that copy is kept instead of a new one written.
 *
 * A kept file is not written here at all: the publish step leaves it where
 * it is and moves in only the files written (src/publish/publish.ts).
 *
 * The inputs are digested with the code's fingerprint (src/code-fingerprint.ts),
 * so an upgrade or an edit of the code renders everything once. What an
 * output names as its inputs must miss nothing its render reads, the
 * build's clock included where it matters: tests build incrementally and
 * from scratch and compare the bytes.
 *
 * Synchronous on purpose: for thousands of small files, queuing writes on
 * libuv's thread pool cost 3 to 6 times more than writing them directly
 * (20,000 files of 10 KB: 2.8 s against 0.5 s on tmpfs and 1.0 s on disk,
 * docs/performance.md). What is decided here (kept or written, the hash) is
 * decided at once; only putting the bytes on disk may be handed to a thread
 * of its own (`disk`, src/render/disk-writes.ts), each file whole, which
 * the build waits for before it publishes (src/cli/render-site.ts).
 */
export class FileWriter {
  readonly #root: string;
  readonly #disk: DiskWrites;
  readonly #published: PublishedFiles | null;
  readonly #known: FileRecord;
  /** Paths `keep` found edited since their publish, for the write that follows. */
  readonly #notPublished = new Set<string>();
  readonly #folder: string;
  #files = 0;
  #bytes = 0;

  /**
   * `published`: the files the last publish left, to keep where this build's
   * would be the same. `folder`: where `root` is in the published site
   * ("fr/" for a language's site, src/config/site-languages.ts; "" for the
   * site's root): the files' paths in the published list, and in `known`,
   * start with it. `disk`: where the bytes go (src/render/disk-writes.ts; by
   * default written at once, on this thread), whose owner waits for them.
   */
  constructor(
    root: string,
    options: { published?: PublishedFiles | null; folder?: string; disk?: DiskWrites } = {},
  ) {
    this.#root = root;
    this.#disk = options.disk ?? writeNow();
    this.#published = options.published ?? null;
    this.#known = new FileRecord(this.#published);
    this.#folder = options.folder ?? "";
  }

  /** What was written here, hashed, by site-relative path with "/" (for hashOutput's `known`). */
  get known(): FileRecord {
    return this.#known;
  }

  /** Files written here. */
  get files(): number {
    return this.#files;
  }

  get bytes(): number {
    return this.#bytes;
  }

  /**
   * Writes one file, `path` relative to the root or a site path
   * ("/feed.xml"): the published copy when `inputs` are those it was
   * rendered from, else what `render` makes (or the content given). True
   * when it was rendered.
   */
  write(path: string, render: FileContent | (() => FileContent), inputs?: string): boolean {
    const sitePath = this.#sitePath(path);
    const digest = inputs === undefined ? undefined : inputsDigest(inputs);
    const tried = this.#notPublished.delete(sitePath)
      ? "tried"
      : digest === undefined
        ? "no"
        : this.#keepRenderedFrom(sitePath, digest);
    if (tried === "kept") return false;
    const bytes = this.#disk.bytesOf(typeof render === "function" ? render() : render);
    const hash = contentHash(bytes);
    // A published copy found not to be the published file is not looked at twice.
    const kept =
      tried === "no" && keepPublished(this.#published, sitePath, { hash, bytes: bytes.byteLength });
    if (kept) {
      // The list's hash, not this one: a mark rather than a record (item 84).
      this.#known.keptByBytes(sitePath, bytes.byteLength, digest);
      this.#counted(bytes.byteLength);
      return true;
    }
    this.#disk.write(join(this.#root, sitePath.slice(this.#folder.length)));
    this.#add(sitePath, knownFile(hash, bytes.byteLength, digest, false));
    return true;
  }

  /**
   * Keeps the published copy of `path` when it was rendered from these
   * inputs, as `write` would, for a caller whose render cannot wait inside
   * `write` (a page whose transforms are asynchronous); true when kept.
   * Otherwise the caller renders and writes it, with the same inputs.
   */
  keep(path: string, inputs: string): boolean {
    return this.keepDigest(path, inputsDigest(inputs));
  }

  /**
   * `keep`, given the digest of the inputs (`inputsDigest`) rather than
   * the inputs: a page the build's record says is unchanged
   * (src/eleventy/page-record.ts) is kept by the digest it was last
   * rendered from, with no inputs made.
   */
  keepDigest(path: string, digest: string): boolean {
    const sitePath = this.#sitePath(path);
    // Found not to be the published file already (the record vouched for it, then its inputs
    // were made): it is not read again.
    if (this.#notPublished.has(sitePath)) return false;
    const tried = this.#keepRenderedFrom(sitePath, digest);
    // A copy found not to be the published file is not looked at again by the write that follows.
    if (tried === "tried") this.#notPublished.add(sitePath);
    return tried === "kept";
  }

  /**
   * The published bytes of `path` when they were rendered from these
   * inputs and are still on disk as published (publishedCopy), for an
   * output made in part of another's bytes; the path is not written or
   * kept by asking. The inputs are asked only where the list has the path's.
   */
  publishedCopy(path: string, inputs: () => string): Buffer | undefined {
    return publishedCopy(this.#published, this.#siteOf(path), () => inputsDigest(inputs()));
  }

  /**
   * Refuses paths that others wrote into the same folder (Eleventy's own
   * pages) and this writer wrote too.
   */
  refuseTaken(paths: Iterable<string>): void {
    for (const path of paths) {
      const sitePath = this.#siteOf(path);
      if (this.#known.has(sitePath)) throw twice(sitePath);
    }
  }

  /** A path's site path in the whole site (this writer's folder first). */
  #siteOf(path: string): string {
    return this.#folder + sitePathOf(relativePathOf(path));
  }

  /**
   * The published copy kept, when it was rendered from the inputs with this
   * digest; "tried" when it was, but the copy is no longer that file.
   */
  #keepRenderedFrom(sitePath: string, digest: string): "kept" | "tried" | "no" {
    const published = this.#published;
    const before = published?.inputs?.get(sitePath);
    const hash = published?.hashes.get(sitePath);
    if (!before || hash === undefined || before.inputs !== digest) return "no";
    if (!keepPublished(published, sitePath, { hash, bytes: before.bytes })) return "tried";
    // Marked in the list, which has its hash, size and inputs: no record of its own (item 83).
    this.#known.keptAsListed(sitePath);
    this.#counted(before.bytes);
    return "kept";
  }

  /**
   * The file's site path, once each path. Its place on disk is made only
   * when it is written: most files of a rebuild are kept (a join for each
   * of 560,000 kept files cost 0.35 s of an edited 100,000-event build).
   */
  #sitePath(path: string): string {
    const relativePath = relativePathOf(path);
    if (relativePath.startsWith("..") || relativePath === ".") {
      throw new Error(`Refusing to write ${path}: outside the output folder.`);
    }
    const sitePath = this.#folder + sitePathOf(relativePath);
    if (this.#known.has(sitePath)) throw twice(sitePath);
    return sitePath;
  }

  #add(sitePath: string, file: KnownFile): void {
    this.#known.set(sitePath, file);
    this.#counted(file.bytes);
  }

  #counted(bytes: number): void {
    this.#files++;
    this.#bytes += bytes;
  }
}

function twice(sitePath: string): Error {
  return new Error(`Two outputs want to write ${sitePath}; each needs its own URL.`);
}

/** A path relative to the output folder, in this system's form, from a relative or site path. */
function relativePathOf(path: string): string {
  return normalize(path.replace(/^\/+/, ""));
}

/** The site path ("calendars/x/feed.xml") of a path relative to the output folder. */
function sitePathOf(relativePath: string): string {
  return sep === "/" ? relativePath : relativePath.split(sep).join("/");
}

/** The inputs with the code that renders them: the same digest means the same bytes. */
export function inputsDigest(inputs: string): string {
  return contentHash(`${codeFingerprint()}\0${inputs}`);
}
