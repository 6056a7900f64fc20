import { parentPort, workerData } from "node:worker_threads";
import type { CardContent } from "./card-content.ts";
import type { CardSize } from "./card-layout.ts";
import { CardRenderer } from "./card-renderer.ts";
import { CardStore } from "./card-store.ts";

/**
 * The thread that draws the share cards (src/cards/card-studio.ts starts
 * it). Its own event loop keeps a few renders going on libuv's threads and
 * writes each card into the cache as soon as it is drawn, whatever the
 * build's main thread is busy with: Eleventy's rendering and the file
 * writers run long stretches without yielding, and renders started from
 * there would wait for them to finish each time.
 */

export interface WorkerSetup {
  /** The cache folder the cards are written to. */
  readonly dir: string;
  readonly concurrency: number;
}

export interface RenderJob {
  readonly id: number;
  readonly content: CardContent;
  readonly sizes: readonly CardSize[];
  readonly keys: readonly string[];
}

/** A job drawn and written into the cache. */
export interface JobDone {
  readonly id: number;
  readonly rendered: number;
  readonly imageProblem: string | null;
}

export interface JobFailed {
  readonly id: number;
  readonly error: string;
}

/** What the thread says of each job, with the time at least one render ran since it started. */
export type JobReport = (JobDone | JobFailed) & { readonly busyMs: number };

const port = parentPort;
if (!port) throw new Error("card-worker.ts runs as a worker thread (src/cards/card-studio.ts).");
const setup = workerData as WorkerSetup;
const store = new CardStore(setup.dir);
const renderer = CardRenderer.open();
const queue: RenderJob[] = [];
let running = 0;
let busySince = 0;
let busyMs = 0;

port.on("message", (job: RenderJob) => {
  queue.push(job);
  pump();
});

function pump(): void {
  while (running < setup.concurrency && queue.length > 0) {
    const job = queue.shift() as RenderJob;
    if (running === 0) busySince = performance.now();
    running++;
    render(job).then((report) => {
      running--;
      if (running === 0) busyMs += performance.now() - busySince;
      const open = running > 0 ? performance.now() - busySince : 0;
      port?.postMessage({ ...report, busyMs: busyMs + open });
      pump();
    });
  }
}

async function render(job: RenderJob): Promise<JobDone | JobFailed> {
  try {
    const result = await (await renderer).render(job.content, job.sizes);
    result.cards.forEach((card, index) => {
      store.write(job.keys[index] as string, card.png);
    });
    return { id: job.id, rendered: result.cards.length, imageProblem: result.imageProblem };
  } catch (error) {
    return { id: job.id, error: (error as Error).stack ?? String(error) };
  }
}
