import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import type { Reporter, TestModule, Vitest } from "vitest/node";
import { BUILD_LOG_VARIABLE, type BuildKind, OUTSIDE_TEST_FILES } from "./build-log.ts";

/*
 * The time each test file takes and the builds it runs, as the table in
 * test/README.md shows them:
 *
 *   npx vitest run --reporter=default --reporter=./test/helpers/timing-reporter.ts
 *
 * A file's seconds are from its import to its last hook (vitest's own
 * per-file figure leaves out the hooks, where most builds run). Set
 * ECP_TEST_TIMINGS to a path to get the rows as JSON as well.
 */

interface Row {
  readonly file: string;
  readonly project: string;
  readonly tests: number;
  readonly seconds: number;
  readonly cli: number;
  readonly fixture: number;
}

export default class TimingReporter implements Reporter {
  #root = "";
  #started = 0;
  #log = "";
  readonly #modules: TestModule[] = [];

  onInit(vitest: Vitest): void {
    this.#root = vitest.config.root;
    this.#started = performance.now();
    // Set before the workers start, so that they inherit it (test/helpers/build-log.ts).
    this.#log = mkdtempSync(join(tmpdir(), "ecp-build-log-"));
    process.env[BUILD_LOG_VARIABLE] = this.#log;
  }

  onTestModuleEnd(module: TestModule): void {
    this.#modules.push(module);
  }

  onTestRunEnd(): void {
    const wall = (performance.now() - this.#started) / 1000;
    const builds = this.#builds();
    const rows: Row[] = this.#modules.map((module) => {
      const d = module.diagnostic();
      const file = relative(this.#root, module.moduleId).split("\\").join("/");
      const counted = builds.get(file);
      return {
        file,
        project: module.project.name,
        tests: [...module.children.allTests()].length,
        seconds: (d.prepareDuration + d.collectDuration + d.setupDuration + d.duration) / 1000,
        cli: counted?.cli ?? 0,
        fixture: counted?.fixture ?? 0,
      };
    });
    const outside = builds.get(OUTSIDE_TEST_FILES);
    if (outside)
      rows.push({ file: OUTSIDE_TEST_FILES, project: "", tests: 0, seconds: 0, ...outside });
    rows.sort((a, b) => b.seconds - a.seconds || a.file.localeCompare(b.file));
    const lines = [
      "| File | Project | Tests | Seconds | Builds (CLI) | Fixture sites |",
      "| ---- | ------- | ----: | ------: | -----------: | ------------: |",
      ...rows.map(
        (row) =>
          `| ${row.file} | ${row.project} | ${row.tests} | ${row.seconds.toFixed(1)} | ${row.cli} | ${row.fixture} |`,
      ),
    ];
    const total = rows.reduce((sum, row) => sum + row.seconds, 0);
    const cli = rows.reduce((sum, row) => sum + row.cli, 0);
    lines.push(
      "",
      `${rows.length} rows, ${rows.reduce((sum, row) => sum + row.tests, 0)} tests, ` +
        `${total.toFixed(0)} s in test files, ${cli} CLI builds; ${wall.toFixed(0)} s wall.`,
    );
    process.stdout.write(`\n${lines.join("\n")}\n`);
    const out = process.env.ECP_TEST_TIMINGS;
    if (out) writeFileSync(out, `${JSON.stringify({ wall, rows }, null, 2)}\n`);
    rmSync(this.#log, { recursive: true, force: true });
  }

  /** The builds the test files noted, by file. */
  #builds(): Map<string, Record<BuildKind, number>> {
    const counts = new Map<string, Record<BuildKind, number>>();
    for (const name of readdirSync(this.#log)) {
      for (const line of readFileSync(join(this.#log, name), "utf8").split("\n")) {
        if (!line) continue;
        const { file, kind } = JSON.parse(line) as { file: string; kind: BuildKind };
        const count = counts.get(file) ?? { cli: 0, fixture: 0 };
        count[kind] += 1;
        counts.set(file, count);
      }
    }
    return counts;
  }
}
