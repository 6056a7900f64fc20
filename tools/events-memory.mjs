// What the normalized events of a build's cache hold in the heap (docs/performance.md,
// What changed, item 66): as read back from the file, then with the parts events
// have in common held once (src/snapshot/shared-values.ts), and how long that pass
// takes. The cache folder is the build's EVENT_API_CACHE_DIR (`.cache` by default):
//
//   node --expose-gc --import tsx tools/events-memory.mjs .cache
import { join } from "node:path";
import { KeptMap } from "../src/model/kept-map.ts";
import { SharedValues } from "../src/snapshot/shared-values.ts";

const [folder] = process.argv.slice(2);
if (!folder || !globalThis.gc) {
  console.error("usage: node --expose-gc --import tsx tools/events-memory.mjs <cache folder>");
  process.exit(2);
}
const heapMB = () => {
  globalThis.gc();
  return process.memoryUsage().heapUsed / 1048576;
};
const empty = heapMB();
// Held to the end, so that each figure counts them.
const entries = KeptMap.keptByAnyCode(
  join(folder, "normalized-events.json"),
  (value) => typeof value === "object" && value !== null,
);
const read = heapMB();
const ms = shareParts(entries.values());
const after = heapMB();
console.log(
  `${entries.size} events: ${(read - empty).toFixed(1)} MB of heap as read, ` +
    `${(after - empty).toFixed(1)} MB with their common parts held once (${ms.toFixed(0)} ms)`,
);

/** The pass's time; its maps go with it, as they go with a build's read of the portal. */
function shareParts(entries) {
  const shared = new SharedValues();
  const started = performance.now();
  for (const entry of entries) if (entry.ok) shared.shareParts(entry.value);
  return performance.now() - started;
}
