import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { MessageChannel, receiveMessageOnPort, Worker } from "node:worker_threads";
import { count } from "../metrics.ts";

/**
 * What a file is made of: a text, bytes, or a text in pieces, encoded one
 * after the other, so that a large file need not be made one text first
 * (feeds and calendars: feedFile in src/outputs/feeds.ts, calendarFile in
 * src/outputs/ics.ts; docs/performance.md, What changed, item 69).
 */
export type FileContent = string | Uint8Array | readonly string[];

/** A text, whole or in pieces (not bytes): told apart as a list, which holds in any realm. */
function asPieces(content: FileContent): readonly string[] | null {
  if (typeof content === "string") return [content];
  return Array.isArray(content) ? (content as readonly string[]) : null;
}

/**
 * Where the file writer's bytes go to disk (src/render/file-writer.ts): its
 * folder made once, then the file written. The writer decides what is
 * written and hashes it; this only encodes and puts the bytes in place.
 */
export interface DiskWrites {
  /**
   * The content's bytes, encoded where they would be written from: valid
   * until the next call. The writer hashes them, then writes them or not.
   */
  bytesOf(content: FileContent): Uint8Array;
  /** Puts the bytes `bytesOf` last gave at `target` (an absolute path), making its folder if need be. */
  write(target: string): void;
  /** Settles once every file given is on disk; rejects with the first that could not be written. */
  finish(): Promise<void>;
  /**
   * Writes nothing more: a failed build calls it before it removes its
   * staging folder, which a file written after would otherwise put back.
   */
  abandon(): Promise<void>;
}

/** Folders writeFiles remembers having made, at most. */
export const REMEMBERED_FOLDERS = 4096;

/** What writeFiles needs of Node, handed in: it also runs as source on the writing thread. */
export interface FileOps {
  readonly mkdirSync: typeof mkdirSync;
  readonly writeFileSync: typeof writeFileSync;
  readonly dirname: typeof dirname;
}

/**
 * Writes files in order, file `i` being `bytes` from the end of the one
 * before to `ends[i]`, each folder made before its first file (`folders`:
 * the folders made lately). The one loop of both ways: writeNow calls it,
 * the writing thread runs its source (so it names nothing outside its
 * parameters).
 *
 * The folders are remembered up to `mostFolders` at a time, then
 * forgotten: a site's files come folder by folder, and a folder made again
 * is one mkdir that finds it there. Remembering every folder held 40 MB on
 * the writing thread of a cold 100,000-event build, at its peak
 * (docs/performance.md, What changed, item 79).
 */
export function writeFiles(
  fs: FileOps,
  folders: Set<string>,
  mostFolders: number,
  targets: readonly string[],
  ends: ArrayLike<number>,
  bytes: Uint8Array,
): void {
  let start = 0;
  for (let i = 0; i < targets.length; i++) {
    const target = targets[i] as string;
    const folder = fs.dirname(target);
    if (!folders.has(folder)) {
      fs.mkdirSync(folder, { recursive: true });
      if (folders.size >= mostFolders) folders.clear();
      folders.add(folder);
    }
    const end = ends[i] as number;
    fs.writeFileSync(target, bytes.subarray(start, end));
    start = end;
  }
}

/** Each file written at once, on the caller's thread. */
export function writeNow(): DiskWrites {
  const fs: FileOps = { mkdirSync, writeFileSync, dirname };
  const folders = new Set<string>();
  let last: Uint8Array = new Uint8Array(0);
  return {
    bytesOf(content) {
      if (typeof content === "string") last = Buffer.from(content);
      else {
        const pieces = asPieces(content);
        last = pieces
          ? Buffer.concat(pieces.map((piece) => Buffer.from(piece)))
          : (content as Uint8Array);
      }
      return last;
    },
    write(target) {
      writeFiles(fs, folders, REMEMBERED_FOLDERS, [target], [last.byteLength], last);
    },
    finish: () => Promise.resolve(),
    abandon: () => Promise.resolve(),
  };
}

/** Bytes encoded into one batch before it is handed over: a few hundred small pages. */
const BATCH_BYTES = 1 << 20;
/** Files in one batch at most: the paths travel with it. */
const BATCH_FILES = 512;
/**
 * Bytes handed over and not yet written, at most: the build's thread waits
 * past this, so a slow disk costs time, never memory.
 */
const MOST_IN_FLIGHT = 8 << 20;

/** Shared counters: bytes in flight, and whether the thread stopped on a failure. */
const IN_FLIGHT = 0;
const FAILED = 1;

