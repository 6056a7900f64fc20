import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { paths } from "../../src/model/url-scheme.ts";
import { type RunningPortal, startPortal } from "../../src/portal/index.ts";
import { noteBuild } from "../helpers/build-log.ts";
import { NOW, NOW_MS } from "../helpers/clock.ts";
import { runScript, startNpmScript, startScript } from "../helpers/demo-build.ts";
import { demoPart, startingBetween } from "../helpers/demo-parts.ts";
import { buildApiEnv } from "../helpers/portal-env.ts";
import { waitUntil } from "../helpers/wait.ts";

/**
 * `npm run publish-on-change` as a server of one's own runs it: one process,
 * a real portal over HTTP, real builds into the output folder and a real
 * copy to the served folder. What it promises: it builds once at start, an
 * edit in the portal reaches the served folder by itself, with one build for
 * it, and SIGTERM ends it with exit 0.
 */

/** The demo's events of March: every calendar, at a fraction of the build's time. */
const PORTAL = demoPart(startingBetween("2026-03-01", "2026-04-01"));

let root: string;
let portal: RunningPortal;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "ecp-publish-on-change-"));
  portal = await startPortal({ port: 0, now: NOW, dataset: PORTAL });
});

interface RunningLoop {
  /** What it printed so far, stdout and stderr. */
  readonly log: () => string;
  /** Why a wait can end now: it exited. */
  readonly failed: () => string | null;
  /** Stops it (SIGTERM; started through npm, Ctrl-C's SIGINT to its group); its exit code. */
  readonly stop: () => Promise<number | null>;
}

/**
 * `npm run publish-on-change` with `args`, as a server runs it, until the
 * test stops it: its entry point as the script starts it, or with `npm`
 * the npm script itself, npm included.
 */
function startLoop(
  args: readonly string[],
  env: Record<string, string>,
  { npm = false } = {},
): RunningLoop {
  const child = npm
    ? startNpmScript("publish-on-change", args, env)
    : startScript("src/cli/publish-on-change.ts", args, env);
  let log = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    log += chunk;
  });
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    log += chunk;
  });
  let exit: number | null | undefined;
  child.on("close", (code) => {
    exit = code;
  });
  return {
    log: () => log,
    failed: () => (exit === undefined ? null : `it exited (${exit}):\n${log}`),
    stop: async () => {
      if (npm && child.pid) process.kill(-child.pid, "SIGINT");
      else child.kill("SIGTERM");
      await waitUntil("it stopped", () => exit !== undefined, { limitMs: 60_000 });
      return exit ?? null;
    },
  };
}

afterAll(async () => {
  await portal.close();
  rmSync(root, { recursive: true, force: true });
});

describe("npm run publish-on-change", () => {
  it("should build at start, publish an edit made in the portal by itself with one build, and stop on SIGTERM", async () => {
    const site = join(root, "_site");
    const served = join(root, "www");
    mkdirSync(served);
    const loop = startLoop(
      ["--every", "1", "--output", site, "--copy", `cp -R '${site}/.' '${served}/'`],
      // The loop and what it publishes, not the pictures links share as.
      buildApiEnv(portal, root, { SHARE_CARDS: "off" }),
    );
    // Its two builds (at start, and for the edit), each an `npm run build`.
    noteBuild("cli");
    noteBuild("cli");
    const { failed } = loop;
    const published = () =>
      loop.log().match(/ published in [\d.]+ s; checking again now/g)?.length ?? 0;
    let exit: number | null;
    try {
      await waitUntil("the build at start published", () => published() === 1, { failed });
      await waitUntil(
        "a check that finds nothing to do",
        () =>
          loop.log().includes("unchanged: the portal shows what the published site was built from"),
        { failed },
      );
      expect(existsSync(join(served, "index.html")), loop.log()).toBe(true);

      const event = PORTAL.events.find(
        (e) => e.calendarId === "sport" && Date.parse(e.start) > NOW_MS,
      );
      if (!event) throw new Error("The demo has no coming sport event in March.");
      portal.updateEvent("sport", event.id, { title: "Run club, published on its own" });
      const page = join(served, paths.event("sport", event.id), "index.html");
      await waitUntil(
        "the edit on the served page",
        () => existsSync(page) && readFileSync(page, "utf8").includes("published on its own"),
        { failed },
      );
      await waitUntil("the publication said", () => published() === 2, { failed });
    } finally {
      exit = await loop.stop();
    }

    const log = loop.log();
    expect(exit, log).toBe(0);
    expect(log).toContain("changed: 1 event updated in 1 calendar; building\n");
    expect(log.trim().split("\n").at(-1)).toMatch(/ publish-on-change: stopped$/);
    // One build for the edit: every check after it found nothing more.
    expect(published(), log).toBe(2);
    expect(log).not.toContain("failed");
    expect(log).not.toContain(portal.token);
  });

  it("should keep running when a build fails, with the site left as it was, the reason said and the token never printed", async () => {
    const site = join(root, "refused", "_site");
    const rejected = "ecp_not-a-token-this-portal-issued_0123456789";
    noteBuild("cli");
    const loop = startLoop(
      ["--every", "1", "--output", site],
      buildApiEnv(portal, join(root, "refused"), {
        EVENT_API_TOKEN: rejected,
        SHARE_CARDS: "off",
      }),
    );
    let exit: number | null;
    try {
      await waitUntil(
        "the failed build said",
        () => loop.log().includes("the build failed (exit 1); the site stays as it was"),
        { failed: loop.failed },
      );
    } finally {
      exit = await loop.stop();
    }

    const log = loop.log();
    expect(exit, log).toBe(0);
    // The build's own line says why (the token), and nothing was published.
    expect(log).toMatch(/^error: .*token/im);
    expect(log).not.toContain(" published in ");
    expect(existsSync(join(site, "index.html"))).toBe(false);
    expect(log).not.toContain(rejected);
  });

  it("should stop the build under way on Ctrl-C through npm, which passes the signal on a second time, and leave no output behind", async () => {
    const folder = join(root, "stopped");
    noteBuild("cli");
    const loop = startLoop(
      ["--every", "1", "--output", join(folder, "_site")],
      buildApiEnv(portal, folder, { SHARE_CARDS: "off" }),
      { npm: true },
    );
    let exit: number | null;
    try {
      await waitUntil("the build at start begun", () => loop.log().includes("Portal: "), {
        failed: loop.failed,
      });
    } finally {
      exit = await loop.stop();
    }

    const log = loop.log();
    expect(exit, log).toBe(0);
    expect(log.trim().split("\n").at(-1)).toMatch(/ publish-on-change: stopped$/);
    expect(log).not.toContain(" published in ");
    // The build's staging folder went with it; nothing was published.
    expect(readdirSync(folder).filter((name) => name.startsWith("_site"))).toEqual([]);
  });

  it("should refuse an interval under a second with one line, exit 2, before reading any setting", async () => {
    const run = await runScript("src/cli/publish-on-change.ts", ["--every", "0.5"]);

    expect(run.status, run.log).toBe(2);
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(run.stderr).toContain('--every: expected a number of seconds, at least 1, got "0.5"');
  });

  it("should refuse an interval longer than a day with one line, exit 2, since a longer timer would fire at once", async () => {
    const run = await runScript("src/cli/publish-on-change.ts", ["--every", "1e12"]);

    expect(run.status, run.log).toBe(2);
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(run.stderr).toContain('--every: expected at most 86400 seconds (a day), got "1e12"');
  });
});
