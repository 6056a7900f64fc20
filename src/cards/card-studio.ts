import { availableParallelism } from "node:os";
import { count } from "../metrics.ts";
import type { CardContent } from "./card-content.ts";
import type { CardSize } from "./card-layout.ts";
import { CardRenderer } from "./card-renderer.ts";
import { CardStore } from "./card-store.ts";

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

interface Job {
  readonly content: CardContent;
  readonly files: readonly CardFile[];
}

/**
 * Renders the cards a build asks for, each once, in the background: a card
 * whose key is in the cache is reused, one already asked for is not asked
 * again, the others are drawn a few at a time on libuv's threads while the
 * build goes on (fetching the portal, rendering pages). A build asks as soon
 * as it knows a card's content (src/cards/share-cards.ts) and waits for all
 * of them only before it writes them into the site.
 *
 * One studio per process: `npm start` keeps it across rebuilds.
 */
export class CardStudio {
  readonly #renderer: CardRenderer;
  readonly #store: CardStore;
  readonly #concurrency: number;
  /** Every key asked for, and when it is in the cache. */
  readonly #known = new Map<string, Promise<void>>();
  readonly #queue: Job[] = [];
  readonly #waiting = new Map<Job, { resolve: () => void; reject: (error: unknown) => void }>();
  readonly #warnings: string[] = [];
  #running = 0;
  #busySince = 0;
  #busyMs = 0;
  #rendered = 0;
  #reused = 0;

  private constructor(renderer: CardRenderer, store: CardStore, concurrency: number) {
    this.#renderer = renderer;
    this.#store = store;
    this.#concurrency = concurrency;
  }

  /** `dir`: where rendered cards are kept between builds. */
  static async open(dir: string, options: CardStudioOptions = {}): Promise<CardStudio> {
    const concurrency = Math.max(1, options.concurrency ?? availableParallelism());
    return new CardStudio(await CardRenderer.open(), new CardStore(dir), concurrency);
  }

  /** The files of these cards, without rendering anything. */
  files(content: CardContent, sizes: readonly CardSize[]): CardFile[] {
    return sizes.map((size) => {
      const key = this.#store.key(content, size, this.#renderer.fingerprint);
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
    if (missing.length > 0) {
      const job: Job = { content, files: missing };
      const done = new Promise<void>((resolve, reject) =>
        this.#waiting.set(job, { resolve, reject }),
      );
      // Awaited through settled(); a failure is reported there.
      done.catch(() => {});
      for (const file of missing) this.#known.set(file.key, done);
      this.#queue.push(job);
      this.#pump();
    }
    return files;
  }

  /** Resolves once every card asked for is in the cache; rejects if one could not be rendered. */
  async settled(keys?: Iterable<string>): Promise<void> {
    const wanted = keys ? [...keys].map((key) => this.#known.get(key)) : [...this.#known.values()];
    await Promise.all(wanted);
  }

  /** What went wrong without stopping the build (an image that could not be drawn). */
  takeWarnings(): string[] {
    return this.#warnings.splice(0);
  }

  /** Cards rendered and reused by this studio so far; the time at least one render ran. */
  get stats(): { rendered: number; reused: number; busyMs: number } {
    const open = this.#running > 0 ? performance.now() - this.#busySince : 0;
    return { rendered: this.#rendered, reused: this.#reused, busyMs: this.#busyMs + open };
  }

  /** Removes kept cards the last build did not use; forgets them here too. */
  prune(keep: ReadonlySet<string>): number {
    for (const key of this.#known.keys()) if (!keep.has(key)) this.#known.delete(key);
    return this.#store.prune(keep);
  }

  #pump(): void {
    while (this.#running < this.#concurrency && this.#queue.length > 0) {
      const job = this.#queue.shift() as Job;
      if (this.#running === 0) this.#busySince = performance.now();
      this.#running++;
      this.#render(job).finally(() => {
        this.#running--;
        if (this.#running === 0) this.#busyMs += performance.now() - this.#busySince;
        this.#pump();
      });
    }
  }

  async #render(job: Job): Promise<void> {
    const waiting = this.#waiting.get(job);
    this.#waiting.delete(job);
    try {
      const result = await this.#renderer.render(
        job.content,
        job.files.map((file) => file.size),
      );
      result.cards.forEach((card, index) => {
        this.#store.write((job.files[index] as CardFile).key, card.png);
      });
      if (result.imageProblem) {
        this.#warnings.push(`Share card of "${job.content.title}": ${result.imageProblem}.`);
      }
      this.#rendered += result.cards.length;
      count("cards.rendered", result.cards.length);
      waiting?.resolve();
    } catch (error) {
      // Forgotten, so that the next build (or npm start's next run) tries again.
      for (const file of job.files) this.#known.delete(file.key);
      waiting?.reject(error);
    }
  }
}
