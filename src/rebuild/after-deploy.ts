/*
 * What the steps after a deploy share (the WebSub ping, the IndexNow ping):
 * each reads the deployed build's own record of what changed, from its
 * output folder or its address, and reports in lines, as it goes and in its
 * result.
 */

export interface AfterDeployOptions {
  /** The deploy whose manifest says what changed: its output folder or its address. */
  readonly published: string;
  readonly fetch?: typeof globalThis.fetch;
  readonly timeoutMs?: number;
  readonly log?: (line: string) => void;
}

export interface AfterDeployResult {
  /** False when the step failed: its command exits 1. */
  readonly ok: boolean;
  /** What it did, a line each, as it logged them. */
  readonly lines: readonly string[];
}

/** A step's lines: each one kept for its result and logged as it comes. */
export function stepLines(log: ((line: string) => void) | undefined): {
  readonly lines: string[];
  readonly say: (line: string) => void;
} {
  const lines: string[] = [];
  return {
    lines,
    say: (line) => {
      lines.push(line);
      log?.(line);
    },
  };
}
