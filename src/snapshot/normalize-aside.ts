import type { Worker } from "node:worker_threads";
import { threadEntry } from "../fork-entry.ts";
import type { Normalized, NormalizeOptions } from "../model/normalize-calendar.ts";
import type { Calendar, CalendarEvent } from "../model/types.ts";
import type { WireRecord } from "../model/wire.ts";
import type { NormalizeJob } from "./normalize-worker.ts";

/**
 * normalizeEvent on a thread of its own (src/snapshot/normalize-worker.ts),
 * for the events normalized as they arrive (load-snapshot.ts, earlyEvents):
 * done on the build's thread, between the answers, that work held the
 * answers that came in meanwhile, and with them the next request of each
 * slot (docs/performance.md, Known limits, "Share cards in a cold build").
 * Here the build's thread only hands each event over and takes its answer
 * back. The thread starts with the first event to normalize: a build whose
 * events are all kept starts none. An answer that cannot be had (the
 * thread stopped, or normalizeEvent threw there) is null: the snapshot's
 * own pass normalizes that event on the build's thread, as before.
 */
export class NormalizeAside {
  #worker: Worker | null = null;
  /** Set once the thread was closed, could not start or stopped on its own: not started again. */
  #stopped = false;
  #nextId = 0;
  readonly #waiting = new Map<number, (entry: Normalized<CalendarEvent> | null) => void>();

  normalize(
    listed: WireRecord,
    details: WireRecord | null,
    calendar: Pick<Calendar, "id" | "timeZone">,
    options: NormalizeOptions,
  ): Promise<Normalized<CalendarEvent> | null> {
    const worker = this.#started();
    if (!worker) return Promise.resolve(null);
    const id = this.#nextId++;
    const job: NormalizeJob = {
      id,
      listed,
      details,
      calendar: { id: calendar.id, timeZone: calendar.timeZone },
      options: { fieldMap: options.fieldMap, defaultTimeZone: options.defaultTimeZone },
    };
    return new Promise((resolve) => {
      this.#waiting.set(id, resolve);
      try {
        worker.postMessage(job);
      } catch {
        // A record that cannot be copied to the thread: normalized on this one later.
        this.#waiting.delete(id);
        resolve(null);
      }
    });
  }

  /** Stops the thread; what it had not answered yet is answered null. */
  async close(): Promise<void> {
    const worker = this.#worker;
    this.#worker = null;
    this.#stopped = true;
    this.#answerAllNull();
    await worker?.terminate();
  }

  #started(): Worker | null {
    if (this.#worker || this.#stopped) return this.#worker;
    let worker: Worker;
    try {
      worker = threadEntry(new URL("./normalize-worker.ts", import.meta.url));
    } catch {
      this.#stopped = true;
      return null;
    }
    // The build does not wait for the thread to end on its own.
    worker.unref();
    worker.on(
      "message",
      ({ id, entry }: { id: number; entry: Normalized<CalendarEvent> | null }) => {
        const resolve = this.#waiting.get(id);
        this.#waiting.delete(id);
        resolve?.(entry);
      },
    );
    const stopped = () => {
      if (this.#worker === worker) {
        this.#worker = null;
        this.#stopped = true;
      }
      this.#answerAllNull();
    };
    worker.on("error", stopped);
    worker.on("exit", stopped);
    this.#worker = worker;
    return worker;
  }

  #answerAllNull(): void {
    for (const resolve of this.#waiting.values()) resolve(null);
    this.#waiting.clear();
  }
}
