import { mkdirSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { TestProject } from "vitest/node";

/** A test run's folder in the scratch space: this prefix, then the process id of the run. */
const PREFIX = "ecp-tests-";

/**
 * The folder of the test run of process `pid` (vitest's own) in `scratch`:
 * the TMPDIR of its tests (vitest.config.ts), so that every temporary
 * folder they make goes in it, theirs and those of what they start.
 */
export function runFolder(scratch: string, pid = process.pid): string {
  return join(scratch, `${PREFIX}${pid}`);
}

/**
 * The global set-up of every project: makes the run's folder, and removes
 * it once every test file has run, with whatever was left in it. A worker
 * ends without its exit handlers, so the browser it shares between its
 * files (helpers/browser.ts) is stopped without the goodbye in which
 * Playwright removes the browser's profile: each run left a few of those
 * (5 MB each) in /dev/shm, which is memory, until the machine restarted.
 * The folders of runs whose process is gone (stopped before their end) go
 * too. Each project calls this; the first teardown removes the folder, the
 * others find it gone.
 */
export function setup(project: TestProject): () => void {
  const folder = project.config.env.TMPDIR;
  if (typeof folder !== "string" || !folder.includes(PREFIX)) return () => {};
  removeAbandoned(join(folder, ".."));
  mkdirSync(folder, { recursive: true });
  return () => rmSync(folder, { recursive: true, force: true });
}

/** Removes the run folders in `scratch` of processes that are no longer running. */
function removeAbandoned(scratch: string): void {
  let names: string[] = [];
  try {
    names = readdirSync(scratch);
  } catch {
    return;
  }
  for (const name of names) {
    const digits = name.slice(PREFIX.length);
    const pid = name.startsWith(PREFIX) && /^\d+$/.test(digits) ? Number(digits) : 0;
    if (!Number.isSafeInteger(pid) || pid <= 0 || running(pid)) continue;
    try {
      rmSync(join(scratch, name), { recursive: true, force: true });
    } catch {
      // Another user's: theirs to remove.
    }
  }
}

function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
