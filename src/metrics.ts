/**
 * Work done by this process, for the build's metrics file (`--metrics`),
 * `npm run bench` and the tests that count work instead of timing it
 * (docs/performance.md). A plain module every layer may import; it imports
 * nothing, so it never bends the data flow.
 */

const phases = new Map<string, number>();
const counters = new Map<string, number>();

/** Adds the time `run` takes to phase `name` (phases may repeat and add up). */
export function timed<T>(name: string, run: () => T): T {
  const started = performance.now();
  try {
    return run();
  } finally {
    addPhase(name, performance.now() - started);
  }
}

export async function timedAsync<T>(name: string, run: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await run();
  } finally {
    addPhase(name, performance.now() - started);
  }
}

export function addPhase(name: string, ms: number): void {
  phases.set(name, (phases.get(name) ?? 0) + ms);
}

/** Counts one unit of work (a parse, a render, a request...). */
export function count(name: string, by = 1): void {
  counters.set(name, (counters.get(name) ?? 0) + by);
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
