import { type KnownFile, knownFile, type PublishedFiles } from "./published-files.ts";

/** A file kept as the published list has it: hash, size and inputs' digest all the list's. */
const KEPT_AS_LISTED = 1;
/** A file rendered again with the list's bytes: its hash the list's, its size and inputs' digest new. */
const KEPT_BY_BYTES = 2;
/** In the record's order: a file of its own, not a place in the list. */
const OTHER = -1;
/** The largest size a file kept by its bytes is marked with (a Uint32Array's). */
const MARKED_SIZE_MAX = 0xffff_ffff;

/**
 * The file writer's record of the build's files (src/render/file-writer.ts),
 * by site path: what each was hashed to, its size, its inputs' digest and
 * whether the published copy was kept.
 *
 * Most files of a rebuild are kept as the last publish left them, and the
 * published list already holds all that of them: such a file is one byte,
 * at its place in the list (`keptAsListed`), and its record is made from
 * the list when asked. A file rendered again to the list's bytes (a build
 * under new code renders every file, and keeps most) is a mark too, with
 * its size and its new inputs' digest in arrays by the same places, its
 * hash the list's (`keptByBytes`). Any other file (written, or not in the
 * list) has its own entry, keyed by the list's own text of its path where
 * the list has it, so that each path is held once. At 100,000 events a
 * rebuild keeps some 560,000 files, which had a map entry and an object
 * each, held from the render to the publish (docs/performance.md, What
 * changed, items 83 and 84).
 */
export class FileRecord implements ReadonlyMap<string, KnownFile> {
  readonly #published: PublishedFiles | null;
  /** By the list's places: KEPT_AS_LISTED or KEPT_BY_BYTES, else 0; empty without a list. */
  readonly #marks: Uint8Array;
  /** By the same places, for the files kept by their bytes: their sizes and inputs' digests. */
  #sizes: Uint32Array | null = null;
  #digests: (string | undefined)[] | null = null;
  readonly #others = new Map<string, KnownFile>();
  #marked = 0;
  /**
   * The order the files were recorded in, where the list marks some: a
   * marked file by its place, any other as OTHER, the next of `#others`
   * (a map, in the order its keys were set). The record is read, and the
   * next list written, in this order, which the next build's writer
   * follows (src/publish/output-files.ts, RecentPlaces). Null without a
   * list: `#others` alone is in that order.
   */
  #order: Int32Array | null;
  #recorded = 0;

  constructor(published: PublishedFiles | null) {
    this.#published = published;
    this.#marks = new Uint8Array(published?.places?.count ?? 0);
    // A rebuild records about as many files as the list has: room for those, made once.
    this.#order = this.#marks.length > 0 ? new Int32Array(this.#marks.length + 1024) : null;
  }

