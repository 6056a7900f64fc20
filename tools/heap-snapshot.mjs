// Heap snapshots of a build at a chosen moment, for docs/performance.md
// ("Memory at 100,000 events"). A build spends its peak inside long loops
// that write files (the streamed pages, the file groups, the search index),
// which let the event loop turn only every 20 ms (src/render/event-loop-turns.ts),
// so `node --heapsnapshot-signal` acts, but at no chosen point. This
// preload counts the files written (writeFileSync, and linkSync for files
// kept from the last publish) and writes a snapshot at the N-th, or when a
// trigger file appears:
//
//   HEAP_SNAPSHOT_DIR=dir            snapshots and the memory log go here (required)
//   HEAP_SNAPSHOT_AT_WRITES=N[,M]    a snapshot at the N-th (M-th...) file written (writeFileSync or linkSync)
//   touch dir/snapshot-<pid>         a snapshot at the next check (every 100 calls)
//
// Every 5,000 calls, and every second the event loop turns, it appends
// process.memoryUsage() to dir/memory-<pid>.log.
// v8.writeHeapSnapshot collects garbage first, as the signal does; writing a
// snapshot of a 2.5 GB heap needs 10 GB or more besides.
//
//   HEAP_SNAPSHOT_DIR=/tmp/heap HEAP_SNAPSHOT_AT_WRITES=500000 \
//     node --import tsx --import ./tools/heap-snapshot.mjs src/cli/build.ts --output /tmp/site
import fs from "node:fs";
import { syncBuiltinESMExports } from "node:module";
import { join } from "node:path";
import v8 from "node:v8";

const dir = process.env.HEAP_SNAPSHOT_DIR;
if (dir) {
  const started = performance.now();
  const trigger = join(dir, `snapshot-${process.pid}`);
  const atWrites = new Set(
    (process.env.HEAP_SNAPSHOT_AT_WRITES ?? "").split(",").filter(Boolean).map(Number),
  );
  const { writeFileSync, linkSync, readFileSync, existsSync, rmSync } = fs;
  fs.mkdirSync(dir, { recursive: true });
  const log = fs.openSync(join(dir, `memory-${process.pid}.log`), "a");
  let writes = 0;
  let reads = 0;
  let taken = 0;
  const seconds = () => ((performance.now() - started) / 1000).toFixed(1);
  const logMemory = (note = "") => {
    const mb = (bytes) => Math.round(bytes / 1048576);
    const m = process.memoryUsage();
    fs.writeSync(
      log,
      `${seconds()} s writes=${writes} reads=${reads} rss=${mb(m.rss)} heapUsed=${mb(m.heapUsed)} external=${mb(m.external)}${note}\n`,
    );
  };
  const snapshot = (why) => {
    taken++;
    logMemory(` before snapshot ${taken}`);
    const file = join(dir, `Heap-${process.pid}-${taken}.heapsnapshot`);
    process.stderr.write(`[heap-snapshot] ${seconds()} s: ${why}, writing ${file}\n`);
    v8.writeHeapSnapshot(file);
    logMemory(` after snapshot ${taken}`);
  };
  const check = (isWrite) => {
    const calls = writes + reads;
    if (calls % 5000 === 0) logMemory();
    if (isWrite && atWrites.has(writes)) snapshot(`file written ${writes}`);
    else if (calls % 100 === 0 && existsSync(trigger)) {
      rmSync(trigger, { force: true });
      snapshot("trigger file");
    }
  };
  fs.writeFileSync = function (...args) {
    writes++;
    check(true);
    return writeFileSync.apply(this, args);
  };
  // A file kept from the last publish is linked, not written (src/render/published-copy.ts).
  fs.linkSync = function (...args) {
    writes++;
    check(true);
    return linkSync.apply(this, args);
  };
  fs.readFileSync = function (...args) {
    reads++;
    check(false);
    return readFileSync.apply(this, args);
  };
  syncBuiltinESMExports();
  // And every second while the event loop turns (publishing, waiting on the portal).
  setInterval(() => logMemory(" timer"), 1000).unref();
  process.on("exit", () => logMemory(" exit"));
}
