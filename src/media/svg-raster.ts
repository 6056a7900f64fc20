import type { ChildProcess } from "node:child_process";
import { forkEntry } from "../fork-entry.ts";
import { ImageRefused, outOfTime } from "./image-refused.ts";
import type { RasterJob, RasterReply } from "./svg-raster-worker.ts";

/**
 * Portal SVGs are published as PNGs drawn from them, never as SVGs. An SVG
 * is a document: opened from the site's origin, one with a script runs
 * there, and the ways to hide one from a filter are many (UTF-16, prefixed
 * elements, character references, animation elements that set a link). A
 * picture of it cannot run anything, and every reader shows a PNG (feed
 * readers, chat previews, the share cards' renderer, which stretches an
 * SVG instead of cropping it). docs/site.md, "Images", has the measurements
 * behind this choice.
 *
 * The drawing runs in a process of its own (src/media/svg-raster-worker.ts),
 * one SVG at a time, and is killed when one takes longer than its deadline:
 * that SVG is refused and the next gets a new process.
 */

/** The longer side of a drawn SVG: the share cards' width, sharp on the event page. */
export const RASTER_EDGE = 1200;

/** The size an SVG of this size is drawn at: its shape, its longer side RASTER_EDGE. */
export function rasterSize(width: number, height: number): { width: number; height: number } {
  const scale = RASTER_EDGE / Math.max(width, height);
  return {
    width: Math.max(1, Math.round(width * scale)),
    height: Math.max(1, Math.round(height * scale)),
  };
}

export class SvgRasterizer {
  readonly #timeoutMs: number;
  #worker: Promise<ChildProcess> | null = null;
  #turn: Promise<unknown> = Promise.resolve();
  #nextId = 0;
  /** SVGs drawn (a PNG came back), for the build's counts. */
  drawn = 0;

  constructor(timeoutMs: number) {
    this.#timeoutMs = timeoutMs;
  }

  /**
   * The PNG of this SVG (UTF-8) at this size; throws ImageRefused. One
   * drawing at a time; `signal` (the deadline of all the build's images)
   * stops this one too.
   */
  draw(svg: Buffer, width: number, height: number, signal: AbortSignal): Promise<Buffer> {
    const result = this.#turn.then(() => this.#draw(svg, width, height, signal));
    this.#turn = result.catch(() => {});
    return result;
  }

  async close(): Promise<void> {
    const starting = this.#worker;
    this.#worker = null;
    const worker = await starting?.catch(() => null);
    if (!worker || worker.exitCode !== null || worker.signalCode !== null) return;
    const exited = new Promise((done) => worker.once("exit", done));
    worker.kill("SIGKILL");
    await exited;
  }

  async #draw(svg: Buffer, width: number, height: number, signal: AbortSignal): Promise<Buffer> {
    if (signal.aborted) throw outOfTime();
    const stopped = new AbortController();
    const worker = await Promise.race([this.#start(), whenAborted(signal, stopped.signal)]).finally(
      () => stopped.abort(),
    );
    const id = this.#nextId++;
    return new Promise<Buffer>((resolve, reject) => {
      const done = (outcome: () => void) => {
        clearTimeout(timer);
        signal.removeEventListener("abort", onAbort);
        worker.off("message", onMessage);
        worker.off("exit", onExit);
        outcome();
      };
      const stop = (error: ImageRefused) =>
        done(() => {
          // The next SVG gets a new process.
          this.#worker = null;
          worker.kill("SIGKILL");
          reject(error);
        });
      const onAbort = () => stop(outOfTime());
      const onMessage = (reply: RasterReply) => {
        if ("ready" in reply || reply.id !== id) return;
        if ("error" in reply) {
          done(() =>
            reject(new ImageRefused(`an SVG that cannot be drawn (${reply.error})`, "refused")),
          );
        } else {
          this.drawn++;
          done(() => resolve(Buffer.from(reply.png)));
        }
      };
      const onExit = () =>
        done(() => reject(new ImageRefused("the SVG drawing process stopped", "refused")));
      const timer = setTimeout(
        () =>
          stop(new ImageRefused(`an SVG not drawn within ${this.#timeoutMs / 1000} s`, "refused")),
        this.#timeoutMs,
      );
      signal.addEventListener("abort", onAbort);
      worker.on("message", onMessage);
      worker.on("exit", onExit);
      worker.send({ id, svg, width, height } satisfies RasterJob);
    });
  }

  /** The drawing process, once its renderer is loaded (its start is not an SVG's time). */
  #start(): Promise<ChildProcess> {
    if (this.#worker) return this.#worker;
    const worker = forkEntry(new URL("./svg-raster-worker.ts", import.meta.url), [], {
      serialization: "advanced",
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
    const started = new Promise<ChildProcess>((resolve, reject) => {
      worker.once("message", () => resolve(worker));
      worker.once("exit", (code, signal) => {
        if (this.#worker === started) this.#worker = null;
        reject(new ImageRefused(`the SVG drawing process stopped (${signal ?? code})`, "refused"));
      });
    });
    this.#worker = started;
    return started;
  }
}

/** Rejects when `signal` aborts (the build's deadline for images), until `done` aborts. */
function whenAborted(signal: AbortSignal, done: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    signal.addEventListener("abort", () => reject(outOfTime()), { once: true, signal: done });
  });
}
