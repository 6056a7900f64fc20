import { parentPort } from "node:worker_threads";
import type { NormalizeOptions } from "../model/normalize-calendar.ts";
import { normalizeEvent } from "../model/normalize-event.ts";
import type { Calendar } from "../model/types.ts";
import type { WireRecord } from "../model/wire.ts";

/**
 * The thread of src/snapshot/normalize-aside.ts: normalizeEvent for each
 * event it is sent, its answer sent back as it is (null when it threw:
 * the snapshot's own pass meets that again and reports it).
 */
export interface NormalizeJob {
  readonly id: number;
  readonly listed: WireRecord;
  readonly details: WireRecord | null;
  readonly calendar: Pick<Calendar, "id" | "timeZone">;
  readonly options: NormalizeOptions;
}

const port = parentPort;
if (!port) throw new Error("src/snapshot/normalize-worker.ts runs as a worker thread only.");
port.on("message", ({ id, listed, details, calendar, options }: NormalizeJob) => {
  let entry: ReturnType<typeof normalizeEvent> | null;
  try {
    entry = normalizeEvent(listed, details, calendar, options);
  } catch {
    entry = null;
  }
  port.postMessage({ id, entry });
});
