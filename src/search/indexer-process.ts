import { type ChildProcess, fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import { PublishError } from "../errors.ts";
import type { PartFiles, SearchBundle } from "./index-layout.ts";
import type { PartSettings } from "./part-cache.ts";
import type { SearchRecord } from "./search-records.ts";

/**
 * The search index's parts are indexed by a process of their own
 * (indexer-child.ts), which runs Pagefind through its Node API, writes each
 * part into the part cache and answers with a few figures. A process rather
 * than this thread, because feeding Pagefind is work of its own: every
 * record goes to Pagefind and every file comes back as base64 in JSON, about
 * 8 s of this thread's time and hundreds of MB of short-lived strings for
 * 100,000 records. Done here, that work interrupts the rendering it runs
 * beside and makes each of its garbage collections longer; in the child it
 * takes neither this thread's time nor its heap (docs/performance.md, "Search
 * index"). The records of a part are sent once and dropped here.
 */

/** One part to index. */
export interface PartJob {
  readonly key: string;
  readonly fingerprint: string;
  readonly records: readonly SearchRecord[];
  readonly language: string;
  /** Where the part is kept (part-cache.ts); null: its files come back in the answer. */
  readonly cache: { readonly dir: string; readonly settings: PartSettings } | null;
  /** Whether the answer carries Pagefind's script and WebAssembly (index-layout.ts). */
  readonly bundle: boolean;
}

/** A part indexed. */
export interface PartIndexed {
  /** Pagefind's time for it, records to files, in ms. */
  readonly ms: number;
  /** Peak memory of the indexer (this child and its Pagefind process), in MB; null where unknown. */
  readonly peakMB: number | null;
  /** Its files, unless the cache kept them. */
  readonly files: PartFiles | null;
  readonly bundle: SearchBundle | null;
}

/** What the child says of a job. */
export type IndexerAnswer =
  | ({ readonly id: number } & PartIndexed)
  | { readonly id: number; readonly error: string };

export class IndexerProcess {
  readonly #child: ChildProcess;
  readonly #waiting = new Map<
    number,
    { resolve(done: PartIndexed): void; reject(error: Error): void }
  >();
  #nextId = 0;
  #broken: Error | null = null;

  private constructor(child: ChildProcess) {
    this.#child = child;
    child.on("message", (answer: IndexerAnswer) => this.#answer(answer));
    child.on("error", (error) => this.#fail(error));
    child.on("exit", (code, signal) =>
      this.#fail(new PublishError(`The search indexer stopped (${signal ?? code}).`)),
    );
    this.#hold(false);
  }

  static start(): IndexerProcess {
    const child = fork(
      fileURLToPath(new URL("../render/typescript-process.mjs", import.meta.url)),
      [new URL("./indexer-child.ts", import.meta.url).href],
      // Structured clone, as between threads: records and files go as they are.
      { serialization: "advanced", execArgv: [], stdio: ["ignore", "inherit", "inherit", "ipc"] },
    );
    return new IndexerProcess(child);
  }

  /**
   * Sends the part now (the caller can drop its records) and answers once it
   * is indexed; parts are indexed one at a time, in the order sent.
   */
  index(job: PartJob): Promise<PartIndexed> {
    if (this.#broken) return Promise.reject(this.#broken);
    const id = this.#nextId++;
    const done = new Promise<PartIndexed>((resolve, reject) => {
      this.#waiting.set(id, { resolve, reject });
    });
    this.#hold(true);
    this.#child.send({ id, job });
    return done;
  }

  /** Ends the child; parts still waiting fail. */
  close(): void {
    this.#fail(new PublishError("The search indexer was closed before it finished."));
    this.#child.removeAllListeners("exit");
    if (this.#child.connected) this.#child.disconnect();
    this.#child.kill();
  }

  #answer(answer: IndexerAnswer): void {
    const waiting = this.#waiting.get(answer.id);
    if (!waiting) return;
    this.#waiting.delete(answer.id);
    if (this.#waiting.size === 0) this.#hold(false);
    if ("error" in answer) waiting.reject(new PublishError(answer.error));
    else waiting.resolve(answer);
  }

  #fail(error: Error): void {
    this.#broken ??= error;
    for (const waiting of this.#waiting.values()) waiting.reject(error);
    this.#waiting.clear();
    this.#hold(false);
  }

  /** The child keeps the build alive only while a part is on its way: a failed build ends at once. */
  #hold(on: boolean): void {
    const channel = this.#child.channel as { ref?(): void; unref?(): void } | undefined;
    if (on) {
      this.#child.ref();
      channel?.ref?.();
    } else {
      this.#child.unref();
      channel?.unref?.();
    }
  }
}
