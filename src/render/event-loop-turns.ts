import { setImmediate as nextTurn } from "node:timers/promises";

/**
 * Turns of the event loop during the build's long synchronous loops (the
 * streamed pages and the file groups: minutes of rendering and writing at
 * 100,000 events). The search indexer (a Pagefind process) and the share
 * card workers work beside this thread but wait for it to read their answers
 * and send them the next part or card: without a turn they stand idle until
 * rendering ends, and the build then waits for them (docs/performance.md,
 * "Search index"). A turn every few milliseconds of work costs nothing
 * measurable and keeps them busy.
 */
export class EventLoopTurns {
  readonly #everyMs: number;
  #last = performance.now();

  constructor(everyMs = 20) {
    this.#everyMs = everyMs;
  }

  /** Whether this much work has run since the last turn. */
  due(): boolean {
    return performance.now() - this.#last >= this.#everyMs;
  }

  /** One turn of the event loop: timers, I/O and child processes' answers run. */
  async take(): Promise<void> {
    await nextTurn();
    this.#last = performance.now();
  }
}
