import { readFileSync } from "node:fs";
import { join } from "node:path";

const ROOT = join(import.meta.dirname, "../..");

/** What an npm script gives Node: its variables, and Node's arguments from the first flag on. */
export interface NodeCommand {
  /** `NAME=value` words before the command ("ELEVENTY_SKIP_ESM_RESOLVER=1 exec node …"). */
  readonly env: Readonly<Record<string, string>>;
  /** Everything after `node`: its flags, `src/launch.mjs`, the entry point, options. */
  readonly args: readonly string[];
}

let read: Record<string, string> | undefined;

/** package.json's scripts, read once per test worker: they do not change during a run. */
function scripts(): Record<string, string> {
  read ??= (
    JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
      scripts: Record<string, string>;
    }
  ).scripts;
  return read;
}

/**
 * How package.json's script `name` starts Node ("exec node --flag
 * src/launch.mjs src/cli/build.ts"), so that the tests and the benchmark
 * start an entry point exactly as `npm run <name>` does. The scripts are
 * plain words: variables, `exec`, `node`, arguments, no quoting.
 */
export function npmScript(name: string): NodeCommand {
  const words = scripts()[name]?.split(/\s+/).filter(Boolean) ?? [];
  const node = words.indexOf("node");
  if (node < 0) throw new Error(`package.json's "${name}" script does not run node.`);
  const env: Record<string, string> = {};
  for (const word of words.slice(0, node)) {
    const assignment = /^([A-Z_][A-Z0-9_]*)=(.*)$/.exec(word);
    if (assignment?.[1]) env[assignment[1]] = assignment[2] ?? "";
    else if (word !== "exec") throw new Error(`package.json's "${name}" script: "${word}"?`);
  }
  return { env, args: words.slice(node + 1) };
}

/**
 * How `npm run` starts the entry point `entry` ("src/cli/build.ts"): its
 * script's variables and Node flags, or the launcher alone for an entry
 * point no script names (the benchmark's, the tools').
 */
export function entryCommand(entry: string): NodeCommand {
  for (const [name, line] of Object.entries(scripts())) {
    if (line.trim().endsWith(`src/launch.mjs ${entry}`)) return npmScript(name);
  }
  return { env: {}, args: ["src/launch.mjs", entry] };
}
