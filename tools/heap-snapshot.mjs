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
//   HEAP_SAMPLING_AT_WRITES=N[,M]    instead of a snapshot, V8's sampling heap profile of what
//                                    is live then (dir/Heap-<pid>-N.heapprofile, for Chrome
//                                    DevTools), and its allocation sites by live MB in
//                                    dir/Heap-<pid>-N.sites.txt: far cheaper than a snapshot
//   HEAP_SAMPLING_AT_STATS=N[,M]     the same at the N-th statSync: a build that keeps most files
//                                    as published stats each, and writes few
//   HEAP_SAMPLING_AT_SECONDS=S[,T]   the same once S seconds have passed (at the next turn of the
//                                    event loop): a build that writes its files on a thread of its
//                                    own (src/render/disk-writes.ts) and stats them on another
//
// Every 5,000 calls, and every second the event loop turns, it appends
// process.memoryUsage() to dir/memory-<pid>.log; a thread of its own adds the
// resident memory every half second, even while the build's thread is busy.
// v8.writeHeapSnapshot collects garbage first, as the signal does; writing a
// snapshot of a 2.5 GB heap needs 10 GB or more besides.
//
//   HEAP_SNAPSHOT_DIR=/tmp/heap HEAP_SNAPSHOT_AT_WRITES=500000 \
//     node --import tsx --import ./tools/heap-snapshot.mjs src/cli/build.ts --output /tmp/site
import fs from "node:fs";
import inspector from "node:inspector";
import { syncBuiltinESMExports } from "node:module";
import { join } from "node:path";
import v8 from "node:v8";
import { Worker } from "node:worker_threads";

const dir = process.env.HEAP_SNAPSHOT_DIR;
if (dir) {
  const started = performance.now();
  const trigger = join(dir, `snapshot-${process.pid}`);
  const atWrites = new Set(numbers("HEAP_SNAPSHOT_AT_WRITES"));
  const { writeFileSync, linkSync, readFileSync, statSync, existsSync, rmSync } = fs;
  fs.mkdirSync(dir, { recursive: true });
  const log = fs.openSync(join(dir, `memory-${process.pid}.log`), "a");
  let writes = 0;
  let reads = 0;
  let stats = 0;
  let taken = 0;
  const seconds = () => ((performance.now() - started) / 1000).toFixed(1);
  const logMemory = (note = "") => {
    const mb = (bytes) => Math.round(bytes / 1048576);
    const m = process.memoryUsage();
    fs.writeSync(
      log,
      `${seconds()} s writes=${writes} reads=${reads} rss=${mb(m.rss)} heapTotal=${mb(m.heapTotal)} heapUsed=${mb(m.heapUsed)} external=${mb(m.external)}${note}\n`,
    );
  };
  const samplingAt = new Set(numbers("HEAP_SAMPLING_AT_WRITES"));
  const samplingAtStats = new Set(numbers("HEAP_SAMPLING_AT_STATS"));
  const samplingAtSeconds = numbers("HEAP_SAMPLING_AT_SECONDS").sort((a, b) => a - b);
  const session =
    samplingAt.size + samplingAtStats.size + samplingAtSeconds.length > 0
      ? new inspector.Session()
      : null;
  session?.connect();
  session?.post("HeapProfiler.startSampling", { samplingInterval: 16384 });
  const sample = (at = writes) => {
    logMemory(` sampling at ${at}`);
    // An in-process session answers synchronously.
    session?.post("HeapProfiler.getSamplingProfile", (error, result) => {
      if (error) throw error;
      const base = join(dir, `Heap-${process.pid}-${at}`);
      fs.writeFileSync(`${base}.heapprofile`, JSON.stringify(result.profile));
      const spaces = v8
        .getHeapSpaceStatistics()
        .map(
          (space) =>
            `${space.space_name}: size ${Math.round(space.space_size / 1048576)} MB, used ${Math.round(space.space_used_size / 1048576)} MB`,
        )
        .join("\n");
      fs.writeFileSync(`${base}.sites.txt`, `${spaces}\n\n${liveSites(result.profile)}`);
      process.stderr.write(`[heap-snapshot] ${seconds()} s: sampling profile ${base}\n`);
    });
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
    else if (isWrite && samplingAt.has(writes)) sample();
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
  fs.statSync = function (...args) {
    stats++;
    if (samplingAtStats.has(stats)) sample(`stat-${stats}`);
    return statSync.apply(this, args);
  };
  fs.readFileSync = function (...args) {
    reads++;
    check(false);
    return readFileSync.apply(this, args);
  };
  syncBuiltinESMExports();
  // And every second while the event loop turns (publishing, waiting on the portal).
  setInterval(() => {
    logMemory(" timer");
    const elapsed = (performance.now() - started) / 1000;
    while (samplingAtSeconds.length > 0 && (samplingAtSeconds[0] ?? 0) <= elapsed) {
      sample(`${samplingAtSeconds.shift()}s`);
    }
  }, 1000).unref();
  // The resident memory every half second from a thread of its own, which
  // goes on while the main thread is in a long synchronous stretch (making
  // the site's data, hashing, removing the old site) and logs nothing.
  const sampler = new Worker(
    `const { appendFileSync } = require("node:fs");
     const { file, started } = require("node:worker_threads").workerData;
     setInterval(() => appendFileSync(file,
       ((Date.now() - started) / 1000).toFixed(1) + " s rss=" + Math.round(process.memoryUsage.rss() / 1048576) + " sampler\\n"), 500);`,
    {
      eval: true,
      workerData: {
        file: join(dir, `memory-${process.pid}.log`),
        started: Date.now() - performance.now() + started,
      },
    },
  );
  sampler.unref();
  process.on("exit", () => logMemory(" exit"));
}

/** The numbers of a comma-separated variable ("100000,200000"); what is not a number is left out. */
function numbers(name) {
  return (process.env[name] ?? "").split(",").map(Number).filter(Number.isFinite);
}

/** Live bytes by allocation site (function, file:line) and by its three callers, largest first. */
function liveSites(profile) {
  const bySite = new Map();
  const byStack = new Map();
  const name = (frame) =>
    `${frame.functionName || "(anonymous)"} ${frame.url.replace(/^.*node_modules\//, "")}:${frame.lineNumber + 1}`;
  const walk = (node, stack) => {
    const here = [...stack, name(node.callFrame)];
    const bytes = node.selfSize;
    if (bytes > 0) {
      const site = here.at(-1);
      bySite.set(site, (bySite.get(site) ?? 0) + bytes);
      const key = here.slice(-4).join(" > ");
      byStack.set(key, (byStack.get(key) ?? 0) + bytes);
    }
    for (const child of node.children) walk(child, here);
  };
  walk(profile.head, []);
  const top = (map) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 60)
      .map(([key, bytes]) => `${(bytes / 1048576).toFixed(1).padStart(8)} MB  ${key}`)
      .join("\n");
  return `by site\n${top(bySite)}\n\nby site and its callers (outermost first)\n${top(byStack)}\n`;
}
