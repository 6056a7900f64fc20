import { type MessagePort, parentPort, workerData } from "node:worker_threads";
import { readMetrics } from "../metrics.ts";
import { FileWriter } from "../render/file-writer.ts";
import { PageTemplate } from "../render/page-template.ts";
import { claimAndRender } from "../render/streamed-job.ts";
import { loadEleventySetup } from "./config-recorder.ts";
import {
  NOT_STARTED,
  RENDERING,
  type WorkerInit,
  type WorkerReply,
  type WorkerStart,
} from "./render-pool.ts";
import { streamedRegistry } from "./streamed-outputs-plugin.ts";

/**
 * A render thread: builds the site's Nunjucks environment from its Eleventy
 * configuration, waits for the build's data, then claims ranges of the
 * streamed files until none are left (render-pool.ts).
 */

const init = workerData as WorkerInit;
if (!parentPort) throw new Error("render-worker.ts runs as a worker thread");
const port: MessagePort = parentPort;
const reply = (message: WorkerReply) => port.postMessage(message);

async function main(): Promise<void> {
  // The job was posted right after the thread started; it waits in the port meanwhile.
  const started = new Promise<WorkerStart>((done) => port.once("message", done));
  const { engine, config, unsupported } = await loadEleventySetup(init.configPath, init.root);
  if (unsupported.length > 0) return reply({ type: "declined", reason: unsupported.join(", ") });
  // The streamed outputs the configuration's plugins registered on the stand-in.
  const registry = streamedRegistry(config);
  const start = await started;
  const templates = start.sources.map((source) => new PageTemplate(source, engine));
  const data = { ...start.data };
  for (const [name, load] of registry.workerGlobals) data[name] = load();
  const job = registry.createJob(templates, data);
  if (job.shape !== start.shape) {
    throw new Error(
      `the worker sees other streamed outputs (${job.shape}) than the build (${start.shape})`,
    );
  }
  const state = new Int32Array(init.state);
  // The main thread may have finished everything while this one was setting up.
  if (Atomics.compareExchange(state, 1 + init.index, NOT_STARTED, RENDERING) !== NOT_STARTED) {
    return;
  }
  const writer = new FileWriter(start.outputDir);
  claimAndRender(job, writer, state);
  reply({ type: "done", paths: [...writer.paths], bytes: writer.bytes, metrics: readMetrics() });
}

main().catch((error: unknown) => {
  const failure = error instanceof Error ? error : new Error(String(error));
  reply({ type: "failed", message: failure.message, stack: failure.stack ?? "" });
});
