import v8 from "node:v8";
import { loadSiteData } from "./src/site/load.ts";
const mb = (n: number) => (n / 1e6).toFixed(0);
global.gc?.(); const before = process.memoryUsage().heapUsed;
const data = await loadSiteData();
global.gc?.(); const after = process.memoryUsage();
console.log("events", data.events.length, "heap MB", mb(after.heapUsed - before), "rss", mb(after.rss), "peak rss", (process.resourceUsage().maxRSS / 1024).toFixed(0));
if (process.env.SNAP) v8.writeHeapSnapshot(process.env.SNAP);
