import type { CardContent } from "./card-content.ts";
import type { CardSize } from "./card-layout.ts";
import { CardRenderer } from "./card-renderer.ts";
import { CardStore } from "./card-store.ts";

/**
 * The process that draws the share cards (src/cards/card-studio.ts starts
 * it, at a lower scheduling priority than the build). It keeps a few renders
 * going on its libuv threads and writes each card into the cache as soon as
 * it is drawn. A process of its own, for two reasons: its own event loop is
 * not held up by the build's long stretches without a turn (Eleventy's
 * rendering, the file writers), and the operating system gives the build
 * the CPU first, so cards use what the build leaves idle (while it waits on
 * the portal, above all) instead of slowing it down.
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

/**
 * What the process says of each job, with the time at least one render ran
 * since it started, and its peak memory.
 */
export type JobReport = (JobDone | JobFailed) & {
  readonly busyMs: number;
  readonly peakRssMB: number;
};

if (!process.send)
  throw new Error("card-worker.ts runs as a child process (src/cards/card-studio.ts).");
const send = process.send.bind(process);
const setup = JSON.parse(process.argv[2] ?? "{}") as WorkerSetup;
const store = new CardStore(setup.dir);
const renderer = CardRenderer.open();
const queue: RenderJob[] = [];
let running = 0;
let busySince = 0;
let busyMs = 0;

process.on("message", (job: RenderJob) => {
  queue.push(job);
  pump();
});
// The build is gone (or done): so is this.
process.on("disconnect", () => process.exit(0));

function pump(): void {
  while (running < setup.concurrency && queue.length > 0) {
    const job = queue.shift() as RenderJob;
    if (running === 0) busySince = performance.now();
    running++;
    render(job).then((report) => {
      running--;
      if (running === 0) busyMs += performance.now() - busySince;
      const open = running > 0 ? performance.now() - busySince : 0;
      const peakRssMB = Math.round(process.resourceUsage().maxRSS / 1024);
      send({ ...report, busyMs: busyMs + open, peakRssMB });
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
