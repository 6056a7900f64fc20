import { readFileSync } from "node:fs";

/**
 * What Linux's /proc/<pid>/stat says of a process, for figures only (the
 * build's metrics, the benchmark): its name, state, parent and CPU time.
 * CPU times there are in ticks of USER_HZ, 100 a second on every
 * architecture Node ships for. Null where /proc cannot be read (not Linux,
 * the process gone, or not ours to read).
 */
export interface ProcStat {
  readonly name: string;
  /** "R" running, "S" sleeping, "Z" ended and not yet waited for... */
  readonly state: string;
  readonly parentPid: number;
  /** Its own threads, user and system (utime and stime). */
  readonly cpuSeconds: number;
  /** Its children that have ended and been waited for, each with theirs (cutime and cstime). */
  readonly waitedChildrenCpuSeconds: number;
}

const TICKS_PER_SECOND = 100;

export function procStat(pid: number | "self"): ProcStat | null {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return null;
  }
  // "pid (name) state ppid ...": the name may hold spaces and parentheses,
  // so the fields are read from its last closing parenthesis, the state first.
  const close = stat.lastIndexOf(")");
  const fields = stat.slice(close + 2).split(" ");
  const number = (index: number) => Number(fields[index]);
  const figures = {
    parentPid: number(1),
    cpuSeconds: (number(11) + number(12)) / TICKS_PER_SECOND,
    waitedChildrenCpuSeconds: (number(13) + number(14)) / TICKS_PER_SECOND,
  };
  if (!Object.values(figures).every(Number.isFinite)) return null;
  return { name: stat.slice(stat.indexOf("(") + 1, close), state: fields[0] ?? "", ...figures };
}
