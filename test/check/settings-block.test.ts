import { parseEnv } from "node:util";
import { describe, expect, it } from "vitest";
import {
  envFileBlock,
  formatFieldMap,
  settingsInEffect,
  shellBlock,
} from "../../src/check/settings-block.ts";
import { parseFieldMap } from "../../src/model/field-map.ts";
import { envAfterBash } from "../helpers/shell.ts";

const TOKEN = "ecp_abcdefghijkl_s3cret-value-never-shown";

const awkward: Array<readonly [string, string]> = [
  ["EVENT_API_URL", "https://portal.example.org/api/v1"],
  ["EVENT_API_AUTH", "header:X-Api-Key"],
  ["EVENT_API_FIELD_MAP", '{"event":{"start":"dateFrom","title":"it\'s name"}}'],
  ["EVENT_API_CALENDARS", "city, culture # not a comment"],
  ["EVENT_API_CACHE_DIR", "/tmp/with space/$HOME/`x`"],
];

describe("settingsInEffect", () => {
  it("should list every API setting in effect with the changes, and never the token", () => {
    const settings = settingsInEffect(
      {
        EVENT_API_URL: "https://portal.example.org/api/v1",
        EVENT_API_TOKEN: TOKEN,
        EVENT_API_TIMEOUT: "45s",
        EVENT_API_PAGING: "auto",
        SITE_URL: "https://events.example.org",
      },
      { EVENT_API_AUTH: "header:X-Api-Key", EVENT_API_PAGING: null },
    );
    expect(settings).toEqual([
      ["EVENT_API_URL", "https://portal.example.org/api/v1"],
      ["EVENT_API_AUTH", "header:X-Api-Key"],
      ["EVENT_API_TIMEOUT", "45s"],
    ]);
    expect(shellBlock(settings)).not.toContain(TOKEN);
    expect(envFileBlock(settings)).not.toContain(TOKEN);
  });
});

describe("shellBlock", () => {
  it("should give a shell exactly the values, whatever characters they hold", () => {
    const env = envAfterBash(shellBlock(awkward));
    for (const [name, value] of awkward) expect(env[name]).toBe(value);
  });
});

describe("envFileBlock", () => {
  it("should give Node's .env reader exactly the values, whatever characters they hold", () => {
    const parsed = parseEnv(envFileBlock(awkward));
    for (const [name, value] of awkward) expect(parsed[name]).toBe(value);
  });

  it("should say so instead of writing a value no .env quoting can hold", () => {
    const block = envFileBlock([["EVENT_API_CALENDARS", `a'b"c\`d`]]);
    expect(block).toMatch(/^# EVENT_API_CALENDARS cannot be written in a \.env file/);
    expect(parseEnv(block).EVENT_API_CALENDARS).toBeUndefined();
  });
});

describe("formatFieldMap", () => {
  it("should write a map EVENT_API_FIELD_MAP reads back, without empty kinds", () => {
    const map = parseFieldMap({ event: { start: "dateFrom", summary: "data.perex" } });
    const text = formatFieldMap(map);
    expect(text).toBe('{"event":{"start":"dateFrom","summary":"data.perex"}}');
    expect(parseFieldMap(JSON.parse(text))).toEqual(map);
  });
});
