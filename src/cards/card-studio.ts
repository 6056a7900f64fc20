import type { ChildProcess } from "node:child_process";
import { availableParallelism, setPriority } from "node:os";
import { forkEntry } from "../fork-entry.ts";
import { count } from "../metrics.ts";
import type { CardContent } from "./card-content.ts";
import type { CardSize } from "./card-layout.ts";
import { rendererFingerprint } from "./card-renderer.ts";
import { CardStore } from "./card-store.ts";
import type { JobReport, RenderJob, WorkerSetup } from "./card-worker.ts";
import {
  BACKGROUND_NICENESS,
  type DrawingPolicy,
  idleLaunch,
  setDrawingPolicy,
} from "./drawing-priority.ts";

/** One card file: its key, size and where the build keeps it. */
export interface CardFile {
  readonly key: string;
  readonly size: CardSize;
  /** The published file's name: `<key>.png`. */
  readonly name: string;
  readonly cachePath: string;
}

/**
 * A card file whose name and cache path are made from its key when asked: a
 * build holds one for each event's card (100,063 at 100,000 events) from
 * the fetch to the end, and those two texts of each were most of what it
 * held for them (docs/performance.md, What changed, item 30).
 */
class StoredCardFile implements CardFile {
  readonly key: string;
  readonly size: CardSize;
  readonly #store: CardStore;

  constructor(key: string, size: CardSize, store: CardStore) {
    this.key = key;
    this.size = size;
    this.#store = store;
  }

  get name(): string {
    return `${this.key}.png`;
  }

  get cachePath(): string {
    return this.#store.path(this.key);
  }
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
 * again, the others are drawn by a process of lower priority
 * (src/cards/card-worker.ts), a few at a time, while the build goes on
 * (fetching the portal, rendering pages). A build asks as soon as it knows a card's content
 * (src/cards/share-cards.ts) and waits for them only before it writes them
 * into the site.
 *
 * One studio per process: `npm start` keeps it across rebuilds.
 */
export class CardStudio {
  readonly #setup: WorkerSetup;
  /**
   * The drawing process's scheduling policy, where it may leave the idle
   * one (src/cards/drawing-priority.ts); null where only its niceness is set.
   */
  #policy: DrawingPolicy | null = null;
  /** Started by the first card to draw: a build that draws none starts no process. */
  #worker: ChildProcess | null = null;
  readonly #store: CardStore;
  readonly #fingerprint: string;
  /** Every key asked for, and when it is in the cache. */
  readonly #known = new Map<string, Promise<void>>();
  /** The keys asked for since the last prune: the build's (`npm start` keeps one studio). */
  readonly #asked = new Set<string>();
  readonly #pending = new Map<number, Pending>();
  readonly #warnings: string[] = [];
  #nextId = 0;
  #rendered = 0;
  #renderedTold = 0;
  #reused = 0;
  #busyMs = 0;
  #waiters = 0;
  #peakRssMB = 0;
  #broken: Error | null = null;

  private constructor(setup: WorkerSetup, store: CardStore, fingerprint: string) {
    this.#setup = setup;
    this.#store = store;
    this.#fingerprint = fingerprint;
  }

  /** `dir`: where rendered cards are kept between builds. */
  static async open(dir: string, options: CardStudioOptions = {}): Promise<CardStudio> {
    const setup: WorkerSetup = {
      dir,
      concurrency: Math.max(1, options.concurrency ?? availableParallelism()),
    };
    return new CardStudio(setup, new CardStore(dir), rendererFingerprint());
  }

