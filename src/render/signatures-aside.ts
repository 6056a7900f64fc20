import { Worker } from "node:worker_threads";
import { type FileSignatures, fileSignature } from "./published-files.ts";

/**
 * The published files' signatures taken again on a thread of their own,
 * while the build renders: one `stat` for each file the last publish
 * listed, so that keeping an unchanged file (keepPublished) costs the
 * build's thread a look-up instead. A build of 10,000 events keeps about
 * 56,000 files; their stats took 0.37 s of an edited build's 6.5 s on its
 * thread (docs/performance.md, What changed, item 44).
 *
 * The pass only says which files are as recorded. A file it found moved,
 * missing or of no signature recorded (a suspect) is checked on the
 * build's thread as before, and so is every file asked about before the
 * pass is done; the pass cannot make a build keep what it would not have
 * kept. Its stats are taken after the last publish and before this one,
 * as the thread's own would be.
 */
export interface SignatureCheck {
  /** True when the pass found the file's signature to be the one recorded; false when it is not done, or did not. */
  unchanged(path: string): boolean;
  /** Settles once the pass is done or failed (tests wait for it). */
  readonly done: Promise<void>;
}

/**
 * Paths in one message to the thread: it makes one batch's strings at a
 * time, never the whole list's (the others wait in its queue, serialized).
 */
const BATCH = 20_000;

/** Between the paths of a batch: no path holds it. */
const SEPARATOR = "\0";

/**
 * Runs on the other thread: stats each path of a batch, answers the places
 * whose signature is not the one recorded (whatever took a file's place has
 * another inode, so another signature).
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const { statSync } = require("node:fs");
const { join } = require("node:path");
const fileSignature = ${fileSignature.toString()};
parentPort.on("message", ({ batch, paths, recorded }) => {
  const list = paths.split(${JSON.stringify(SEPARATOR)});
  const moved = [];
  for (let i = 0; i < list.length; i++) {
    const stats = statSync(join(workerData.folder, list[i]), { throwIfNoEntry: false });
    if (!stats || fileSignature(stats) !== recorded[i]) moved.push(i);
  }
  const places = Int32Array.from(moved);
  parentPort.postMessage({ batch, places }, [places.buffer]);
});
`;

/** Starts the pass over the files of `signatures` in `folder`, `batchSize` paths at a time. */
export function checkSignaturesAside(
  folder: string,
  signatures: FileSignatures,
  batchSize = BATCH,
): SignatureCheck {
  const entries = signatures.entries();
  // Null until every batch is answered: until then, every file is checked on the build's thread.
  let suspects: Set<string> | null = null;
  const moved = new Set<string>();
  const nextBatch = () => {
    const paths: string[] = [];
    const recorded: number[] = [];
    for (let next = entries.next(); !next.done; next = entries.next()) {
      // A list that names a path holding the separator is not the build's: its thread checks it.
      if (next.value[0].includes(SEPARATOR)) {
        moved.add(next.value[0]);
        continue;
      }
      paths.push(next.value[0]);
      recorded.push(next.value[1]);
      if (paths.length === batchSize) break;
    }
    return { paths, recorded: Float64Array.from(recorded) };
  };
  // Every batch handed over at once: the thread works through them at its
  // own pace, not at the build's, whose thread renders for seconds between
  // two turns of its event loop (one batch at a time, the pass of 557,000
  // files at 100,000 events took 18 s, and the build's thread checked
  // 85,000 files itself meanwhile). The build keeps each batch's paths (the
  // list's own strings) until its answer.
  let batch = nextBatch();
  if (batch.paths.length === 0) return { unchanged: () => false, done: Promise.resolve() };

  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { folder } });
  // The build does not wait for it: the thread ends with the build, done or not.
  worker.unref();
  const batches: (readonly string[])[] = [];
  for (; batch.paths.length > 0; batch = nextBatch()) {
    const { paths, recorded } = batch;
    const index = batches.push(paths) - 1;
    worker.postMessage({ batch: index, paths: paths.join(SEPARATOR), recorded }, [recorded.buffer]);
  }
  // Answers come in turns of the event loop after this one: none is missed.
  let pending = batches.length;
  const done = new Promise<void>((resolve) => {
    worker.on("message", ({ batch, places }: { batch: number; places: Int32Array }) => {
      const paths = batches[batch] ?? [];
      for (const place of places) moved.add(paths[place] as string);
      batches[batch] = [];
      if (--pending > 0) return;
      suspects = moved;
      void worker.terminate();
    });
    // A pass that fails settles nothing.
    worker.on("error", () => void worker.terminate());
    worker.on("exit", () => resolve());
  });
  return {
    unchanged: (path) => suspects !== null && !suspects.has(path) && signatures.has(path),
    done,
  };
}
