import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";

/**
 * Writes many generated files into the output folder while the caller keeps
 * rendering: a bounded number of writes in flight (memory stays flat however
 * many files there are), each folder created once, and a refusal to write one
 * path twice (two items claiming the same URL would silently overwrite each
 * other, as Eleventy's duplicate permalink check also refuses).
 */
export class FileWriter {
  readonly #root: string;
  readonly #inFlight = new Set<Promise<void>>();
  readonly #folders = new Map<string, Promise<unknown>>();
  readonly #written: Set<string>;
  readonly #limit: number;
  #files = 0;
  #bytes = 0;
  #failure: unknown = null;

  /** `taken`: paths already written by others (Eleventy's own outputs). */
  constructor(root: string, options: { taken?: Iterable<string>; limit?: number } = {}) {
    this.#root = root;
    this.#written = new Set(options.taken);
    this.#limit = options.limit ?? 64;
  }

  get files(): number {
    return this.#files;
  }

  get bytes(): number {
    return this.#bytes;
  }

  /** Queues one file (path relative to the root); waits only when too many writes are in flight. */
  async write(path: string, content: string): Promise<void> {
    if (this.#failure) throw this.#failure;
    if (this.#written.has(path)) {
      throw new Error(`Two outputs want to write ${path}; each needs its own URL.`);
    }
    this.#written.add(path);
    this.#files++;
    this.#bytes += Buffer.byteLength(content);
    const target = join(this.#root, path);
    const write = this.#folder(dirname(target))
      .then(() => writeFile(target, content))
      .catch((error: unknown) => {
        this.#failure ??= error;
      })
      .finally(() => this.#inFlight.delete(write));
    this.#inFlight.add(write);
    if (this.#inFlight.size >= this.#limit) await Promise.race(this.#inFlight);
  }

  /** Waits for every queued write; throws the first write error. */
  async close(): Promise<void> {
    await Promise.all(this.#inFlight);
    if (this.#failure) throw this.#failure;
  }

  #folder(path: string): Promise<unknown> {
    let made = this.#folders.get(path);
    if (!made) {
      made = mkdir(path, { recursive: true });
      this.#folders.set(path, made);
    }
    return made;
  }
}
