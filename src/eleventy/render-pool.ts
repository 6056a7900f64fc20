import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import { ConfigError } from "../errors.ts";
import type { Metrics } from "../metrics.ts";
import type { PageTemplateSource } from "../render/page-template.ts";

/**
 * Worker threads that render streamed files alongside the main thread, so a
 * build uses every core: while the main thread runs Eleventy for the rest of
 * the site, the workers start on the event pages, and when Eleventy is done
 * the main thread joins them. Threads claim ranges of file numbers from one
 * shared counter, so whoever is free takes the next range and none waits for
 * another (docs/performance.md).
 */

/**
 * Workers get a copy of process.env as it is when they start: the build pins
 * SITE_NOW before that, so every thread formats against one clock.
 */
export interface WorkerInit {
  readonly configPath: string;
  readonly root: string;
  /**
   * Shared Int32s: [0] the number of the next unclaimed file; [1 + i] worker
   * i's state: 0 not started, 1 rendering, 2 stopped before it started.
   */
  readonly state: SharedArrayBuffer;
  readonly index: number;
}

export const NOT_STARTED = 0;
export const RENDERING = 1;
export const STOPPED = 2;

export interface WorkerStart {
  readonly sources: readonly PageTemplateSource[];
  readonly data: Record<string, unknown>;
  readonly outputDir: string;
  /** The job as the main thread sees it; a worker that sees another refuses. */
  readonly shape: string;
}

export type WorkerReply =
  | { readonly type: "declined"; readonly reason: string }
  | {
      readonly type: "done";
      readonly paths: readonly string[];
      readonly bytes: number;
      readonly metrics: Metrics;
    }
  | { readonly type: "failed"; readonly message: string; readonly stack: string };

export type WorkerResult = Extract<WorkerReply, { type: "done" }>;

/** Below this many streamed files, starting a thread costs more than it saves. */
export const MIN_FILES_FOR_WORKERS = 2000;

/** RENDER_WORKERS: `auto` (default), or how many worker threads to use (0: none). */
export function renderWorkerCount(env: NodeJS.ProcessEnv, files: number): number {
  const raw = env.RENDER_WORKERS?.trim() || "auto";
  if (raw === "auto") {
    return files >= MIN_FILES_FOR_WORKERS
      ? Math.min(3, Math.max(0, availableParallelism() - 1))
      : 0;
  }
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0 || value > 64) {
    throw new ConfigError(
      `RENDER_WORKERS: expected auto or a whole number from 0 to 64, got "${raw}".`,
    );
  }
  return value;
}

const WORKER_MODULE = new URL("./render-worker.ts", import.meta.url).href;
// Workers do not inherit the TypeScript loader; register it before loading the module.
const BOOTSTRAP = `import("tsx/esm/api").then((tsx) => { tsx.register(); return import(${JSON.stringify(WORKER_MODULE)}); });`;

interface Thread {
  readonly worker: Worker;
  readonly result: Promise<WorkerResult | null>;
  settle(result: WorkerResult | null): void;
}

export class RenderPool {
  /** [0]: the next unclaimed file, shared with the workers (see WorkerInit). */
  readonly claims: Int32Array;
  readonly #state: Int32Array;
  readonly #threads: Thread[];

  /** Starts `count` workers on the job; they begin as soon as they are set up. */
  constructor(count: number, init: Omit<WorkerInit, "state" | "index">, start: WorkerStart) {
    const state = new SharedArrayBuffer(4 * (1 + count));
    this.#state = new Int32Array(state);
    this.claims = this.#state;
    this.#threads = Array.from({ length: count }, (_, index) => {
      const worker = new Worker(BOOTSTRAP, { eval: true, workerData: { ...init, state, index } });
      // Never keep the process alive: a failed build must still exit.
      worker.unref();
      worker.postMessage(start);
      return this.#watch(worker);
    });
  }

  /**
   * Waits for the workers that took part. One still setting up when the main
   * thread is done is stopped: every file is claimed, it has nothing to do.
   * A declined worker gives null.
   */
  async finish(): Promise<(WorkerResult | null)[]> {
    this.#threads.forEach((thread, index) => {
      if (Atomics.compareExchange(this.#state, 1 + index, NOT_STARTED, STOPPED) === NOT_STARTED) {
        thread.settle(null);
      }
    });
    return this.settled();
  }

  /** Every worker's outcome, once each has rendered its share or declined; then stops them. */
  async settled(): Promise<(WorkerResult | null)[]> {
    try {
      return await Promise.all(this.#threads.map((thread) => thread.result));
    } finally {
      await Promise.all(this.#threads.map((thread) => thread.worker.terminate()));
    }
  }

  #watch(worker: Worker): Thread {
    let settle!: (result: WorkerResult | null) => void;
    let fail!: (error: Error) => void;
    const result = new Promise<WorkerResult | null>((resolve, reject) => {
      settle = resolve;
      fail = reject;
    });
    // finish() observes the outcome; a pool abandoned by a failed build must not crash the process.
    result.catch(() => {});
    worker.on("message", (message: WorkerReply) => {
      if (message.type === "declined") {
        console.warn(
          `[render] rendering in one thread: the Eleventy configuration uses ${message.reason}`,
        );
        settle(null);
      } else if (message.type === "done") {
        settle(message);
      } else {
        const error = new Error(`Rendering in a worker thread failed: ${message.message}`);
        error.stack = `${error.message}\n${message.stack}`;
        fail(error);
      }
    });
    worker.on("error", fail);
    worker.on("exit", (code) => {
      // A worker that stops before reporting has lost the files it claimed.
      fail(new Error(`A render worker thread stopped (exit code ${code}) before it finished.`));
    });
    return { worker, result, settle };
  }
}
