import { appendFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { expect } from "vitest";

/**
 * Where the test files note the builds they run, for the timing table
 * (test/helpers/timing-reporter.ts sets it; unset, nothing is noted).
 */
export const BUILD_LOG_VARIABLE = "ECP_TEST_BUILD_LOG";

export type BuildKind = "cli" | "fixture";

const ROOT = resolve(import.meta.dirname, "../..");

/** Where a build runs outside a test file: the global set-up, or a process a test started. */
export const OUTSIDE_TEST_FILES = "(global set-up, child processes)";

/**
 * Notes one build (`npm run build`'s entry point, or a fixture site built in
 * the test's own process) against the test file that runs it.
 */
export function noteBuild(kind: BuildKind): void {
  const dir = process.env[BUILD_LOG_VARIABLE];
  if (!dir) return;
  let file = OUTSIDE_TEST_FILES;
  try {
    const path = expect.getState().testPath;
    if (path) file = relative(ROOT, path).split("\\").join("/");
  } catch {
    // Outside a test file: no test state to ask.
  }
  appendFileSync(join(dir, `${process.pid}.log`), `${JSON.stringify({ file, kind })}\n`);
}
