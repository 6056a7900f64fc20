import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { JAVA_PATH } from "./system-packages.ts";

/**
 * The Nu Html Checker (vnu.jar, the W3C's HTML checker, from the npm package
 * vnu-jar) run by Debian's Java on built files. It is started with the
 * system's Java directly: the package's own launcher would download a Java
 * runtime where it finds none. Tests check hasJava() first
 * (system-packages.ts).
 */
const VNU_JAR = createRequire(import.meta.url).resolve("vnu-jar/build/dist/vnu.jar");

export interface HtmlMessage {
  readonly type: string;
  readonly subType?: string;
  readonly url: string;
  readonly message: string;
  readonly extract?: string;
  readonly lastLine?: number;
}

/** What the checker reports as errors in these HTML files (none: valid), with the files. */
export function htmlErrors(paths: readonly string[]): HtmlMessage[] {
  const result = spawnSync(
    JAVA_PATH,
    ["-jar", VNU_JAR, "--errors-only", "--format", "json", "--exit-zero-always", ...paths],
    { encoding: "utf8", maxBuffer: 64 * 1024 * 1024, timeout: 120_000 },
  );
  if (result.status !== 0) throw new Error(`vnu failed (${result.status}): ${result.stderr}`);
  // The report goes to stderr unless --stdout is given.
  const { messages } = JSON.parse(result.stderr) as { messages: HtmlMessage[] };
  return messages;
}
