import { spawnSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkApi } from "../../src/cli/check-api.ts";
import { type RunningPortal, startPortal } from "../../src/portal/index.ts";
import { apiEnv, NOW } from "../snapshot/portal-env.ts";

let portal: RunningPortal;
beforeAll(async () => {
  portal = await startPortal({ port: 0, now: NOW });
});
afterAll(() => portal.close());

async function run(env: NodeJS.ProcessEnv): Promise<{ code: number; text: string }> {
  const chunks: string[] = [];
  const code = await checkApi(env, { write: (text: string) => chunks.push(text) });
  return { code, text: chunks.join("") };
}

describe("checkApi", () => {
  it("should list calendars with counts, a sample event and unmapped fields, and exit 0", async () => {
    const { code, text } = await run(apiEnv(portal));
    expect(code).toBe(0);
    expect(text).toContain("Token accepted: 4 calendars available.");
    expect(text).toMatch(/^ {2}community +\d+ events {2}Community$/m);
    expect(text).toContain("Sample event, as published:");
    expect(text).toContain('"descriptionHtml"');
    expect(text).toMatch(/Wire fields not used .*calendar\.eventCount/);
    expect(text).toContain("No problems found.");
    expect(text).not.toContain(portal.token);
  });

  it("should exit 1 with one line for a rejected token", async () => {
    const { code, text } = await run(apiEnv(portal, { EVENT_API_TOKEN: "ecp_not_a_real_token" }));
    expect(code).toBe(1);
    expect(text.trim().split("\n").at(-1)).toMatch(
      /^check-api: The portal rejected the token \(HTTP 401\)/,
    );
  });

  it("should report a calendar the organization cannot see", async () => {
    const { code, text } = await run(apiEnv(portal, { EVENT_API_CALENDARS: "community,library" }));
    expect(code).toBe(0);
    expect(text).toContain(
      'calendar "library" (EVENT_API_CALENDARS) is not available to this organization',
    );
  });

  it("should print a single line without a stack trace when run without configuration", () => {
    const env = { ...process.env };
    for (const key of Object.keys(env)) if (key.startsWith("EVENT_API_")) delete env[key];
    const result = spawnSync(process.execPath, ["--import", "tsx", "src/cli/check-api.ts"], {
      env,
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(result.status).toBe(1);
    expect(result.stdout.trim()).toMatch(/^check-api: EVENT_API_URL: not set/);
    expect(result.stdout.trim().split("\n")).toHaveLength(1);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });
});
