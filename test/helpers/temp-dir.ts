import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { atEachFileEnd } from "./file-end.ts";

const created: string[] = [];

atEachFileEnd(() => {
  for (const dir of created.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A new folder in the system temporary folder, removed when the test file ends. */
export function tempDir(prefix = "ecp-test-"): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  created.push(dir);
  return dir;
}
