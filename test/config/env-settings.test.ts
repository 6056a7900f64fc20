import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SETTINGS_BY_READER as LISTS } from "../../src/config/every-setting.ts";

/*
 * Each reader of src/config exports the list of the variables it reads, which
 * the commands' --help prints (src/cli/command-line.ts). A variable read but
 * not listed would be missing from every command's help.
 */

const CONFIG = join(import.meta.dirname, "../../src/config");

/** `env.NAME`, and `env, "NAME"` as the readers' helpers are called. */
const READS = [/\benv\.([A-Z][A-Z0-9_]+)/g, /\benv,\s*"([A-Z][A-Z0-9_]+)"/g];

function namesReadIn(source: string): Set<string> {
  return new Set(READS.flatMap((pattern) => [...source.matchAll(pattern)].map((m) => m[1] ?? "")));
}

const sources = Object.fromEntries(
  readdirSync(CONFIG)
    .filter((file) => file.endsWith(".ts"))
    .map((file) => [file, readFileSync(join(CONFIG, file), "utf8")]),
);

describe("the settings each reader lists", () => {
  it("should be listed by every file that reads the environment", () => {
    const readers = Object.keys(sources).filter((file) => namesReadIn(sources[file] ?? "").size);
    expect(readers.sort()).toEqual(Object.keys(LISTS).sort());
  });

  it("should name every variable its file reads", () => {
    for (const [file, list] of Object.entries(LISTS)) {
      const listed = new Set(list.map((setting) => setting.name));
      const unlisted = [...namesReadIn(sources[file] ?? "")].filter((name) => !listed.has(name));
      expect(unlisted, file).toEqual([]);
    }
  });

  it("should name only variables some reader reads", () => {
    const read = new Set(Object.values(sources).flatMap((source) => [...namesReadIn(source)]));
    const listed = Object.values(LISTS).flatMap((list) => list.map((setting) => setting.name));
    expect(listed.filter((name) => !read.has(name))).toEqual([]);
  });

  it("should hold the rule it checks (reads are found)", () => {
    const sample = 'const a = env.SITE_URL?.trim(); readInt(env, "EVENT_API_RETRIES", 4, 0, 10);';
    expect([...namesReadIn(sample)]).toEqual(["SITE_URL", "EVENT_API_RETRIES"]);
  });
});
