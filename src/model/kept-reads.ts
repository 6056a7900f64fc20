import { statSync } from "node:fs";
import { count } from "../metrics.ts";

/**
 * The kept files a build reads back (the normalized events, the calendar
 * files' sizes, the rich results, the last publish's list of files), read
 * ahead by a build that waits to be told to go (`npm run build -- --ready`,
 * src/ready) and handed to the build it then runs.
 *
 * A value read ahead is handed over once, and only while the file and its
 * journal are as they were when it was read (inode, size, change and
 * modification times): a file written since is read again, so what the
 * build gets is what reading the file now would give. Without `ahead`,
 * every `kept` is a plain read; a loader given no KeptReads reads as well.
 */
export class KeptReads {
  readonly #ahead = new Map<string, { readonly stamp: string; readonly value: unknown }>();
  #reading = false;

  /** Reads what `read` reads, for a later `kept` of the same file (the build started ahead). */
  ahead(read: () => void): void {
    this.#reading = true;
    try {
      read();
    } finally {
      this.#reading = false;
    }
  }

  /** How many values are read ahead and not yet handed over. */
  get waiting(): number {
    return this.#ahead.size;
  }

  /**
   * The file at `path` as `read` reads it: the value read ahead while the
   * file and its journal are unchanged since, or read now.
   */
  kept<T>(path: string, read: () => T): T {
    if (this.#reading) {
      // The stamp first: a file written while it is read is read again at the build.
      const stamp = stampOf(path);
      const value = read();
      this.#ahead.set(path, { stamp, value });
      return value;
    }
    const ahead = this.#ahead.get(path);
    if (!ahead) return read();
    this.#ahead.delete(path);
    if (ahead.stamp === stampOf(path)) {
      count("readAhead.taken");
      return ahead.value as T;
    }
    count("readAhead.stale");
    return read();
  }
}

/** What the file and its journal beside it (src/model/kept-map.ts) are now. */
function stampOf(path: string): string {
  return [path, `${path}.journal`]
    .map((file) => {
      const stat = statSync(file, { bigint: true, throwIfNoEntry: false });
      return stat ? `${stat.ino}:${stat.size}:${stat.ctimeNs}:${stat.mtimeNs}` : "-";
    })
    .join(" ");
}
