import { type ChildProcess, type ForkOptions, fork, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";

const LAUNCHER = fileURLToPath(new URL("./launch.mjs", import.meta.url));

/**
 * One of the project's TypeScript modules run in a child process, started
 * as the npm scripts start a command (src/launch.mjs), whatever started this
 * process: a test runner's workers, for one, do not pass their loaders on.
 * The child sees `process.argv` as [node, entry, ...args]. `via`: a
 * command that runs Node in its place (`chrt --idle 0`), with the same
 * channel to this process.
 */
export function forkEntry(
  entry: URL,
  args: readonly string[],
  options: Omit<ForkOptions, "execArgv">,
  via: readonly string[] = [],
): ChildProcess {
  const [command, ...before] = via;
  if (command === undefined) {
    return fork(LAUNCHER, [fileURLToPath(entry), ...args], { ...options, execArgv: [] });
  }
  // fork() runs Node itself; spawn() with an "ipc" slot gives the command the same channel, which Node finds after the exec.
  return spawn(command, [...before, process.execPath, LAUNCHER, fileURLToPath(entry), ...args], {
    ...options,
    stdio: options.stdio ?? ["inherit", "inherit", "inherit", "ipc"],
  });
}

/**
 * One of the project's TypeScript modules run on a thread of its own,
 * started through the same launcher (src/launch.mjs): its own bundle of the
 * code, whatever loaders this process runs with.
 */
export function threadEntry(entry: URL): Worker {
  return new Worker(LAUNCHER, { argv: [fileURLToPath(entry)] });
}
