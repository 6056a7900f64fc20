/**
 * A read-only map whose values are read from another map's when asked: one
 * record of a site's files (each file's hash, size and inputs together) read
 * as the map of one of them. At 100,000 events a site has 630,000 files, and
 * the publish step made a map of 630,000 entries for each beside the record
 * (docs/performance.md, What changed, item 31).
 *
 * `value` gives a key's value from the source's (and the key), or undefined
 * where the key has none: the view then has no such key (so its size is
 * counted when asked, not kept). `everyKey`: it never gives undefined, so
 * the view has the source's keys and size, taken from the source as they are.
 */
export class MapView<K, V, W> implements ReadonlyMap<K, W> {
  readonly #source: ReadonlyMap<K, V>;
  readonly #value: (value: V, key: K) => W | undefined;
  readonly #everyKey: boolean;

  constructor(
    source: ReadonlyMap<K, V>,
    value: (value: V, key: K) => W | undefined,
    options: { readonly everyKey?: boolean } = {},
  ) {
    this.#source = source;
    this.#value = value;
    this.#everyKey = options.everyKey === true;
  }

  get(key: K): W | undefined {
    const value = this.#source.get(key);
    return value === undefined ? undefined : this.#value(value, key);
  }

  has(key: K): boolean {
    return this.#everyKey ? this.#source.has(key) : this.get(key) !== undefined;
  }

  get size(): number {
    if (this.#everyKey) return this.#source.size;
    let size = 0;
    for (const _ of this.entries()) size++;
    return size;
  }

  entries(): MapIterator<[K, W]> {
    return this.#pairs() as MapIterator<[K, W]>;
  }

  keys(): MapIterator<K> {
    if (this.#everyKey) return this.#source.keys();
    return this.#project(([key]) => key);
  }

  values(): MapIterator<W> {
    return this.#project(([, value]) => value);
  }

  forEach(callback: (value: W, key: K, map: ReadonlyMap<K, W>) => void, thisArg?: unknown): void {
    for (const [key, value] of this.entries()) callback.call(thisArg, value, key, this);
  }

  [Symbol.iterator](): MapIterator<[K, W]> {
    return this.entries();
  }

  *#pairs(): Generator<[K, W], undefined> {
    for (const [key, sourceValue] of this.#source) {
      const value = this.#value(sourceValue, key);
      if (value !== undefined) yield [key, value];
    }
    return undefined;
  }

  #project<T>(part: (pair: [K, W]) => T): MapIterator<T> {
    const pairs = this.#pairs();
    return (function* () {
      for (const pair of pairs) yield part(pair);
      return undefined;
    })() as MapIterator<T>;
  }
}
