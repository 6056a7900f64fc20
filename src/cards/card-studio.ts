import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import { count } from "../metrics.ts";
import type { CardContent } from "./card-content.ts";
import type { CardSize } from "./card-layout.ts";
import { rendererFingerprint } from "./card-renderer.ts";
import { CardStore } from "./card-store.ts";
import type { JobReport, RenderJob, WorkerSetup } from "./card-worker.ts";

/** One card file: its key, size and where the build keeps it. */
export interface CardFile {
  readonly key: string;
  readonly size: CardSize;
  /** The published file's name: `<key>.png`. */
  readonly name: string;
  readonly cachePath: string;
}

export interface CardStudioOptions {
  /** Renders at once (default: the machine's cores): each takes a thread of libuv's pool. */
  readonly concurrency?: number;
}

interface Pending {
  readonly title: string;
  readonly keys: readonly string[];
  readonly resolve: () => void;
  readonly reject: (error: Error) => void;
}

/**
 * Renders the cards a build asks for, each once, in the background: a card
 * whose key is in the cache is reused, one already asked for is not asked
 * again, the others are drawn by a worker thread (src/cards/card-worker.ts),
 * a few at a time, while the build goes on (fetching the portal, rendering
 * pages). A build asks as soon as it knows a card's content
 * (src/cards/share-cards.ts) and waits for them only before it writes them
 * into the site.
 *
 * One studio per process: `npm start` keeps it across rebuilds.
 */
export class CardStudio {
  readonly #worker: Worker;
  readonly #store: CardStore;
  readonly #fingerprint: string;
  /** Every key asked for, and when it is in the cache. */
  readonly #known = new Map<string, Promise<void>>();
  readonly #pending = new Map<number, Pending>();
  readonly #warnings: string[] = [];
  #nextId = 0;
  #rendered = 0;
  #reused = 0;
  #busyMs = 0;
  #waiters = 0;
  #broken: Error | null = null;

  private constructor(worker: Worker, store: CardStore, fingerprint: string) {
    this.#worker = worker;
    this.#store = store;
    this.#fingerprint = fingerprint;
    worker.on("message", (report: JobReport) => this.#report(report));
    worker.on("error", (error) => this.#fail(error));
    worker.on("exit", (code) => this.#fail(new Error(`The share card thread stopped (${code}).`)));
    // The thread keeps the process alive only while someone waits for cards (settled):
    // a build that fails while cards are drawn early ends at once.
    worker.unref();
  }

  /** `dir`: where rendered cards are kept between builds. */
  static async open(dir: string, options: CardStudioOptions = {}): Promise<CardStudio> {
    const setup: WorkerSetup = {
      dir,
      concurrency: Math.max(1, options.concurrency ?? availableParallelism()),
    };
    const worker = new Worker(new URL("./card-worker-start.mjs", import.meta.url), {
      workerData: setup,
    });
    return new CardStudio(worker, new CardStore(dir), rendererFingerprint());
  }

  /** The files of these cards, without rendering anything. */
  files(content: CardContent, sizes: readonly CardSize[]): CardFile[] {
    return sizes.map((size) => {
      const key = this.#store.key(content, size, this.#fingerprint);
      return { key, size, name: `${key}.png`, cachePath: this.#store.path(key) };
    });
  }

  /**
   * These cards' files, and their rendering started unless they are kept
   * from an earlier build or already asked for.
   */
  request(content: CardContent, sizes: readonly CardSize[]): CardFile[] {
    const files = this.files(content, sizes);
    const missing = files.filter((file) => {
      if (this.#known.has(file.key)) return false;
      if (this.#store.has(file.key)) {
        this.#known.set(file.key, Promise.resolve());
        this.#reused++;
        count("cards.reused");
        return false;
      }
      return true;
    });
    if (missing.length === 0) return files;
    const id = this.#nextId++;
    const keys = missing.map((file) => file.key);
    const done = new Promise<void>((resolve, reject) => {
      this.#pending.set(id, { title: content.title, keys, resolve, reject });
    });
    // Awaited through settled(); a failure is reported there.
    done.catch(() => {});
    for (const key of keys) this.#known.set(key, done);
    if (this.#broken) {
      this.#settle(id, this.#broken);
    } else {
      const job: RenderJob = { id, content, sizes: missing.map((file) => file.size), keys };
      this.#worker.postMessage(job);
    }
    return files;
  }

  /** Resolves once these cards (default: every card asked for) are in the cache. */
  async settled(keys?: Iterable<string>): Promise<void> {
    const wanted = keys ? [...keys].map((key) => this.#known.get(key)) : [...this.#known.values()];
    if (this.#waiters++ === 0) this.#worker.ref();
    try {
      await Promise.all(wanted);
    } finally {
      if (--this.#waiters === 0) this.#worker.unref();
    }
  }

  /** What went wrong without stopping the build (an image that could not be drawn). */
  takeWarnings(): string[] {
    return this.#warnings.splice(0);
  }

  /** Cards rendered and reused by this studio so far; the time at least one render ran. */
  get stats(): { rendered: number; reused: number; busyMs: number } {
    return { rendered: this.#rendered, reused: this.#reused, busyMs: this.#busyMs };
  }

  /** Removes kept cards the last build did not use; forgets them here too. */
  prune(keep: ReadonlySet<string>): number {
    for (const key of this.#known.keys()) if (!keep.has(key)) this.#known.delete(key);
    return this.#store.prune(keep);
  }

  /** Stops the thread (a test's studio; a build's ends with its process). */
  async close(): Promise<void> {
    this.#broken ??= new Error("The share card studio is closed.");
    await this.#worker.terminate();
  }

  #report(report: JobReport): void {
    this.#busyMs = report.busyMs;
    const pending = this.#pending.get(report.id);
    if (!pending) return;
    if ("error" in report) {
      this.#settle(report.id, new Error(`Share card of "${pending.title}": ${report.error}`));
      return;
    }
    this.#rendered += report.rendered;
    count("cards.rendered", report.rendered);
    if (report.imageProblem) {
      this.#warnings.push(`Share card of "${pending.title}": ${report.imageProblem}.`);
    }
    this.#settle(report.id, null);
  }

  #settle(id: number, error: Error | null): void {
    const pending = this.#pending.get(id);
    if (!pending) return;
    this.#pending.delete(id);
    if (!error) {
      pending.resolve();
      return;
    }
    // Forgotten, so that the next build (or npm start's next run) tries again.
    for (const key of pending.keys) this.#known.delete(key);
    pending.reject(error);
  }

  #fail(error: Error): void {
    this.#broken ??= error;
    for (const id of [...this.#pending.keys()]) this.#settle(id, error);
  }
}
