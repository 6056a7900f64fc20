import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadEnvFile } from "../../src/config/env-file.ts";
import { ConfigError } from "../../src/errors.ts";

const root = mkdtempSync(path.join(tmpdir(), "ecp-env-file-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function project(text: string): string {
  const dir = mkdtempSync(path.join(root, "project-"));
  writeFileSync(path.join(dir, ".env"), text);
  return dir;
}

describe("loadEnvFile", () => {
  it("should add the settings of .env in the project folder to the environment", () => {
    const dir = project(
      [
        "# saved from npm run check-api",
        "export EVENT_API_URL=https://portal.example.org/api/v1",
        "EVENT_API_AUTH=header:X-Api-Key",
        `EVENT_API_FIELD_MAP='{"event":{"start":"dateFrom","summary":"perex"}}'`,
        "",
      ].join("\n"),
    );
    const env: NodeJS.ProcessEnv = {};
    const result = loadEnvFile(env, dir);
    expect(env).toEqual({
      EVENT_API_URL: "https://portal.example.org/api/v1",
      EVENT_API_AUTH: "header:X-Api-Key",
      EVENT_API_FIELD_MAP: '{"event":{"start":"dateFrom","summary":"perex"}}',
    });
    expect(result.file).toBe(path.join(dir, ".env"));
    expect([...result.applied].sort()).toEqual([
      "EVENT_API_AUTH",
      "EVENT_API_FIELD_MAP",
      "EVENT_API_URL",
    ]);
  });

  it("should let the real environment win, even with an empty value", () => {
    const dir = project("EVENT_API_URL=https://from-file.example/v1\nSITE_TITLE=From file\n");
    const env: NodeJS.ProcessEnv = { EVENT_API_URL: "https://real.example/v1", SITE_TITLE: "" };
    const result = loadEnvFile(env, dir);
    expect(env).toEqual({ EVENT_API_URL: "https://real.example/v1", SITE_TITLE: "" });
    expect([...result.overridden].sort()).toEqual(["EVENT_API_URL", "SITE_TITLE"]);
    expect(result.applied).toEqual([]);
  });

  it("should do nothing without a .env file, or with ENV_FILE=none", () => {
    const empty = mkdtempSync(path.join(root, "empty-"));
    const env: NodeJS.ProcessEnv = {};
    expect(loadEnvFile(env, empty)).toEqual({ file: null, applied: [], overridden: [] });
    const dir = project("SITE_TITLE=x\n");
    const off: NodeJS.ProcessEnv = { ENV_FILE: "none" };
    loadEnvFile(off, dir);
    expect(off).toEqual({ ENV_FILE: "none" });
  });

  it("should read the file ENV_FILE names, and fail with one line when it is missing", () => {
    const file = path.join(root, "site.env");
    writeFileSync(file, "SITE_TITLE=Named file\n");
    const env: NodeJS.ProcessEnv = { ENV_FILE: file };
    loadEnvFile(env, root);
    expect(env.SITE_TITLE).toBe("Named file");
    expect(() => loadEnvFile({ ENV_FILE: "nowhere.env" }, root)).toThrow(ConfigError);
    expect(() => loadEnvFile({ ENV_FILE: "nowhere.env" }, root)).toThrow(
      /^ENV_FILE: cannot read "nowhere.env" \(ENOENT\)/,
    );
  });
});
