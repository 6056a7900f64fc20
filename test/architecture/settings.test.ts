import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

/*
 * Settings are read once (src/config/) into one value that the build passes
 * to every stage (docs/architecture.md). A module that wrote the environment
 * to reach another one would bring back the side doors this rules out.
 */

const ROOT = join(import.meta.dirname, "../..");
const SOURCES = ["src", "netlify", "_data", "bench", "tools", ".eleventy.js"];
/** Only the .env loader fills the environment (before anything reads it). */
const ALLOWED = new Set(["src/config/env-file.ts"]);

function files(path: string): string[] {
  const full = join(ROOT, path);
  try {
    return readdirSync(full, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && /\.(ts|mts|js|mjs)$/.test(entry.name))
      .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)));
  } catch {
    return [path];
  }
}

const WRITES = [
  /process\.env(?:\.\w+|\[[^\]]+\])\s*(?:=(?!=)|\?\?=|\|\|=)/,
  /delete\s+process\.env/,
  /Object\.assign\(\s*process\.env/,
];

describe("settings", () => {
  it("should never be passed between modules through process.env", () => {
    const writers = SOURCES.flatMap(files).filter((file) => {
      if (ALLOWED.has(file)) return false;
      const text = readFileSync(join(ROOT, file), "utf8");
      return WRITES.some((pattern) => pattern.test(text));
    });
    expect(writers).toEqual([]);
  });

  it("should hold the rule it checks (a write is found)", () => {
    const sample = 'if (!x) process.env.SITE_NOW = "2026";\ndelete process.env.EVENT_API_AUTH;';
    expect(WRITES.filter((pattern) => pattern.test(sample))).toHaveLength(2);
  });
});
