import { commandExit, type StartedCommand, startCommand } from "./child-command.ts";
import { GO, STARTED_UNDER_OTHER_CODE } from "./wait-for-go.ts";

/** How long a build that was not needed has to end once told so, before it is stopped. */
const END_LIMIT_MS = 10_000;

/**
 * The builds of `npm run publish-on-change`, each started ahead: when a
 * build ends, the next starts at once with `--ready`, reads what that build
 * kept (src/ready/read-ahead.ts) and waits; when the check finds a change
 * it is told to go, and the change's build starts with the reading done
 * (docs/performance.md, "A build started ahead"). It takes its clock, its
 * settings files and the portal's data when told to go; one that started
 * under other code or another .env says so and exits, and a build started
 * afresh runs instead. One that ended while waiting (it failed to start)
 * is replaced the same way. `fresh`: every build started when needed.
 */
export class BuildsAhead {
  readonly #command: readonly string[];
  readonly #fresh: boolean;
  #waiting: StartedCommand | null = null;

  /** `command`: `npm run build` with its options, without `--ready`. */
  constructor(command: readonly string[], { fresh = false } = {}) {
    this.#command = command;
    this.#fresh = fresh;
  }

  /** Runs a build: the one waiting, told to go, or one started now; its exit code. */
  async build(signal: AbortSignal): Promise<number> {
    const waiting = this.#waiting;
    this.#waiting = null;
    let code: number;
    if (waiting && waiting.child.exitCode === null && waiting.child.signalCode === null) {
      waiting.child.stdin?.end(`${GO}\n`);
      code = await commandExit(waiting, signal);
      if (code === STARTED_UNDER_OTHER_CODE && !signal.aborted) code = await this.#afresh(signal);
    } else {
      code = await this.#afresh(signal);
    }
    if (!signal.aborted && !this.#fresh) {
      this.#waiting = startCommand([...this.#command, "--ready"], { input: true });
    }
    return code;
  }

  /** Ends the build waiting, if any: told its input ended, it exits having done nothing. */
  async stop(): Promise<void> {
    const waiting = this.#waiting;
    this.#waiting = null;
    if (!waiting) return;
    waiting.child.stdin?.end();
    const limit = setTimeout(() => waiting.child.kill("SIGTERM"), END_LIMIT_MS);
    await waiting.exit;
    clearTimeout(limit);
  }

  #afresh(signal: AbortSignal): Promise<number> {
    return commandExit(startCommand(this.#command), signal);
  }
}
