import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { defineConfig } from "vitest/config";
import { runFolder } from "./test/helpers/run-folder.ts";
import { scratchSpace } from "./test/helpers/scratch-space.ts";

/*
 * Three projects, chosen by what a test file needs (test/README.md, "Which
 * tests run where"), read from the helpers it imports, directly or through
 * other helpers and fixtures:
 *
 * - demo: it reads the one shared demo build (test/helpers/demo-site.ts),
 *   which this project's global set-up builds once per run;
 * - integration: it builds sites of its own (the project's entry points,
 *   fixture sites in its own process), opens Chromium or needs another
 *   system package;
 * - unit: none of these (`npm run test:unit`).
 */

const ROOT = import.meta.dirname;

/** Helpers whose use puts a test file in the demo project. */
const DEMO_HELPERS = ["test/helpers/demo-site.ts"];

/** Helpers that build, launch Chromium or need a system package. */
const HEAVY_HELPERS = [
  "test/helpers/demo-build.ts",
  "test/helpers/metered-build.ts",
  "test/helpers/plugin-site.ts",
  "test/helpers/browser.ts",
  "test/helpers/system-packages.ts",
];

/** Test files that build without those helpers. */
const BUILDS_OF_THEIR_OWN = [
  // Runs `npm start`, which builds the demo.
  "test/site/serve.test.ts",
  // Renders the demo site in its own process.
  "test/cli/render-site.test.ts",
];

const IMPORT = /^(?:import|export)\b[^;"]*?\bfrom\s+"(\.{1,2}\/[^"]+)";$/gm;

/** Every test file and helper a file imports, directly or not (paths relative to the project). */
function testImports(file: string, seen = new Set<string>()): Set<string> {
  for (const [, spec] of readFileSync(join(ROOT, file), "utf8").matchAll(IMPORT)) {
    const target = relative(ROOT, resolve(ROOT, dirname(file), spec ?? ""))
      .split("\\")
      .join("/");
    if (!target.startsWith("test/") || seen.has(target)) continue;
    seen.add(target);
    testImports(target, seen);
  }
  return seen;
}

const testFiles = readdirSync(join(ROOT, "test"), { recursive: true, encoding: "utf8" })
  .map((path) => `test/${path.split("\\").join("/")}`)
  .filter((path) => path.endsWith(".test.ts"))
  .sort();
const needs = (file: string, helpers: readonly string[]) => {
  const imported = testImports(file);
  return helpers.some((helper) => imported.has(helper));
};
const demoFiles = testFiles.filter((file) => needs(file, DEMO_HELPERS));
const integrationFiles = testFiles.filter(
  (file) =>
    !demoFiles.includes(file) && (needs(file, HEAVY_HELPERS) || BUILDS_OF_THEIR_OWN.includes(file)),
);
const unitFiles = testFiles.filter(
  (file) => !demoFiles.includes(file) && !integrationFiles.includes(file),
);
/**
 * Files that replace a module (`vi.mock`) load every module afresh, in a
 * project of their own: the files of a worker otherwise share their modules
 * (below), and a replaced module would reach the files after it, or come too
 * late. They cannot read the shared demo build.
 */
const mockingFiles = testFiles.filter((file) =>
  /\bvi\.(?:mock|doMock)\(/.test(readFileSync(join(ROOT, file), "utf8")),
);
const sharing = (files: string[]) => files.filter((file) => !mockingFiles.includes(file));

/*
 * Time limits catch a test that hangs; they must never fail one that is only
 * slow on a slow or busy machine. They are far above what the heaviest test
 * (builds, browsers) takes on two busy cores; a unit test takes milliseconds.
 */
const LIMITS = {
  testTimeout: 300_000,
  hookTimeout: 600_000,
  // Waits follow what they wait for (a page, a message); this only ends one that never would.
  expect: { poll: { timeout: 120_000 } },
};

export default defineConfig({
  test: {
    // A developer's .env must not leak into the commands the tests run; the
    // tests' temporary folders in memory where there is room (scratch-space.ts),
    // in a folder of this run's, removed when it ends (run-folder.ts).
    env: { ENV_FILE: "none", TMPDIR: runFolder(scratchSpace()) },
    globalSetup: ["test/helpers/run-folder.ts"],
    // Builds and browser tests are heavy; two workers match the 2-core machines we target.
    pool: "forks",
    maxWorkers: 2,
    // A worker's test files share their modules, loaded once: a fresh set per file
    // cost a third of the unit project's time. What a helper leaves open is closed
    // when each file ends (test/helpers/file-end.ts); nothing a test checks lives
    // in a module's state (test/README.md, "Which tests run where").
    isolate: false,
    setupFiles: ["test/helpers/each-file.ts"],
    ...LIMITS,
    projects: [
      { extends: true, test: { name: "unit", include: sharing(unitFiles) } },
      {
        extends: true,
        test: {
          name: "demo",
          include: sharing(demoFiles),
          globalSetup: ["test/helpers/global-setup.ts"],
        },
      },
      { extends: true, test: { name: "integration", include: sharing(integrationFiles) } },
      {
        extends: true,
        test: { name: "own-modules", include: mockingFiles, isolate: true },
      },
    ],
  },
});
