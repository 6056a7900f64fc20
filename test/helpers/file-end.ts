/*
 * What helpers clean up when each test file ends: the folders, servers and
 * processes a file started and did not stop. The setup file every test file
 * runs with (test/helpers/each-file.ts) calls them after the file's own
 * hooks. A helper's module is loaded once per test worker, not once per file
 * (vitest.config.ts: files share their modules), so a hook it registered
 * itself would run for the first file only.
 */

const cleanups: (() => unknown)[] = [];

/** Runs `cleanup` at the end of every test file from now on (each file's leftovers). */
export function atEachFileEnd(cleanup: () => unknown): void {
  cleanups.push(cleanup);
}

/** Every cleanup, in turn: the end of a test file. */
export async function endTestFile(): Promise<void> {
  for (const cleanup of cleanups) await cleanup();
}
