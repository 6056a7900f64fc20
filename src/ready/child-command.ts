import { type ChildProcess, spawn } from "node:child_process";

/** A command started with this process's output; `input`: a pipe to its standard input, else none. */
export interface StartedCommand {
  readonly child: ChildProcess;
  /** Its exit code (1 if it could not start, or ended by a signal). */
  readonly exit: Promise<number>;
}

export function startCommand(
  [file = "", ...args]: readonly string[],
  { input = false } = {},
): StartedCommand {
  const child = spawn(file, args, { stdio: [input ? "pipe" : "ignore", "inherit", "inherit"] });
  // A pipe to a command that has ended fails its write; its exit says what happened.
  child.stdin?.on("error", () => {});
  const exit = new Promise<number>((done) => {
    // A command that cannot start ends with "error" and perhaps no "close"; a promise settles once.
    child.on("error", (error) => {
      console.error(`error: ${file} could not start: ${error.message}`);
      done(1);
    });
    child.on("close", (code) => done(code ?? 1));
  });
  return { child, exit };
}

/** Waits for a started command's exit; `signal` stops it (SIGTERM). */
export async function commandExit(started: StartedCommand, signal: AbortSignal): Promise<number> {
  const stop = () => started.child.kill("SIGTERM");
  if (signal.aborted) stop();
  signal.addEventListener("abort", stop, { once: true });
  try {
    return await started.exit;
  } finally {
    signal.removeEventListener("abort", stop);
  }
}

/** Runs a command with this process's output; its exit code (1 if it could not start). */
export function runCommand(argv: readonly string[], signal: AbortSignal): Promise<number> {
  return commandExit(startCommand(argv), signal);
}
