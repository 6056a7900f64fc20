import { readdirSync, readFileSync } from "node:fs";
import * as pagefind from "pagefind";
import { PublishError } from "../errors.ts";
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
    return { files: built.files as readonly IndexFile[], peakMB: pagefindPeakMB() };
  } finally {
    await pagefind.close();
  }
}

/**
 * The peak memory of this process's Pagefind child, read from Linux's /proc
 * while it still runs (its high-water mark: VmHWM). Pagefind's Node API does
 * not expose the child, so it is found by its parent and its name. Only a
 * figure for the build's metrics and the benchmark; null elsewhere.
 */
function pagefindPeakMB(): number | null {
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return null;
  }
  let peak: number | null = null;
  for (const pid of entries) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      // "pid (name) state ppid ...": the name may hold spaces, so read from its closing parenthesis.
      const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (parent !== process.pid || !name.startsWith("pagefind")) continue;
      const kB = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
      if (kB) peak = Math.max(peak ?? 0, Math.round(Number(kB) / 1024));
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return peak;
}

export function failure(errors: readonly string[]): PublishError {
  return new PublishError(`Pagefind could not build the search index: ${errors.join("; ")}`);
}
