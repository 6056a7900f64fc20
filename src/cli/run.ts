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
        console.error(failureLine(error) ?? error);
        process.exitCode = 1;
      },
    );
}

/**
 * The one line an expected failure prints: the project's own errors, and a
 * template's own mistake (its syntax, an unknown filter or tag) as Nunjucks
 * words it with the file, line and column. Undefined for anything else,
 * which is a bug and prints its stack trace.
 */
export function failureLine(error: unknown): string | undefined {
  const expected = findPublisherError(error);
  if (expected) return `error: ${expected.message}`;
  const mistake = templateMistake(error);
  return mistake && `error: template ${mistake}`;
}

/**
 * Nunjucks names its errors "Template render error", with the place on the
 * first line ("(./templates/index.njk) [Line 1, Column 7]") and what is
 * wrong after it. A JavaScript error thrown while rendering (a filter's
 * bug) is wrapped the same way, with its class in the text
 * ("TypeError: ..."): that one is not the template's mistake.
 */
function templateMistake(error: unknown): string | undefined {
  for (const current of causes(error)) {
    if (!(current instanceof Error) || current.name !== "Template render error") continue;
    const [where = "", ...rest] = current.message.split("\n");
    const what = rest.join(" ").replace(/\s+/g, " ").trim();
    if (/^[A-Z]\w*Error: /.test(what)) return undefined;
    return `${where.trim().replace(/^\((.*)\)/, "$1")}: ${what}`;
  }
  return undefined;
}

/** An error and what it wraps: Eleventy's `originalError`, or `cause`. */
function* causes(error: unknown): Generator<unknown> {
  for (let current = error, depth = 0; current && depth < 10; depth++) {
    yield current;
    const next = current as { cause?: unknown; originalError?: unknown };
    current = next.originalError ?? next.cause;
  }
}

/** Eleventy wraps errors thrown in data files; look through the causes. */
function findPublisherError(error: unknown): PublisherError | undefined {
  for (const current of causes(error)) {
    if (current instanceof PublisherError) return current;
  }
  return undefined;
}
