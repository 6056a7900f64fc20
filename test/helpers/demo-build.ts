import { type ChildProcessByStdio, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import type { Readable, Writable } from "node:stream";
import { npmCommand } from "../../src/cli/npm-command.ts";
import { withoutProjectSettings } from "../../src/config/every-setting.ts";
import { noteBuild } from "./build-log.ts";
import { NOW } from "./clock.ts";
import { DEMO_SITE_URL } from "./demo-expectations.ts";
import { entryCommand } from "./npm-script.ts";

// Defined with what a demo build must publish, which a unit test may read without building.
export { DEMO_SITE_URL };

const ROOT = resolve(import.meta.dirname, "../..");

/**
 * Families of the project's settings that a developer's shell must not leak
 * into a test run, besides every setting the project reads by name
 * (withoutProjectSettings).
 */
const PROJECT_VARIABLES =
  /^(EVENT_API_|EVENT_SOURCES_|SITE_|FEED_|CANCELLED_GRACE_DAYS|CHANGE_NOTICE_DAYS|ICS_MAX_BYTES|ALLOW_SHRINK|SHRINK_GUARD|PREVIOUS_MANIFEST_URL|REBUILD_|WEBSUB_|INCOMING_HOOK_BODY|BUILD_HOOK_URL|MAP_|COLLAPSE_SERIES|SHARE_CARDS|DIGEST_|SMTP_URL)/;

export interface CommandRun {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** stdout and stderr, one after the other. */
  readonly log: string;
}

export interface BuiltSite extends CommandRun {
  /** The output folder. */
  readonly dir: string;
}

/**
 * How long an entry point may run before it is stopped: far beyond what the
 * largest build of the tests takes on two busy cores, so that only a hang
 * ends one.
 */
const SCRIPT_TIME_LIMIT_MS = 600_000;

/**
 * Runs one of the project's entry points (`src/cli/build.ts`, `src/cli/check-api.ts`...)
 * in a child process as its npm script does (its variables and Node flags), with the test settings (pinned
 * clock, SITE_URL, no remote manifest lookup) under `env`. Asynchronous, so a
 * portal started by the test in this process keeps answering.
 */
export function runScript(
  script: string,
  args: readonly string[],
  env: Record<string, string | undefined> = {},
): Promise<CommandRun> {
  if (script === "src/cli/build.ts") noteBuild("cli");
  return new Promise((done, fail) => {
    const child = startScript(script, args, env);
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    child.on("error", fail);
    child.on("close", (status) => done({ status, stdout, stderr, log: `${stdout}${stderr}` }));
  });
}

/**
 * Starts one of the project's entry points as runScript does, for a test
 * that talks to it while it runs (a server, a loop that runs until stopped);
 * the test stops it.
 */
export function startScript(
  script: string,
  args: readonly string[],
  env: Record<string, string | undefined> = {},
): ChildProcessByStdio<null, Readable, Readable> {
  const command = entryCommand(script);
  return spawn(process.execPath, [...command.args, ...args], {
    cwd: ROOT,
    env: testEnv({ ...command.env, ...env }),
    stdio: ["ignore", "pipe", "pipe"],
    timeout: SCRIPT_TIME_LIMIT_MS,
  });
}

/**
 * Starts one of the project's entry points as startScript does, with a pipe
 * to its standard input (a build started ahead waits there for "go").
 */
export function startScriptWithInput(
  script: string,
  args: readonly string[],
  env: Record<string, string | undefined> = {},
): ChildProcessByStdio<Writable, Readable, Readable> {
  if (script === "src/cli/build.ts") noteBuild("cli");
  const command = entryCommand(script);
  return spawn(process.execPath, [...command.args, ...args], {
    cwd: ROOT,
    env: testEnv({ ...command.env, ...env }),
    stdio: ["pipe", "pipe", "pipe"],
    timeout: SCRIPT_TIME_LIMIT_MS,
  });
}

/**
 * Starts `npm run -s <name> -- <args>` itself, npm included, in a process
 * group of its own: what a terminal's Ctrl-C or a service manager's stop
 * reaches is the whole group (`process.kill(-child.pid, signal)`), npm
 * passing the signal on as well.
 */
export function startNpmScript(
  name: string,
  args: readonly string[],
  env: Record<string, string | undefined> = {},
): ChildProcessByStdio<null, Readable, Readable> {
  const [file, ...npmArgs] = npmCommand(["run", "-s", name, "--", ...args]);
  return spawn(file, npmArgs, {
    cwd: ROOT,
    env: testEnv(env),
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
    timeout: SCRIPT_TIME_LIMIT_MS,
  });
}

/** The test settings (pinned clock, SITE_URL, no remote manifest lookup) under `env`, nothing of the shell's. */
function testEnv(env: Record<string, string | undefined>): NodeJS.ProcessEnv {
  return {
    ...withoutProjectSettings(process.env, PROJECT_VARIABLES),
    SITE_NOW: NOW,
    SITE_URL: DEMO_SITE_URL,
    // Tests talk to loopback only: the shrink guard compares with local output.
    PREVIOUS_MANIFEST_URL: "none",
    ...env,
  };
}

/**
 * Runs `npm run build`'s entry point into `outputDir` (default: a new
 * temporary folder). Unless `env` names another EVENT_API_URL, the build uses
 * the bundled reference portal. The fetch cache goes next to the output folder unless
 * EVENT_API_CACHE_DIR is given.
 */
export async function buildSite(
  env: Record<string, string | undefined> = {},
  outputDir?: string,
): Promise<BuiltSite> {
  const dir = outputDir ?? join(mkdtempSync(join(tmpdir(), "ecp-build-")), "_site");
  const run = await runScript("src/cli/build.ts", ["--output", dir], {
    // SITE_URL names a (pretend) published site, so the demo is asked for by name.
    EVENT_API_URL: "demo",
    EVENT_API_CACHE_DIR: join(dirname(dir), ".cache"),
    ...env,
  });
  return { ...run, dir };
}

/** Removes a build made by buildSite() without an explicit output folder. */
export function removeBuild(site: BuiltSite): void {
  rmSync(resolve(site.dir, ".."), { recursive: true, force: true });
}
