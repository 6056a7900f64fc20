import { readdirSync, readFileSync } from "node:fs";
import * as pagefind from "pagefind";
import { PublishError } from "../errors.ts";
import { procStat } from "../proc-stat.ts";
import type { SearchRecord } from "./search-records.ts";
import type { IndexFile } from "./stable-index.ts";

/**
 * One Pagefind index of some records, through Pagefind's Node API: its native
 * binary (`pagefind` and `@pagefind/<platform>` packages) runs as a child
 * process of this one, receives the records and hands the index's files back
 * in memory. Each call starts that process and ends it, so its memory is
 * that of one index (one part of the site's, search-parts.ts) and is given
 * back before the next.
 */

export interface PagefindOutput {
  /** Pagefind's files, as it names them (paths relative to the index's folder). */
  readonly files: readonly IndexFile[];
  /** The peak resident memory of Pagefind's process (VmHWM), in MB; null where /proc cannot tell. */
  readonly peakMB: number | null;
  /** The CPU time Pagefind's process took, every thread, in seconds; null where /proc cannot tell. */
  readonly cpuSeconds: number | null;
}

export async function runPagefind(
  records: readonly SearchRecord[],
  language: string,
): Promise<PagefindOutput> {
  try {
    const created = await pagefind.createIndex({ forceLanguage: language });
    if (!created.index) throw failure(created.errors);
    const index = created.index;
    // All of a part's records at once (at most RECORDS_PER_PART): each wait
    // for Pagefind's answers needs this thread, which Eleventy may hold for
    // seconds while it renders, so the fewer waits the better.
    const answers = await Promise.all(records.map((record) => index.addCustomRecord(record)));
    const errors = answers.flatMap((answer) => answer.errors);
    if (errors.length) throw failure(errors);
    // The files come back in memory and are written by the site's writer:
    // Pagefind's own writeFiles can answer before its last file is complete,
    // and closing its process then would leave that file cut short.
    const built = await index.getFiles();
    if (built.errors.length) throw failure(built.errors);
    return { files: built.files as readonly IndexFile[], ...pagefindFigures() };
  } finally {
    await pagefind.close();
  }
}

/**
 * The peak memory and CPU time of this process's Pagefind child, read from
 * Linux's /proc while it still runs: its high-water mark (VmHWM) and its
 * threads' user and system time (procStat). Pagefind's Node API does not
 * expose the child, so it is found by its parent and its name. Figures for
 * the build's metrics and the benchmark only; null elsewhere.
 */
function pagefindFigures(): { peakMB: number | null; cpuSeconds: number | null } {
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return { peakMB: null, cpuSeconds: null };
  }
  let peakMB: number | null = null;
  let cpuSeconds: number | null = null;
  for (const pid of entries) {
    if (!/^\d+$/.test(pid)) continue;
    const stat = procStat(Number(pid));
    if (stat?.parentPid !== process.pid || !stat.name.startsWith("pagefind")) continue;
    // The last part's process, ended but not yet waited for, is not this one.
    if (stat.state === "Z") continue;
    cpuSeconds = (cpuSeconds ?? 0) + stat.cpuSeconds;
    try {
      const kB = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
      if (kB) peakMB = Math.max(peakMB ?? 0, Math.round(Number(kB) / 1024));
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return { peakMB, cpuSeconds };
}

export function failure(errors: readonly string[]): PublishError {
  return new PublishError(`Pagefind could not build the search index: ${errors.join("; ")}`);
}
