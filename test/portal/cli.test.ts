import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { NOW } from "../helpers/clock.ts";
import { call } from "../helpers/http-requests.ts";

const ROOT = resolve(import.meta.dirname, "../..");
const CLI = join(ROOT, "src/cli/portal.ts");
/**
 * As `npm run portal` runs it: node itself, with src/launch.mjs in front of
 * the entry point, in the same process. (tsx's own command puts a process of
 * its own in front, which passes a signal on only if the portal confirms it
 * within 30 ms: a busy machine misses that.)
 */
const PORTAL = [process.execPath, join(ROOT, "src/launch.mjs"), CLI] as const;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(args: string[]): Promise<Run> {
  return new Promise((done, fail) => {
    // Only a hang takes this long: the command answers in seconds on a busy machine.
    const child = spawn(PORTAL[0], [...PORTAL.slice(1), ...args], { cwd: ROOT, timeout: 300_000 });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", fail);
    child.on("close", (code) => done({ code, stdout, stderr }));
  });
}

/** Starts `portal` in the foreground and resolves once it printed URL: and Token:. */
function serve(
  args: string[],
): Promise<{ child: ChildProcess; url: string; token: string; output: () => string }> {
  return new Promise((done, fail) => {
    const child = spawn(PORTAL[0], [...PORTAL.slice(1), ...args], { cwd: ROOT });
    let output = "";
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      fail(new Error(`portal did not start: ${output}`));
    }, 300_000);
    child.stdout?.on("data", (d) => {
      output += d;
      const url = /^URL: (\S+)$/m.exec(output)?.[1];
      const token = /^Token: (\S+)$/m.exec(output)?.[1];
      if (url && token) {
        clearTimeout(timer);
        done({ child, url, token, output: () => output });
      }
    });
    child.stderr?.on("data", (d) => (output += d));
    child.on("error", fail);
  });
}

const exitOf = (child: ChildProcess) =>
  new Promise<number | null>((done) => {
    if (child.exitCode !== null) done(child.exitCode);
    else child.once("exit", (code) => done(code));
  });

describe("portal CLI", () => {
  const dir = mkdtempSync(join(tmpdir(), "portal-cli-"));
  const tokens = join(dir, "nested", "tokens.json");
  const children: ChildProcess[] = [];
  afterAll(() => {
    for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
    rmSync(dir, { recursive: true, force: true });
  });

  it("should issue a token once, list it without the secret, and revoke it", async () => {
    const issued = await run(["token", "issue", "--org", "amstel-community", "--tokens", tokens]);
    expect(issued.code).toBe(0);
    const token = issued.stdout.trim();
    expect(token).toMatch(/^ecp_[a-z0-9]{12}_[A-Za-z0-9_-]{43}$/);
    const id = token.split("_")[1] as string;
    expect(issued.stderr).toContain(id);
    expect(statSync(tokens).mode & 0o777).toBe(0o600);
    const stored = readFileSync(tokens, "utf8");
    expect(stored).not.toContain(token.slice(17));

    const listed = await run(["token", "list", "--tokens", tokens]);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(new RegExp(`^${id}\\tamstel-community\\t\\S+\\t-$`, "m"));
    expect(listed.stdout).not.toContain(token.slice(17));

    expect((await run(["token", "revoke", id, "--tokens", tokens])).code).toBe(0);
    const json = JSON.parse((await run(["token", "list", "--json", "--tokens", tokens])).stdout);
    expect(json).toEqual([
      {
        id,
        orgId: "amstel-community",
        createdAt: expect.any(String),
        revokedAt: expect.any(String),
      },
    ]);
  });

  it("should exit 2 with usage for bad arguments and 1 for an unknown token id", async () => {
    const noOrg = await run(["token", "issue", "--tokens", tokens]);
    expect(noOrg.code).toBe(2);
    expect(noOrg.stderr).toContain("--org");
    expect((await run(["--paging", "sideways", "--port", "0"])).code).toBe(2);
    expect((await run(["--port", "many"])).code).toBe(2);
    const unknown = await run(["token", "revoke", "zzzzzzzzzzzz", "--tokens", tokens]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("zzzzzzzzzzzz");
  });

  it("should start in the foreground, print URL and Token, honour CLI tokens and stop on SIGTERM", async () => {
    const issued = (
      await run(["token", "issue", "--org", "riverside-library", "--tokens", tokens])
    ).stdout.trim();
    const portal = await serve(["--port", "0", "--now", NOW, "--tokens", tokens]);
    children.push(portal.child);
    expect(portal.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    expect((await call(`${portal.url}/event-calendars`, { token: portal.token })).status).toBe(200);
    const library = await call(`${portal.url}/event-calendar/library/events`, { token: issued });
    expect(library.status).toBe(200);

    const id = issued.split("_")[1] as string;
    expect((await run(["token", "revoke", id, "--tokens", tokens])).code).toBe(0);
    let status = 200;
    for (let attempt = 0; attempt < 40 && status === 200; attempt++) {
      await new Promise((r) => setTimeout(r, 250));
      status = (await call(`${portal.url}/event-calendars`, { token: issued })).status;
    }
    expect(status).toBe(401);

    portal.child.kill("SIGTERM");
    expect(await exitOf(portal.child)).toBe(0);
    expect(portal.output()).not.toContain(issued);
  });

  it("should serve a synthetic dataset from --synthetic with --seed", async () => {
    const portal = await serve([
      "--port",
      "0",
      "--now",
      NOW,
      "--synthetic",
      "2x30",
      "--seed",
      "4",
      "--paging",
      "page",
      "--tokens",
      tokens,
    ]);
    children.push(portal.child);
    const reply = await call(`${portal.url}/event-calendar/cal-002/events?per_page=100`, {
      token: portal.token,
    });
    expect(reply.json<unknown[]>()).toHaveLength(30);
    portal.child.kill("SIGINT");
    expect(await exitOf(portal.child)).toBe(0);
  });
});