  /**
   * The drawing process, started when a card is first to be drawn. Every
   * build starts a studio, and most builds after the first draw no card
   * (one edited event whose card shows nothing it changed, the day rolling
   * over): starting the process anyway cost each of them its start, its
   * fonts and its renderer loaded (docs/performance.md, What changed, item 70).
   */
  #drawing(): ChildProcess {
    if (this.#worker) return this.#worker;
    // Asked here, not as the studio opens: most builds draw no card.
    const launch = idleLaunch();
    // Started under the idle policy unless the build already waits for cards.
    const idle = launch !== null && this.#waiters === 0;
    this.#policy = launch === null ? null : idle ? "idle" : "normal";
    const worker = forkEntry(
      new URL("./card-worker.ts", import.meta.url),
      [JSON.stringify(this.#setup)],
      // Structured clone, as between threads: the content goes as it is.
      { serialization: "advanced", stdio: ["ignore", "inherit", "inherit", "ipc"] },
      idle ? launch : [],
    );
    count("cards.processStarted");
    try {
      // The build gets the CPU first: also under the normal policy, while the build waits for cards.
      if (worker.pid !== undefined) setPriority(worker.pid, BACKGROUND_NICENESS);
    } catch {
      // Not allowed here: the cards then share the CPU with the build evenly.
    }
    worker.on("message", (report: JobReport) => this.#report(report));
    worker.on("error", (error) => this.#fail(error));
    worker.on("exit", (code, signal) =>
      this.#fail(new Error(`The share card process stopped (${signal ?? code}).`)),
    );
    this.#worker = worker;
    // It keeps the build alive only while the build waits for cards (settled):
    // a build that fails while cards are drawn early ends at once.
    this.#hold(this.#waiters > 0);
    return worker;
  }

  /** The files of these cards, without rendering anything. */
  files(content: CardContent, sizes: readonly CardSize[]): CardFile[] {
    const keys = this.#store.keys(content, sizes, this.#fingerprint);
    return sizes.map((size, index) => new StoredCardFile(keys[index] as string, size, this.#store));
  }

  /**
   * These cards' files, and their rendering started unless they are kept
   * from an earlier build or already asked for.
   */
  request(content: CardContent, sizes: readonly CardSize[]): CardFile[] {
    const files = this.files(content, sizes);
    for (const file of files) this.#asked.add(file.key);
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
      this.#drawing().send(job);
    }
    return files;
  }

  /** Resolves once these cards (default: every card asked for) are in the cache. */
  async settled(keys?: Iterable<string>): Promise<void> {
    const wanted = keys ? [...keys].map((key) => this.#known.get(key)) : [...this.#known.values()];
    if (this.#waiters++ === 0) this.#hold(true);
    try {
      await Promise.all(wanted);
    } finally {
      if (--this.#waiters === 0) this.#hold(false);
    }
  }

  /** What went wrong without stopping the build (an image that could not be drawn). */
  takeWarnings(): string[] {
    return this.#warnings.splice(0);
  }

  /**
   * Cards rendered and reused by this studio so far; the time at least one
   * render ran; the drawing process's peak memory (not in the build's own);
   * whether that process was started.
   */
  get stats(): {
    rendered: number;
    reused: number;
    busyMs: number;
    peakRssMB: number;
    started: boolean;
  } {
    return {
      rendered: this.#rendered,
      reused: this.#reused,
      busyMs: this.#busyMs,
      peakRssMB: this.#peakRssMB,
      started: this.#worker !== null,
    };
  }

  /** The drawing process's id, once it started. */
  get drawingProcessId(): number | null {
    return this.#worker?.pid ?? null;
  }

  /**
   * Cards rendered since the last call (or since the studio opened): a
   * build's own, those drawn while it fetched included, when `npm start`
   * keeps one studio across builds.
   */
  renderedSinceLastAsked(): number {
    const rendered = this.#rendered - this.#renderedTold;
    this.#renderedTold = this.#rendered;
    return rendered;
  }

  /**
   * Removes kept cards the last build did not ask for, and forgets them here
   * too; keeps `keep` (the site's cards) and every card the build asked for.
   * A card asked for early that the site did not use in the end (an event
   * whose card the published state changes: a new date's badge) is asked for
   * early by the next build too, which then finds it rather than drawing it
   * again, on every build while the badge shows.
   */
  prune(keep: ReadonlySet<string>): number {
    const kept = new Set([...keep, ...this.#asked]);
    this.#asked.clear();
    for (const key of this.#known.keys()) if (!kept.has(key)) this.#known.delete(key);
    return this.#store.prune(kept);
  }

  /** Stops the drawing process, if it was started. */
  async close(): Promise<void> {
    this.#broken ??= new Error("The share card studio is closed.");
    const worker = this.#worker;
    if (!worker || worker.exitCode !== null || worker.signalCode !== null) return;
    const exited = new Promise((done) => worker.once("exit", done));
    // Held while it stops: an unreferenced process would let this one end
    // before its exit is seen, silently, with the build's error unsaid.
    this.#hold(true);
    worker.kill();
    await exited;
  }

  /**
   * Whether the drawing process (and its channel) keeps this process alive:
   * while the build waits for cards. Then they are what it waits for, and
   * run under the normal policy; else under the idle one, where it started.
   */
  #hold(alive: boolean): void {
    const worker = this.#worker;
    if (!worker) return;
    const policy = alive ? "normal" : "idle";
    if (this.#policy && policy !== this.#policy && !this.#broken && worker.pid !== undefined) {
      this.#policy = policy;
      // Counted: once as the build starts waiting and once as it stops, never per card.
      count("cards.policyChanged");
      setDrawingPolicy(worker.pid, policy);
    }
    const channel = worker.channel as { ref(): void; unref(): void } | null | undefined;
    if (alive) {
      worker.ref();
      channel?.ref();
    } else {
      worker.unref();
      channel?.unref();
    }
  }

  #report(report: JobReport): void {
    this.#busyMs = report.busyMs;
    this.#peakRssMB = Math.max(this.#peakRssMB, report.peakRssMB);
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
