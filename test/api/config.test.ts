import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseDuration, readApiConfig } from "../../src/config/api.ts";
import { ConfigError } from "../../src/errors.ts";
import { tempDir } from "../helpers/temp-dir.ts";

const TOKEN = "s3cret-token-value";
const base = { EVENT_API_URL: "https://portal.example.org/api/v1/", EVENT_API_TOKEN: TOKEN };

describe("readApiConfig", () => {
  it("should give documented defaults", () => {
    expect(readApiConfig(base)).toEqual({
      baseUrl: "https://portal.example.org/api/v1",
      token: TOKEN,
      auth: { kind: "bearer" },
      concurrency: 8,
      timeoutMs: 30_000,
      retries: 4,
      retryMaxWaitMs: 60_000,
      cacheDurationMs: 0,
      cacheDir: ".cache",
      calendars: null,
      fieldMap: { calendar: {}, event: {} },
      allowStaleMs: null,
      paging: { kind: "auto", sizeParam: null },
      pageSize: 100,
      maxResponseBytes: 64 * 1024 * 1024,
    });
  });

  it("should read every option", () => {
    const dir = tempDir("api-config-");
    const tokenFile = path.join(dir, "token");
    writeFileSync(tokenFile, `  ${TOKEN}\n`);
    const mapFile = path.join(dir, "map.json");
    writeFileSync(mapFile, JSON.stringify({ "event.title": "headline" }));
    const config = readApiConfig({
      EVENT_API_URL: "http://127.0.0.1:4010/v1",
      EVENT_API_TOKEN_FILE: tokenFile,
      EVENT_API_AUTH: "query:api_key",
      EVENT_API_CONCURRENCY: "3",
      EVENT_API_TIMEOUT: "2500",
      EVENT_API_RETRIES: "0",
      EVENT_API_CACHE_DURATION: "1h",
      EVENT_API_CALENDARS: "community, culture,",
      EVENT_API_FIELD_MAP: mapFile,
      EVENT_API_ALLOW_STALE: "2d",
      EVENT_API_CACHE_DIR: "/tmp/x",
      EVENT_API_PAGING: "page:p,size",
    });
    expect(config).toMatchObject({
      token: TOKEN,
      auth: { kind: "query", name: "api_key" },
      concurrency: 3,
      timeoutMs: 2500,
      retries: 0,
      cacheDurationMs: 3_600_000,
      calendars: ["community", "culture"],
      fieldMap: { event: { title: "headline" } },
      allowStaleMs: 172_800_000,
      cacheDir: "/tmp/x",
      paging: { kind: "page", param: "p", sizeParam: "size" },
    });
    expect(readApiConfig({ ...base, EVENT_API_AUTH: "header:X-Api-Key" }).auth).toEqual({
      kind: "header",
      name: "X-Api-Key",
    });
    expect(readApiConfig({ ...base, EVENT_API_AUTH: "scheme:Token" }).auth).toEqual({
      kind: "scheme",
      name: "Token",
    });
    expect(readApiConfig({ ...base, EVENT_API_AUTH: "scheme:bearer" }).auth).toEqual({
      kind: "bearer",
    });
    expect(readApiConfig({ ...base, EVENT_API_PAGE_SIZE_PARAM: "limit" }).paging).toEqual({
      kind: "auto",
      sizeParam: "limit",
    });
  });

  it.each([
    ["2MB", 2 * 1024 * 1024],
    ["512 KiB", 512 * 1024],
    ["1.5m", 1.5 * 1024 * 1024],
    ["200000", 200_000],
  ])("should read EVENT_API_MAX_RESPONSE_SIZE=%s as binary units", (raw, bytes) => {
    expect(readApiConfig({ ...base, EVENT_API_MAX_RESPONSE_SIZE: raw }).maxResponseBytes).toBe(
      bytes,
    );
  });

  it.each([
    [{ EVENT_API_TOKEN: TOKEN }, /^EVENT_API_URL: not set/],
    [{ ...base, EVENT_API_URL: "portal.example.org" }, /^EVENT_API_URL: not a URL/],
    [
      { ...base, EVENT_API_URL: "ftp://portal.example.org" },
      /^EVENT_API_URL: expected an http\(s\) URL/,
    ],
    [
      { ...base, EVENT_API_URL: "https://user:pw@portal.example.org" },
      /^EVENT_API_URL: must not contain credentials/,
    ],
    [
      { ...base, EVENT_API_URL: "https://portal.example.org/v1?token=x" },
      /^EVENT_API_URL: must not contain a query/,
    ],
    [{ EVENT_API_URL: base.EVENT_API_URL }, /^EVENT_API_TOKEN: not set/],
    [
      { EVENT_API_URL: base.EVENT_API_URL, EVENT_API_TOKEN_FILE: "/nonexistent/token" },
      /^EVENT_API_TOKEN_FILE: cannot read/,
    ],
    [{ ...base, EVENT_API_TOKEN: "a\nb" }, /^EVENT_API_TOKEN: contains control characters/],
    [{ ...base, EVENT_API_AUTH: "basic" }, /^EVENT_API_AUTH: "basic" is not understood/],
    [{ ...base, EVENT_API_AUTH: "header:Bad Name" }, /^EVENT_API_AUTH/],
    [
      { ...base, EVENT_API_CONCURRENCY: "0" },
      /^EVENT_API_CONCURRENCY: expected a whole number from 1 to 64/,
    ],
    [{ ...base, EVENT_API_TIMEOUT: "soon" }, /^EVENT_API_TIMEOUT: "soon" is not a duration/],
    [{ ...base, EVENT_API_RETRIES: "-1" }, /^EVENT_API_RETRIES/],
    [{ ...base, EVENT_API_CACHE_DURATION: "10" }, /^EVENT_API_CACHE_DURATION/],
    [{ ...base, EVENT_API_ALLOW_STALE: "forever" }, /^EVENT_API_ALLOW_STALE/],
    [{ ...base, EVENT_API_FIELD_MAP: "{not json" }, /^EVENT_API_FIELD_MAP: invalid JSON/],
    [
      { ...base, EVENT_API_FIELD_MAP: '{"event":{"colour":"x"}}' },
      /^EVENT_API_FIELD_MAP: unknown event field "colour"/,
    ],
    [{ ...base, EVENT_API_PAGING: "sideways" }, /^EVENT_API_PAGING/],
    [
      { ...base, EVENT_API_MAX_RESPONSE_SIZE: "lots" },
      /^EVENT_API_MAX_RESPONSE_SIZE: "lots" is not a size/,
    ],
    [{ ...base, EVENT_API_MAX_RESPONSE_SIZE: "1GB" }, /^EVENT_API_MAX_RESPONSE_SIZE/],
    [{ ...base, EVENT_API_AUTH: "scheme:Two Words" }, /^EVENT_API_AUTH/],
    [{ ...base, EVENT_API_PAGE_SIZE_PARAM: "a b" }, /^EVENT_API_PAGE_SIZE_PARAM/],
  ])("should reject bad settings (%#) with one line naming the variable", (env, pattern) => {
    expect(() => readApiConfig(env)).toThrow(ConfigError);
    expect(() => readApiConfig(env)).toThrow(pattern);
    try {
      readApiConfig(env);
    } catch (error) {
      expect((error as Error).message).not.toContain("\n");
      expect((error as Error).message).not.toContain(TOKEN);
    }
  });
});

describe("parseDuration", () => {
  it("should read eleventy-fetch style durations and milliseconds", () => {
    expect(parseDuration("30s")).toBe(30_000);
    expect(parseDuration("1.5m")).toBe(90_000);
    expect(parseDuration("2w")).toBe(1_209_600_000);
    expect(parseDuration("250ms")).toBe(250);
    expect(parseDuration("250", "ms")).toBe(250);
    expect(parseDuration("250")).toBeNull();
  });
});
