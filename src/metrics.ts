/**
 * Work done by this process, for the build's metrics file (`--metrics`),
 * `npm run bench` and the tests that count work instead of timing it
 * (docs/performance.md). A plain module every layer may import; it imports
 * nothing, so it never bends the data flow.
 */

const phases = new Map<string, number>();
const counters = new Map<string, number>();
/** Time spent in nested phases, per open phase: a phase is credited its own time only. */
const open: number[] = [];

/**
 * Adds the time `run` takes to phase `name`, minus the time of phases nested
 * in it (so phases add up to the whole). Phases may repeat and add up; they
 * must not run concurrently with each other.
 */
export function timed<T>(name: string, run: () => T): T {
  const started = begin();
  try {
    return run();
  } finally {
    end(name, started);
  }
}

export async function timedAsync<T>(name: string, run: () => Promise<T>): Promise<T> {
  const started = begin();
  try {
    return await run();
  } finally {
    end(name, started);
  }
}

function begin(): number {
  open.push(0);
  return performance.now();
}

function end(name: string, started: number): void {
  const total = performance.now() - started;
  const nested = open.pop() ?? 0;
  phases.set(name, (phases.get(name) ?? 0) + total - nested);
  if (open.length > 0) open[open.length - 1] = (open.at(-1) ?? 0) + total;
}

/** Counts one unit of work (a parse, a render, a request...). */
export function count(name: string, by = 1): void {
  counters.set(name, (counters.get(name) ?? 0) + by);
}

/** Keeps the largest value seen (a peak, such as memory), with the counters. */
export function peak(name: string, value: number): void {
  counters.set(name, Math.max(counters.get(name) ?? value, value));
}

export interface Metrics {
  /** Milliseconds per phase. */
  readonly phases: Readonly<Record<string, number>>;
  readonly counters: Readonly<Record<string, number>>;
}

export function readMetrics(): Metrics {
  return {
    phases: Object.fromEntries([...phases].map(([name, ms]) => [name, Math.round(ms * 10) / 10])),
    counters: Object.fromEntries(counters),
  };
}
