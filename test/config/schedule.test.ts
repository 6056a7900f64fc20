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
  it.each([
    ["@hourly", 60],
    ["@daily", 1440],
    ["@weekly", 10080],
  ])("should read Netlify's macro %s as %i minutes", (schedule, minutes) => {
    expect(scheduleToMinutes(schedule)).toBe(minutes);
  });

  // Steps, lists and ranges: the shortest gap between two runs.
  it.each([
    ["*/15 * * * *", 15],
    ["5 * * * *", 60],
    ["0,30 * * * *", 30],
    ["0 */6 * * *", 360],
    ["0 8,20 * * *", 720],
    ["0 9-17 * * 1-5", 60],
    ["30 4 * * *", 1440],
    ["0 6 * * 1", 10080],
    ["0 6 * * 0,7", 10080],
  ])("should read the cron schedule %s as every %i minutes at the most", (schedule, minutes) => {
    expect(scheduleToMinutes(schedule)).toBe(minutes);
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

  it("should take the repository's netlify.toml schedule: a check every minute", () => {
    expect(readRebuildSchedule()).toBe("* * * * *");
    expect(resolveRebuildInterval({})).toEqual({ minutes: 1, source: "netlify.toml" });
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