/**
 * Runs on the other thread: writes each batch's files in order, folders
 * made once, hands a batch's buffer of the usual size back to be filled
 * again (`spares`), then counts the batch's bytes as written; on the first
 * failure it says which file and stops.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const { mkdirSync, writeFileSync } = require("node:fs");
const { dirname } = require("node:path");
const writeFiles = ${writeFiles.toString()};
const shared = new Int32Array(workerData.shared);
const spares = workerData.spares;
const folders = new Set();
parentPort.on("message", ({ targets, ends, bytes }) => {
  const all = new Uint8Array(bytes);
  const size = all.byteLength;
  if (Atomics.load(shared, ${FAILED}) !== 0) return;
  try {
    writeFiles({ mkdirSync, writeFileSync, dirname }, folders, ${REMEMBERED_FOLDERS}, targets, ends, all);
  } catch (error) {
    Atomics.store(shared, ${FAILED}, 1);
    parentPort.postMessage({ failed: { message: error.message, code: error.code } });
  }
  // Back before the bytes are counted: a build's thread woken by the count finds it.
  if (size === ${BATCH_BYTES}) spares.postMessage(bytes, [bytes]);
  Atomics.sub(shared, ${IN_FLIGHT}, size);
  Atomics.notify(shared, ${IN_FLIGHT});
});
`;

/**
 * Each file handed to a thread of its own, which makes its folder and
 * writes it while the build's thread renders the next: in a cold build of
 * 10,000 events the writes and folders took 2.2 s of the build's thread
 * (docs/performance.md, What changed, item 52). Files are encoded straight
 * into batches of about a megabyte, each handed over whole; at most
 * MOST_IN_FLIGHT bytes wait at a time, and each buffer comes back to be
 * filled again. `finish` waits for the last; a file
 * that could not be written fails it with the direct write's message.
 */
export function writeAside(): DiskWrites {
  const shared = new Int32Array(new SharedArrayBuffer(8));
  // Batches' buffers come back on their own port, read without waiting for the event loop.
  const spares = new MessageChannel();
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { shared: shared.buffer, spares: spares.port2 },
    transferList: [spares.port2],
  });
  // A build that fails before `finish` does not wait for it.
  worker.unref();
  let failure: Error | null = null;
  worker.on("message", (message: { failed?: { message: string; code?: string } }) => {
    if (message.failed)
      failure ??= Object.assign(new Error(message.failed.message), message.failed);
  });
  worker.on("error", (error) => {
    failure ??= error;
    Atomics.store(shared, FAILED, 1);
  });
  // Stopped other than by finish or abandon: what waits for it fails rather than waits forever.
  let stopping = false;
  worker.on("exit", (code) => {
    if (stopping) return;
    failure ??= new Error(`The thread writing the site's files stopped (exit code ${code}).`);
    Atomics.store(shared, FAILED, 1);
  });

  /**
   * A buffer for the next batch: one the thread has written and handed back,
   * else a new one. A new buffer's pages are fresh from the system, and the
   * first write to each costs a page fault: encoding a megabyte of text
   * into a new buffer took 1.7 ms on the benchmark's machine, into one
   * filled before 0.56 ms (docs/performance.md, What changed, item 67).
   * With at most MOST_IN_FLIGHT bytes on the thread, 9 buffers serve a
   * whole build.
   */
  const bufferFor = (room: number): Buffer<ArrayBuffer> => {
    if (room <= BATCH_BYTES) {
      const spare = receiveMessageOnPort(spares.port1)?.message as ArrayBuffer | undefined;
      if (spare) return Buffer.from(spare);
    }
    count("write.batchBuffersMade");
    // A buffer of its own (not a slice of Node's pool), handed over whole.
    return Buffer.allocUnsafeSlow(Math.max(BATCH_BYTES, room));
  };
  let batch = bufferFor(0);
  let used = 0;
  let last = 0;
  let targets: string[] = [];
  let ends: number[] = [];

  const handOver = (room: number) => {
    if (targets.length > 0) {
      // Waits while too much is unwritten (a batch larger than the bound goes alone), unless the thread stopped.
      for (
        let waiting = Atomics.load(shared, IN_FLIGHT);
        waiting > 0 &&
        waiting + batch.byteLength > MOST_IN_FLIGHT &&
        Atomics.load(shared, FAILED) === 0;
        waiting = Atomics.load(shared, IN_FLIGHT)
      ) {
        Atomics.wait(shared, IN_FLIGHT, waiting, 100);
      }
      Atomics.add(shared, IN_FLIGHT, batch.byteLength);
      const bytes = batch.buffer;
      worker.postMessage({ targets, ends: Int32Array.from(ends), bytes }, [bytes]);
      targets = [];
      ends = [];
    }
    batch = bufferFor(room);
    used = 0;
  };

  return {
    bytesOf(content) {
      const pieces = asPieces(content);
      if (!pieces) {
        const bytes = content as Uint8Array;
        if (used + bytes.byteLength > batch.byteLength || targets.length === BATCH_FILES) {
          handOver(bytes.byteLength);
        }
        batch.set(bytes, used);
        last = bytes.byteLength;
      } else {
        let units = 0;
        for (const piece of pieces) units += piece.length;
        // UTF-8 takes at most three bytes for each UTF-16 unit.
        if (used + units * 3 > batch.byteLength || targets.length === BATCH_FILES) {
          let bytes = 0;
          for (const piece of pieces) bytes += Buffer.byteLength(piece);
          handOver(bytes);
        }
        last = 0;
        for (const piece of pieces) last += batch.write(piece, used + last);
      }
      return batch.subarray(used, used + last);
    },
    write(target) {
      used += last;
      last = 0;
      targets.push(target);
      ends.push(used);
    },
    async finish() {
      handOver(0);
      while (Atomics.load(shared, IN_FLIGHT) > 0 && Atomics.load(shared, FAILED) === 0) {
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      // The failure's message arrives after its flag: wait for it to be read.
      while (Atomics.load(shared, FAILED) !== 0 && !failure) {
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      stopping = true;
      await worker.terminate();
      spares.port1.close();
      if (failure) throw failure;
    },
    async abandon() {
      targets = [];
      ends = [];
      // Stops the thread between two files: none is written after.
      stopping = true;
      await worker.terminate();
      spares.port1.close();
    },
  };
}