  /**
   * Records a file kept as the list has it (keepPublished with the list's
   * hash and size, its inputs' digest the list's).
   */
  keptAsListed(path: string): void {
    const place = this.#placeOf(path);
    if (place === undefined) this.set(path, this.#listed(path));
    else this.#mark(place, KEPT_AS_LISTED);
  }

  /**
   * Records a file rendered again whose bytes are the list's (keepPublished
   * with the hash the list has): rendered from `inputs`, `bytes` long.
   */
  keptByBytes(path: string, bytes: number, inputs: string | undefined): void {
    const place = this.#placeOf(path);
    if (place === undefined || bytes > MARKED_SIZE_MAX) {
      this.set(path, knownFile(this.#hashOf(path), bytes, inputs, true));
      return;
    }
    this.#sizes ??= new Uint32Array(this.#marks.length);
    // Every place there from the start: set out of order, an empty array's far places would
    // make V8 hold it as a dictionary, several times the size.
    this.#digests ??= Array.from({ length: this.#marks.length }, () => undefined);
    this.#sizes[place] = bytes;
    this.#digests[place] = inputs;
    this.#mark(place, KEPT_BY_BYTES);
  }

  /** Records any other file, keyed by the list's text of its path where the list has it. */
  set(path: string, file: KnownFile): void {
    const places = this.#published?.places;
    const place = places?.of(path);
    const key = (place === undefined ? undefined : places?.path(place)) ?? path;
    if (!this.#others.has(key)) this.#recordOrder(OTHER);
    this.#others.set(key, file);
  }

  /** Files with an entry of their own, not marked in the list (for tests of the record's size). */
  get ownEntries(): number {
    return this.#others.size;
  }

  get size(): number {
    return this.#others.size + this.#marked;
  }

  get(path: string): KnownFile | undefined {
    const file = this.#others.get(path);
    if (file !== undefined) return file;
    const place = this.#markedPlace(path);
    return place === undefined ? undefined : this.#fromList(path, place);
  }

  has(path: string): boolean {
    return this.#others.has(path) || this.#markedPlace(path) !== undefined;
  }

  /** The paths, as recorded, without a record made for each. */
  *keys(): MapIterator<string> {
    for (const [path] of this.#recordedPaths()) yield path;
    return undefined;
  }

  /** The files, as recorded. */
  *entries(): MapIterator<[string, KnownFile]> {
    for (const [path, place] of this.#recordedPaths()) {
      const file = place === undefined ? this.#others.get(path) : this.#fromList(path, place);
      if (file !== undefined) yield [path, file];
    }
    return undefined;
  }

  *values(): MapIterator<KnownFile> {
    for (const [, file] of this.entries()) yield file;
    return undefined;
  }

  forEach(
    callback: (file: KnownFile, path: string, record: ReadonlyMap<string, KnownFile>) => void,
    thisArg?: unknown,
  ): void {
    for (const [path, file] of this.entries()) callback.call(thisArg, file, path, this);
  }

  [Symbol.iterator](): MapIterator<[string, KnownFile]> {
    return this.entries();
  }

  /** The path's place in the list, when the list has one and it is among this record's marks. */
  #placeOf(path: string): number | undefined {
    const place = this.#published?.places?.of(path);
    return place !== undefined && place < this.#marks.length ? place : undefined;
  }

  #mark(place: number, mark: number): void {
    if (this.#marks[place] === 0) {
      this.#marked++;
      this.#recordOrder(place);
    }
    this.#marks[place] = mark;
  }

  #recordOrder(entry: number): void {
    let order = this.#order;
    if (!order) return;
    if (this.#recorded === order.length) {
      order = new Int32Array(order.length * 2);
      order.set(this.#order as Int32Array);
      this.#order = order;
    }
    order[this.#recorded++] = entry;
  }

  /** Each path as recorded, with its place in the list when it is marked there. */
  *#recordedPaths(): Generator<[string, number | undefined], undefined> {
    const order = this.#order;
    if (!order) {
      for (const path of this.#others.keys()) yield [path, undefined];
      return undefined;
    }
    const places = this.#published?.places;
    const others = this.#others.keys();
    for (let at = 0; at < this.#recorded; at++) {
      const entry = order[at] as number;
      if (entry === OTHER) {
        const next = others.next();
        if (!next.done) yield [next.value, undefined];
        continue;
      }
      const path = places?.path(entry);
      if (path !== undefined) yield [path, entry];
    }
    return undefined;
  }

  /** The path's place when it is marked. */
  #markedPlace(path: string): number | undefined {
    if (this.#marked === 0) return undefined;
    const place = this.#placeOf(path);
    return place !== undefined && this.#marks[place] !== 0 ? place : undefined;
  }

  /**
   * A marked file's record, from the list and, kept by its bytes, from
   * this record's arrays: read at its place, not looked up by its path
   * (the publish step asks for every kept file's).
   */
  #fromList(path: string, place: number): KnownFile {
    const places = this.#published?.places;
    const hash = places?.hash(place);
    if (hash === undefined) throw new Error(`${path} is not in the published list.`);
    if (this.#marks[place] === KEPT_BY_BYTES) {
      return knownFile(hash, this.#sizes?.[place] ?? 0, this.#digests?.[place], true);
    }
    const from = places?.renderedFrom(place);
    return knownFile(hash, from?.bytes ?? 0, from?.inputs, true);
  }

  /** A file's record as the list has it, kept. */
  #listed(path: string): KnownFile {
    const from = this.#published?.inputs?.get(path);
    return knownFile(this.#hashOf(path), from?.bytes ?? 0, from?.inputs, true);
  }

  #hashOf(path: string): string {
    const hash = this.#published?.hashes.get(path);
    if (hash === undefined) throw new Error(`${path} is not in the published list.`);
    return hash;
  }
}
