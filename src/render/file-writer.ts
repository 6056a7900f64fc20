import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, normalize, sep } from "node:path";
import { codeFingerprint } from "./code-fingerprint.ts";
import {
  contentHash,
  type KnownFile,
  keepPublished,
  type PublishedFiles,
} from "./published-copy.ts";

/**
 * Writes many generated files into the output folder, one at a time, each
 * folder created once, refusing to write one path twice (two items claiming
 * the same URL would silently overwrite each other; Eleventy's duplicate
 * permalink check refuses the same).
 *
 * Synchronous on purpose: for thousands of small files, queuing writes on
 * libuv's thread pool cost 3 to 6 times more than writing them directly
 * (20,000 files of 10 KB: 2.8 s against 0.5 s on tmpfs and 1.0 s on disk,
 * docs/performance.md), and nothing else waits on this thread meanwhile.
 *
 * Each file is hashed as it is written (what the build's file list and the
 * hosts compare); given the last publish's files, one whose bytes are the
 * same is not written but kept as published (published-copy.ts). A file
 * whose inputs are those it was last published from is not even rendered
 * (keepUnchanged).
 */
export class FileWriter {
  readonly #root: string;
  readonly #folders = new Set<string>();
  /** Eleventy's own outputs; what this writer writes is in #known. */
  readonly #taken: ReadonlySet<string>;
  readonly #published: PublishedFiles | null;
  readonly #known = new Map<string, KnownFile>();
  #files = 0;
  #bytes = 0;

  /**
   * `taken`: paths already written by others (Eleventy's own outputs),
   * relative to the root. `published`: the files the last publish left,
   * to keep where this build's bytes are the same.
   */
  constructor(
    root: string,
    options: { taken?: Iterable<string>; published?: PublishedFiles | null } = {},
  ) {
    this.#root = root;
    this.#taken = new Set(options.taken);
    this.#published = options.published ?? null;
  }

  /** What was written here, hashed, by site-relative path with "/" (for hashOutput's `known`). */
  get known(): ReadonlyMap<string, KnownFile> {
    return this.#known;
  }

  /** Files written here (not counting `taken`). */
  get files(): number {
    return this.#files;
  }

  get bytes(): number {
    return this.#bytes;
  }

  /**
   * Keeps the published copy of `path` without rendering it when it was
   * rendered from the same `inputs` (everything its bytes depend on besides
   * the code, as text: FileGroup.inputs) by the same code; false when the
   * caller must render and write it, with the same `inputs`.
   */
  keepUnchanged(path: string, inputs: string): boolean {
    const published = this.#published;
    if (!published?.inputs) return false;
    const { sitePath, target } = this.#place(path);
    const before = published.inputs.get(sitePath);
    const hash = published.hashes.get(sitePath);
    if (!before || hash === undefined || before.inputs !== inputsDigest(inputs)) return false;
    const file: KnownFile = {
      hash,
      bytes: before.bytes,
      inputs: before.inputs,
      ...(before.pieces ? { pieces: before.pieces } : {}),
    };
    if (!keepPublished(published, sitePath, file, target)) return false;
    this.#add(sitePath, { ...file, kept: true });
    return true;
  }

  /**
   * The published copy of `path`, with where each of this build's pieces
   * (`digests`, from pieceDigests) is among its pieces; null without a
   * published copy of the size the last publish wrote.
   */
  publishedPieces(path: string, digests: string): PublishedPieces | null {
    const published = this.#published;
    const sitePath = sitePathOf(relativePathOf(path));
    const before = published?.inputs?.get(sitePath);
    const publishedDigests = before?.pieces;
    if (!published || !before || publishedDigests === undefined) return null;
    let content: Buffer;
    try {
      content = readFileSync(join(published.folder, sitePath));
    } catch {
      return null;
    }
    // As keepUnchanged trusts a published copy of the size it was written with.
    if (content.byteLength !== before.bytes) return null;
    const where = new Map<string, number>();
    eachDigest(publishedDigests, (digest, index) => {
      if (!where.has(digest)) where.set(digest, index);
    });
    const positions: number[] = [];
    eachDigest(digests, (digest) => positions.push(where.get(digest) ?? -1));
    return { bytes: content, count: publishedDigests.length / PIECE_DIGEST_LENGTH, positions };
  }

  /**
   * Writes one file: `path` is relative to the root, or a site path
   * ("/feed.xml"); `inputs`, what it was rendered from (see keepUnchanged);
   * `pieces`, the digests of what each of its pieces was (pieceDigests).
   */
  write(path: string, content: string | Uint8Array, inputs?: string, pieces?: string): void {
    const { sitePath, target } = this.#place(path);
    const bytes = typeof content === "string" ? Buffer.from(content) : content;
    const file: KnownFile = {
      hash: contentHash(bytes),
      bytes: bytes.byteLength,
      ...(inputs === undefined ? {} : { inputs: inputsDigest(inputs) }),
      ...(pieces === undefined ? {} : { pieces }),
    };
    const kept = keepPublished(this.#published, sitePath, file, target);
    if (!kept) writeFileSync(target, bytes);
    this.#add(sitePath, kept ? { ...file, kept } : file);
  }

  /** The file's site path and place on disk, its folder made, once each path. */
  #place(path: string): { sitePath: string; target: string } {
    const relativePath = relativePathOf(path);
    if (relativePath.startsWith("..") || relativePath === ".") {
      throw new Error(`Refusing to write ${path}: outside the output folder.`);
    }
    const sitePath = sitePathOf(relativePath);
    if (this.#known.has(sitePath) || this.#taken.has(relativePath)) {
      throw new Error(`Two outputs want to write ${relativePath}; each needs its own URL.`);
    }
    const target = join(this.#root, relativePath);
    const folder = dirname(target);
    if (!this.#folders.has(folder)) {
      mkdirSync(folder, { recursive: true });
      this.#folders.add(folder);
    }
    return { sitePath, target };
  }

  #add(sitePath: string, file: KnownFile): void {
    this.#known.set(sitePath, file);
    this.#files++;
    this.#bytes += file.bytes;
  }
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
function inputsDigest(inputs: string): string {
  return contentHash(`${codeFingerprint()}\0${inputs}`);
}

/**
 * A published file's pieces (a feed's items), each found by what it is made
 * from: the published copy's bytes, how many pieces it has, and for each of
 * this build's pieces, in order, its place among them, or -1.
 */
export interface PublishedPieces {
  readonly bytes: Buffer;
  readonly count: number;
  readonly positions: readonly number[];
}

/**
 * 96 bits of a piece's digest: files.json keeps one for every item of every
 * feed, and a piece is only ever compared with the pieces of the same file.
 */
const PIECE_DIGEST_LENGTH = 16;

/**
 * The digests of what a file's pieces are made from (FileGroup.pieces), with
 * the code that renders them, one after the other: made once per file, for
 * finding them in the published copy and for the list of published files.
 */
export function pieceDigests(pieces: readonly string[]): string {
  return pieces.map((piece) => inputsDigest(piece).slice(0, PIECE_DIGEST_LENGTH)).join("");
}

function eachDigest(digests: string, visit: (digest: string, index: number) => void): void {
  for (let at = 0; at < digests.length; at += PIECE_DIGEST_LENGTH) {
    visit(digests.slice(at, at + PIECE_DIGEST_LENGTH), at / PIECE_DIGEST_LENGTH);
  }
}
