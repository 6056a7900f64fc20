import { spawnSync } from "node:child_process";

/**
 * Runs `script` in bash, as a user pasting it would, and returns the
 * environment it leaves (only PATH comes in from outside).
 */
export function envAfterBash(script: string): Record<string, string> {
  const result = spawnSync(
    "/bin/bash",
    ["-c", `${script}\nnode -e 'process.stdout.write(JSON.stringify(process.env))'`],
    { encoding: "utf8", env: { PATH: process.env.PATH } },
  );
  if (result.status !== 0) throw new Error(`bash failed: ${result.stderr}`);
  return JSON.parse(result.stdout) as Record<string, string>;
}

/** The `export NAME='value'` lines of a command's output. */
export function exportLines(output: string): string {
  return output
    .split("\n")
    .filter((line) => line.startsWith("export "))
    .join("\n");
}

/** The `NAME=value` lines (the .env form) of a command's output. */
export function envFileLines(output: string): string {
  return output
    .split("\n")
    .filter((line) => /^[A-Z][A-Z0-9_]*=/.test(line))
    .join("\n");
}
