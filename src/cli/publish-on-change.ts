import { DEFAULT_OUTPUT } from "../changes/state-location.ts";
import { API_SETTINGS } from "../config/api.ts";
import { readPortalOrSources } from "../config/build-config.ts";
import { readShrinkGuardConfig, SHRINK_GUARD_SETTINGS } from "../config/publish.ts";
import { readSiteConfig, SITE_SETTINGS } from "../config/site.ts";
import { SOURCES_SETTINGS } from "../config/sources.ts";
import { UsageError } from "../errors.ts";
import { BuildsAhead } from "../ready/builds-ahead.ts";
import { runCommand } from "../ready/child-command.ts";
import { runPublishLoop } from "../rebuild/publish-loop.ts";
import { rebuildIfChanged } from "../rebuild/rebuild-if-changed.ts";
import { defineCommand } from "./command-line.ts";
import { npmCommand } from "./npm-command.ts";
import { failureLine, runCli } from "./run.ts";

/**
 * `npm run publish-on-change [-- --every <seconds>] [--output <dir>] [--copy <command>]`:
 * the check of `npm run rebuild-if-changed` and `npm run build` in one
 * process that runs until it is stopped, for a server of one's own
 * (docs/deploy.md, "Publishing on change without cron"). Each build is
 * `npm run build` in a child process, so that its memory is the system's
 * again when it ends, started ahead to read what the last build kept while
 * the loop waits for a change (src/ready/builds-ahead.ts); the copy is
 * `--copy`'s command, run by `sh -c`.
 */
const PUBLISH_ON_CHANGE = defineCommand({
  run: "npm run publish-on-change",
  summary:
    "Checks the portal against the output folder every few seconds, as rebuild-if-changed does, and on a change runs npm run build into it and then --copy's command (the copy to the web server's folder); runs until SIGTERM or Ctrl-C, ending the step under way.",
  options: {
    every: {
      type: "string",
      value: "<seconds>",
      default: "20",
      meaning: "seconds between checks while nothing changes (1 to 86400)",
    },
    output: {
      type: "string",
      value: "<dir>",
      meaning: `the folder built into and checked against (default ${DEFAULT_OUTPUT})`,
    },
    copy: {
      type: "string",
      value: "<command>",
      meaning: "a shell command run after each build that succeeded, such as an rsync",
    },
    "fresh-builds": {
      type: "boolean",
      meaning:
        "start each build when a change is found, rather than ahead with the last build's kept files read (which holds their memory between changes)",
    },
  },
  settings: [...API_SETTINGS, ...SOURCES_SETTINGS, ...SITE_SETTINGS, ...SHRINK_GUARD_SETTINGS],
});

/** Far beyond a check's few seconds at 100,000 events (docs/performance.md, "Edit to live"). */
const CHECK_DEADLINE_MS = 300_000;

runCli(PUBLISH_ON_CHANGE, async ({ values }) => {
  const every = Number(values.every);
  if (!(every >= 1)) {
    throw new UsageError(
      `--every: expected a number of seconds, at least 1, got "${values.every}"`,
    );
  }
  // A longer timer overflows Node's and fires at once: a check every millisecond.
  if (every > 86_400) {
    throw new UsageError(`--every: expected at most 86400 seconds (a day), got "${values.every}"`);
  }
  const output = values.output ?? DEFAULT_OUTPUT;
  const config = readPortalOrSources(process.env);
  const site = readSiteConfig(process.env);
  // SITE_NOW pins the clock of every check, as it pins the build's; otherwise each check's own time.
  const pinnedNow = process.env.SITE_NOW?.trim() ? site.now.toMillis() : undefined;
  const shrinkGuard = readShrinkGuardConfig(process.env);
  const stop = new AbortController();
  // `on`, not `once`: npm passes the signal on, so a Ctrl-C or a service's stop comes twice,
  // and a second one without a handler would end the process before it stops its build.
  for (const name of ["SIGINT", "SIGTERM"] as const) process.on(name, () => stop.abort());
  const stamp = (line: string) => console.log(`${new Date().toISOString()} ${line}`);
  const builds = new BuildsAhead(npmCommand(["run", "-s", "build", "--", "--output", output]), {
    fresh: values["fresh-builds"] === true,
  });

  stamp(
    `publish-on-change: checking every ${every} s against ${output}${values.copy ? ", copying with --copy after each build" : ""}`,
  );
  await runPublishLoop({
    everyMs: every * 1000,
    signal: stop.signal,
    buildFirst: `building ${output} at start: the code or the settings may be new since its last build`,
    log: stamp,
    describe: (error) => (failureLine(error) ?? String(error)).replace(/^error: /, ""),
    check: () =>
      rebuildIfChanged({
        config,
        published: output,
        nowMs: pinnedNow ?? Date.now(),
        hookUrl: undefined,
        buildsItself: true,
        // A portal that stops answering is a check that cannot tell, not a loop that hangs.
        deadlineMs: CHECK_DEADLINE_MS,
        shrinkGuard,
      }),
    build: (signal) => builds.build(signal),
    ...(values.copy
      ? { publish: (signal: AbortSignal) => runCommand(["sh", "-c", values.copy ?? ""], signal) }
      : {}),
  });
  await builds.stop();
  stamp("publish-on-change: stopped");
  return 0;
});
