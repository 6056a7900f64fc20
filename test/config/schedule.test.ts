import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  readRebuildSchedule,
  resolveRebuildInterval,
  scheduleToMinutes,
} from "../../src/config/schedule.ts";
import { ConfigError } from "../../src/errors.ts";

describe("scheduleToMinutes", () => {
  it("should read Netlify's macros", () => {
    expect(scheduleToMinutes("@hourly")).toBe(60);
    expect(scheduleToMinutes("@daily")).toBe(1440);
    expect(scheduleToMinutes("@weekly")).toBe(10080);
  });

  it("should read cron steps, lists and ranges as the shortest gap between runs", () => {
    expect(scheduleToMinutes("*/15 * * * *")).toBe(15);
    expect(scheduleToMinutes("5 * * * *")).toBe(60);
    expect(scheduleToMinutes("0,30 * * * *")).toBe(30);
    expect(scheduleToMinutes("0 */6 * * *")).toBe(360);
    expect(scheduleToMinutes("0 8,20 * * *")).toBe(720);
    expect(scheduleToMinutes("0 9-17 * * 1-5")).toBe(60);
    expect(scheduleToMinutes("30 4 * * *")).toBe(1440);
    expect(scheduleToMinutes("0 6 * * 1")).toBe(10080);
    expect(scheduleToMinutes("0 6 * * 0,7")).toBe(10080);
  });

  it("should refuse schedules it cannot turn into one interval, naming the override", () => {
    expect(() => scheduleToMinutes("0 0 1 * *")).toThrow(ConfigError);
    expect(() => scheduleToMinutes("0 0 1 * *")).toThrow(/REBUILD_INTERVAL_MINUTES/);
    expect(() => scheduleToMinutes("every hour")).toThrow(/five cron fields/);
    expect(() => scheduleToMinutes("61 * * * *")).toThrow(/outside 0-59/);
  });
});

describe("resolveRebuildInterval", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "ecp-schedule-"));
    await writeFile(
      join(dir, "daily.toml"),
      '[functions."scheduled-rebuild"]\nschedule = "@daily"\n',
    );
    await writeFile(join(dir, "none.toml"), '[build]\ncommand = "npm run build"\n');
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("should take the repository's netlify.toml schedule: a check every 5 minutes", () => {
    expect(readRebuildSchedule()).toBe("*/5 * * * *");
    expect(resolveRebuildInterval({})).toEqual({ minutes: 5, source: "netlify.toml" });
  });

  it("should follow a changed schedule", () => {
    expect(resolveRebuildInterval({}, join(dir, "daily.toml"))).toEqual({
      minutes: 1440,
      source: "netlify.toml",
    });
  });

  it("should let REBUILD_INTERVAL_MINUTES override it for other hosts", () => {
    expect(
      resolveRebuildInterval({ REBUILD_INTERVAL_MINUTES: "30" }, join(dir, "daily.toml")),
    ).toEqual({
      minutes: 30,
      source: "REBUILD_INTERVAL_MINUTES",
    });
    expect(() => resolveRebuildInterval({ REBUILD_INTERVAL_MINUTES: "soon" })).toThrow(
      /REBUILD_INTERVAL_MINUTES/,
    );
  });

  it("should default to one hour without a schedule", () => {
    expect(resolveRebuildInterval({}, join(dir, "none.toml"))).toEqual({
      minutes: 60,
      source: "default",
    });
  });
});
