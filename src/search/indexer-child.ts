import { bundleOf, partFiles } from "./index-layout.ts";
import type { IndexerAnswer, PartJob } from "./indexer-process.ts";
import { runPagefind } from "./pagefind-indexer.ts";
import { PartCache } from "./part-cache.ts";

/**
 * The search indexer's process (indexer-process.ts starts it): indexes the
 * parts it is sent one after the other, each with a Pagefind process of its
 * own, keeps each in the part cache and answers with its figures.
 */

if (!process.send)
  throw new Error("indexer-child.ts runs as a child process (src/search/indexer-process.ts).");
const send = process.send.bind(process);

let queue = Promise.resolve();

process.on("message", ({ id, job }: { id: number; job: PartJob }) => {
  // One part at a time: Pagefind's Node API holds one process for all its indexes.
  queue = queue.then(async () => {
    send(await indexPart(id, job));
  });
});
// The build is gone (or done): so is this.
process.on("disconnect", () => process.exit(0));

async function indexPart(id: number, job: PartJob): Promise<IndexerAnswer> {
  try {
    const started = performance.now();
    const output = await runPagefind(job.records, job.language);
    const ms = performance.now() - started;
    const files = partFiles(job.key, output.files);
    const kept = job.cache
      ? new PartCache(job.cache.dir, job.cache.settings).writePart(job.fingerprint, files)
      : false;
    const ownMB = Math.round(process.resourceUsage().maxRSS / 1024);
    return {
      id,
      ms,
      peakMB: output.peakMB === null ? null : output.peakMB + ownMB,
      files: kept ? null : files,
      bundle: job.bundle ? bundleOf(output.files) : null,
    };
  } catch (error) {
    return { id, error: error instanceof Error ? error.message : String(error) };
  }
}
