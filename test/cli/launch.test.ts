import { spawnSync } from "node:child_process";
import {
  copyFileSync,
  mkdirSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { beforeEach, describe, expect, it } from "vitest";
import { tempDir } from "../helpers/temp-dir.ts";

/*
 * src/launch.mjs starts every command (the npm scripts, the build's own
 * drawing processes) from a bundle of the project's modules that it keeps
 * until a source changes. Run here on a project of two modules of its own,
 * in a folder whose node_modules holds the real esbuild and tsx: the
 * command must see what it would see through tsx, and never run old code.
 */

const ROOT = resolve(import.meta.dirname, "../..");

const ENTRY = `import { MESSAGE, where } from "./deep/where.ts";
const shown: { readonly message: string } = { message: MESSAGE };
console.log(JSON.stringify({ argv: process.argv.slice(1), url: import.meta.url, ...where(), ...shown }));
`;

const where = (message: string) => `export const MESSAGE = ${JSON.stringify(message)};
export function where() {
  return { dirname: import.meta.dirname, filename: import.meta.filename };
}
`;

let project = "";

beforeEach(() => {
  project = tempDir("ecp-launch-");
  mkdirSync(join(project, "src/probe/deep"), { recursive: true });
  copyFileSync(join(ROOT, "src/launch.mjs"), join(project, "src/launch.mjs"));
  copyFileSync(join(ROOT, "tsconfig.json"), join(project, "tsconfig.json"));
  writeFileSync(join(project, "package.json"), JSON.stringify({ type: "module" }));
  mkdirSync(join(project, "node_modules"));
  for (const name of ["esbuild", "tsx"])
    symlinkSync(join(ROOT, "node_modules", name), join(project, "node_modules", name), "dir");
  writeFileSync(join(project, "src/probe/entry.ts"), ENTRY);
  writeFileSync(join(project, "src/probe/deep/where.ts"), where("first"));
});

function launch(...args: string[]) {
  const run = spawnSync(process.execPath, ["src/launch.mjs", "src/probe/entry.ts", ...args], {
    cwd: project,
    encoding: "utf8",
    timeout: 120_000,
  });
  return { ...run, shown: run.status === 0 ? JSON.parse(run.stdout) : undefined };
}

const cache = () => join(project, "node_modules/.cache/event-calendar-publisher/commands");

/** The bundles in the cache, with the time each was written. */
function bundles(): Map<string, bigint> {
  return new Map(
    readdirSync(cache())
      .filter((name) => name.endsWith(".mjs"))
      .map((name) => [name, statSync(join(cache(), name), { bigint: true }).mtimeNs]),
  );
}

describe("src/launch.mjs", () => {
  it("should run the entry point as tsx would: its arguments, and each module's own import.meta", () => {
    const run = launch("--output", "x y");
    expect(run.stderr).toBe("");
    const entry = join(project, "src/probe/entry.ts");
    expect(run.shown).toEqual({
      argv: [entry, "--output", "x y"],
      url: pathToFileURL(entry).href,
      dirname: join(project, "src/probe/deep"),
      filename: join(project, "src/probe/deep/where.ts"),
      message: "first",
    });
    expect([...bundles().keys()]).toEqual([
      expect.stringMatching(/^src_probe_entry_ts-\w{12}\.mjs$/),
    ]);
  });

  it("should start from the bundle it made while no source changed, and make it again after an edit", () => {
    expect(launch().shown?.message).toBe("first");
    const made = bundles();
    expect(launch().shown?.message).toBe("first");
    expect(bundles()).toEqual(made);

    writeFileSync(join(project, "src/probe/deep/where.ts"), where("second, edited"));
    expect(launch().shown?.message).toBe("second, edited");
    expect(bundles()).not.toEqual(made);
  });

  it("should make the bundle again when a module it holds is gone, and fail as tsx does", () => {
    expect(launch().status).toBe(0);
    rmSync(join(project, "src/probe/deep/where.ts"));
    const run = launch();
    expect(run.status).not.toBe(0);
    expect(run.stderr).toContain("where.ts");
  });

  it("should report a source that does not compile with its file, and run nothing", () => {
    writeFileSync(join(project, "src/probe/deep/where.ts"), "export const MESSAGE = ;\n");
    const run = launch();
    expect(run.status).not.toBe(0);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain("where.ts");
  });

  it("should remove the bundles of entry points that are gone when it makes one, and keep the others", () => {
    // A second entry point, as a deleted worktree sharing this node_modules would have had.
    writeFileSync(join(project, "src/probe/other.ts"), ENTRY);
    const other = spawnSync(process.execPath, ["src/launch.mjs", "src/probe/other.ts"], {
      cwd: project,
      encoding: "utf8",
      timeout: 120_000,
    });
    expect(other.status).toBe(0);
    expect(launch().status).toBe(0);
    const names = () => readdirSync(cache()).sort();
    const otherFiles = names().filter((name) => name.startsWith("src_probe_other_ts-"));
    expect(otherFiles.map((name) => name.replace(/-\w{12}/, ""))).toEqual([
      "src_probe_other_ts.json",
      "src_probe_other_ts.mjs",
      "src_probe_other_ts.mjs.map",
    ]);

    // Gone, and the remaining entry point's bundle made again: the other's files go with it.
    rmSync(join(project, "src/probe/other.ts"));
    writeFileSync(join(project, "src/probe/deep/where.ts"), where("second, edited"));
    expect(launch().shown?.message).toBe("second, edited");
    expect(names().filter((name) => name.startsWith("src_probe_other_ts-"))).toEqual([]);
    expect(names().filter((name) => name.startsWith("src_probe_entry_ts-")).length).toBe(3);
  });

  it("should still run, through tsx, where the cache cannot be written", () => {
    writeFileSync(join(project, "node_modules/.cache"), "not a folder");
    const run = launch("--check");
    expect(run.status).toBe(0);
    expect(run.shown?.argv).toEqual([join(project, "src/probe/entry.ts"), "--check"]);
    expect(run.shown?.dirname).toBe(join(project, "src/probe/deep"));
  });
});
