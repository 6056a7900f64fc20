import { setTimeout as sleep } from "node:timers/promises";

/**
 * `npm run publish-on-change`: the check and the build of a server of one's
 * own in one long-running process, so that the wait for the next check is
 * seconds, not cron's minute. It builds once when it starts (the code or
 * the settings may be new since the last build, which no check of the
 * portal sees), then each round checks the portal against the output
 * folder; a change runs the build, then the copy to where the site
 * is served; right after a publication it checks again (an edit made while
 * it built waits for no interval), otherwise it waits `everyMs`. A build or
 * copy that fails is tried again after a wait that doubles each time, up to
 * `maxBackoffMs`, so that a broken portal is not asked for a build every few
 * seconds. Lines are said when something happens, not for each unchanged
 * check: a log of weeks stays short.
 */

export interface CheckOutcome {
  readonly changed: boolean;
  /** What the check said; its last line starts with "changed" or "unchanged". */
  readonly lines: readonly string[];
}

export interface PublishLoopOptions {
  /** The interval between checks while nothing changes (ms). */
  readonly everyMs: number;
  /** The change check against the output folder; throws with one line when it cannot tell. */
  readonly check: () => Promise<CheckOutcome>;
  /** The build into the output folder; its exit code. */
  readonly build: (signal: AbortSignal) => Promise<number>;
  /** The copy to where the site is served, after a build that succeeded; its exit code. */
  readonly publish?: (signal: AbortSignal) => Promise<number>;
  /** Stops the loop: the step under way is told, and no other starts. */
  readonly signal: AbortSignal;
  readonly log: (line: string) => void;
  /** The longest wait after failures (ms): 15 minutes. */
  readonly maxBackoffMs?: number;
  /** The one line for an error thrown by the check. */
  readonly describe: (error: unknown) => string;
  /** Builds before the first check (what the first round "finds"), for a start with new code or settings. */
  readonly buildFirst?: string;
  /** Ends after this many rounds, each a check or a build (a test's bound); unbounded by default. */
  readonly maxRounds?: number;
}

export interface PublishLoopSummary {
  readonly checks: number;
  readonly builds: number;
  readonly failedBuilds: number;
  readonly publications: number;
}

const FIFTEEN_MINUTES = 15 * 60_000;

export async function runPublishLoop(options: PublishLoopOptions): Promise<PublishLoopSummary> {
  const { signal, log } = options;
  const maxBackoffMs = options.maxBackoffMs ?? FIFTEEN_MINUTES;
  let checks = 0;
  let builds = 0;
  let failedBuilds = 0;
  let publications = 0;
  // Failures in a row, for the wait before the next attempt.
  let failures = 0;
  // A build whose copy failed: the output holds the change, so the check would not see it again.
  let copyOwed = false;
  // The build at start, until one succeeds.
  let buildOwed = options.buildFirst;
  const check = () => {
    checks++;
    return options.check();
  };
  // The last quiet outcome said ("unchanged: ..." or an error), so that it is said once.
  let lastSaid = "";
  const wait = (ms: number) => sleep(ms, undefined, { signal }).catch(() => undefined);
  const backoff = () => Math.min(options.everyMs * 2 ** failures, maxBackoffMs);
  const sayOnce = (line: string) => {
    if (line !== lastSaid) log(line);
    lastSaid = line;
  };
  // The copy of the last build to where the site is served: false when it failed (said and
  // waited for, and owed until it succeeds) or the loop was stopped.
  const copied = async (): Promise<boolean> => {
    const code = options.publish ? await options.publish(signal) : 0;
    if (signal.aborted) return false;
    copyOwed = code !== 0;
    if (!copyOwed) return true;
    failures++;
    log(`the copy failed (exit ${code}); trying it again in ${seconds(backoff())}`);
    await wait(backoff());
    return false;
  };
  const published = (line: string) => {
    failures = 0;
    publications++;
    log(line);
  };

  for (let round = 0; !signal.aborted && round < (options.maxRounds ?? Infinity); round++) {
    if (copyOwed) {
      if (!(await copied())) continue;
      published("published: the copy of the last build succeeded");
    }

    let outcome: CheckOutcome;
    try {
      outcome = buildOwed ? { changed: true, lines: [buildOwed] } : await check();
    } catch (error) {
      if (signal.aborted) break;
      sayOnce(`error: ${options.describe(error)}; checking again in ${seconds(options.everyMs)}`);
      await wait(options.everyMs);
      continue;
    }
    if (!outcome.changed) {
      sayOnce(outcome.lines.at(-1) ?? "unchanged");
      await wait(options.everyMs);
      continue;
    }

    lastSaid = "";
    for (const line of outcome.lines) log(line);
    const started = performance.now();
    builds++;
    const code = await options.build(signal);
    if (signal.aborted) break;
    if (code !== 0) {
      failedBuilds++;
      failures++;
      log(
        `the build failed (exit ${code}); the site stays as it was; trying again in ${seconds(backoff())}`,
      );
      await wait(backoff());
      continue;
    }
    buildOwed = undefined;
    if (!(await copied())) continue;
    published(
      `published in ${((performance.now() - started) / 1000).toFixed(1)} s; checking again now`,
    );
  }
  return { checks, builds, failedBuilds, publications };
}

function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(1))} s`;
}
