// What reading a published file list costs (docs/performance.md, What
// changed, item 31): the time, the process's resident high-water mark, and
// the heap still in use once the garbage is collected, with the list held.
// With a second path, the list is only written there in this version's
// format, to be measured by a run of its own (the high-water mark is the
// process's):
//
//   node --expose-gc --import tsx tools/file-list-memory.mjs .cache/published/<key>/files.json
//   node --import tsx tools/file-list-memory.mjs .cache/published/<key>/files.json /tmp/copy.json
import { readFileSync } from "node:fs";
import { readFileList, writeFileList } from "../src/publish/output-files.ts";

const [source, copy] = process.argv.slice(2);
if (!source) {
  console.error(
    "usage: node --expose-gc --import tsx tools/file-list-memory.mjs <files.json> [copy.json]",
  );
  process.exit(2);
}
if (copy) {
  const list = readFileList(source);
  if (!list) {
    console.error(`${source} is not a readable file list`);
    process.exit(1);
  }
  writeFileList(copy, list.hashes, list.inputs, list.signatures);
  console.log(`${copy}: ${list.hashes.size} files written`);
  process.exit(0);
}
const path = source;
const mb = (bytes) => Math.round(bytes / 1048576);
const highWater = () =>
  Math.round(Number(readFileSync("/proc/self/status", "utf8").match(/VmHWM:\s+(\d+)/)?.[1]) / 1024);
const before = { rss: mb(process.memoryUsage().rss), highWater: highWater() };
const started = performance.now();
// Held until its size is printed, after the collection, so that the heap figure counts it.
const list = readFileList(path);
const ms = Math.round(performance.now() - started);
const read = { rss: mb(process.memoryUsage().rss), highWater: highWater() };
globalThis.gc?.();
console.log(
  `${path}: ${list?.hashes.size ?? "no list"} files read in ${ms} ms; resident ${before.rss} -> ${read.rss} MB, ` +
    `high-water ${read.highWater} MB (${before.highWater} before); heap in use after collecting: ` +
    `${mb(process.memoryUsage().heapUsed)} MB${globalThis.gc ? "" : " (run with --expose-gc)"}`,
);
