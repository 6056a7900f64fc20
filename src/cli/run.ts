import { loadEnvFile } from "../config/env-file.ts";
import { PublisherError } from "../errors.ts";

/**
 * Runs a command-line entry point, with the settings of a `.env` file in
 * the project root added to the environment. Expected failures (bad configuration, an
 * unreachable API, a refused publish) print one clear line and exit 1; only
 * bugs print a stack trace.
 */
export function runCli(main: () => Promise<unknown>): void {
  // Settings from .env first (the environment wins over it), then the command.
  Promise.resolve()
    .then(() => loadEnvFile())
    .then(main)
    .then(
      (code) => {
        process.exitCode = typeof code === "number" ? code : 0;
      },
      (error: unknown) => {
        const expected = findPublisherError(error);
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
