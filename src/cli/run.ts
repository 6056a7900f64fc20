import { ENV_FILE_SETTINGS, loadEnvFile } from "../config/env-file.ts";
import { PublisherError, UsageError } from "../errors.ts";
import {
  type Command,
  type CommandLine,
  type OptionSpecs,
  readCommandLine,
  usageErrorLine,
} from "./command-line.ts";

/**
 * Runs a command-line entry point: its command line read first (`--help`
 * and a command line it cannot run end here, src/cli/command-line.ts), then
 * the settings of a `.env` file in the project root added to the
 * environment, then the command. Expected failures (bad configuration, an
 * unreachable API, a refused publish) print one clear line and exit 1, a
 * usage error found by the command exits 2; only bugs print a stack trace.
 */
export function runCli<O extends OptionSpecs>(
  command: Command<O>,
  main: (line: CommandLine<O>) => Promise<unknown>,
  args: readonly string[] = process.argv.slice(2),
): void {
  // The .env file is read here, so every command run through here names ENV_FILE.
  const line = readCommandLine(
    { ...command, settings: [...command.settings, ...ENV_FILE_SETTINGS] },
    args,
  );
  // Settings from .env first (the environment wins over it), then the command.
  Promise.resolve()
    .then(() => loadEnvFile())
    .then(() => main(line))
    .then(
      (code) => {
        process.exitCode = typeof code === "number" ? code : 0;
      },
      (error: unknown) => {
        const expected = findPublisherError(error);
        if (expected instanceof UsageError) {
          console.error(usageErrorLine(command, expected.message));
          process.exitCode = 2;
          return;
        }
        console.error(expected ? `error: ${expected.message}` : error);
        process.exitCode = 1;
      },
    );
}

/** Eleventy wraps errors thrown in data files; look through the causes. */
function findPublisherError(error: unknown): PublisherError | undefined {
  for (let current = error, depth = 0; current && depth < 10; depth++) {
    if (current instanceof PublisherError) return current;
    const next = current as { cause?: unknown; originalError?: unknown };
    current = next.originalError ?? next.cause;
  }
  return undefined;
}
