import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The folders of src/ import one way (docs/architecture.md, "Folders"):
 * each stands on a floor and imports only from floors below it, so the data
 * flows from the settings and the portal down to the published files, and
 * no two folders import each other. A new folder takes its floor here.
 */
const FLOORS: readonly (readonly string[])[] = [
  // Leaves every layer may use: errors, work counters, the code's fingerprint,
  // short digests, a large file written whole or not at all, a module of the
  // project started in a child process, what /proc says of a process.
  [
    "errors",
    "metrics",
    "code-fingerprint",
    "short-hash",
    "replace-file-sync",
    "fork-entry",
    "proc-stat",
    "types",
  ],
  ["model"],
  // The messages stand below the settings, whose defaults visitors read (the site's title).
  ["i18n"],
  ["config"],
  ["api"],
  ["portal"],
  ["snapshot", "changes", "check"],
  ["places"],
  ["series"],
  // Several sources in one site: fetched each as one portal, joined once (src/sources).
  ["sources"],
  // Event images: downloaded within bounds, checked, SVGs drawn (src/media).
  ["media"],
  ["site"],
  ["render"],
  // The browser scripts bundled (src/bundle), and the file group of the site's.
  ["bundle"],
  ["shards"],
  ["oembed"],
  // The site's ActivityPub files and its fediverse account's inbox and deliveries.
  ["outputs", "fediverse"],
  // Output writers that stand on the feeds' (src/outputs): the weekly digest (src/digest) among them.
  ["cards", "search", "widget", "digest"],
  ["hosts"],
  ["eleventy"],
  ["publish"],
  ["rebuild"],
  // A build started ahead: what it reads before its go, and publish-on-change's builds.
  ["ready"],
  ["cli"],
  // The browser scripts, wherever they live (src/browser, src/site/browser,
  // src/widget/browser): a program of their own, bundled, never imported by
  // the build; they read the types of what the build publishes for them.
  ["browser"],
];

const SRC = resolve(import.meta.dirname, "../../src");

/**
 * A src/ file's folder, or its own name for a file at the top (src/errors.ts:
 * "errors"); any file of a `browser/` folder is browser code.
 */
function unitOf(path: string): string {
  const parts = relative(SRC, path).split("/");
  if (parts.slice(0, -1).includes("browser")) return "browser";
  const [first = "", ...rest] = parts;
  return rest.length === 0 ? first.replace(/\.(d\.)?m?ts$/, "") : first;
}

function sourceFiles(): string[] {
  return readdirSync(SRC, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.m?ts$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name));
}

/** Every relative module a file imports or re-exports, statically or dynamically. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const specifiers = [
    ...text.matchAll(/^\s*(?:import|export)\b[^;]*?\bfrom\s+"(\.[^"]+)"/gms),
    ...text.matchAll(/\bimport\(\s*"(\.[^"]+)"\s*\)/g),
    ...text.matchAll(/^\s*import\s+"(\.[^"]+)"/gm),
  ].map((match) => match[1] as string);
  return specifiers.map((specifier) => resolve(dirname(file), specifier));
}

describe("imports", () => {
  const floorOf = new Map(FLOORS.flatMap((units, floor) => units.map((unit) => [unit, floor])));

  it("should give every folder of src/ a floor", () => {
    const units = new Set(sourceFiles().map(unitOf));
    expect([...units].filter((unit) => !floorOf.has(unit)).sort()).toEqual([]);
  });

  it("should import only from the floors below, so that no two folders import each other", () => {
    const upward: string[] = [];
    for (const file of sourceFiles()) {
      const from = unitOf(file);
      for (const target of importsOf(file)) {
        if (!target.startsWith(`${SRC}/`)) continue;
        const to = unitOf(target);
        if (to === from) continue;
        if ((floorOf.get(to) ?? Number.POSITIVE_INFINITY) >= (floorOf.get(from) ?? 0)) {
          upward.push(`${relative(SRC, file)} -> ${relative(SRC, target)}`);
        }
      }
    }
    expect(upward).toEqual([]);
  });

  it("should find the imports it judges (a broken rule is not hidden by a reader that sees none)", () => {
    const publisher = join(SRC, "eleventy/publisher-plugin.ts");
    const found = importsOf(publisher).map((path) => unitOf(path));
    expect(found).toContain("render");
    expect(found).toContain("outputs");
  });
});
