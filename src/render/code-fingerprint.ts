import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/**
 * A digest of the code that renders the files: every source file of the
 * project and the installed packages' versions (npm's record of
 * node_modules). A file kept because its inputs are unchanged
 * (FileWriter.keepUnchanged) is then never one an older version rendered:
 * an upgrade, or any edit of the code, renders everything once.
 */
export function codeFingerprint(): string {
  fingerprint ??= computeFingerprint();
  return fingerprint;
}

let fingerprint: string | undefined;

const SOURCE_DIR = join(import.meta.dirname, "..");
const PROJECT_DIR = join(SOURCE_DIR, "..");

function computeFingerprint(): string {
  const digest = createHash("sha256");
  for (const path of sourceFiles(SOURCE_DIR)) {
    digest
      .update(path)
      .update("\0")
      .update(readFileSync(join(SOURCE_DIR, path)))
      .update("\0");
  }
  // npm writes node_modules/.package-lock.json on every install: the versions in place.
  for (const lock of ["node_modules/.package-lock.json", "package-lock.json"]) {
    const path = join(PROJECT_DIR, lock);
    if (existsSync(path)) digest.update(lock).update("\0").update(readFileSync(path));
  }
  return digest.digest("base64url").slice(0, 22);
}

/** Every file under `root`, by relative path with "/", in one order on every machine. */
function sourceFiles(root: string): string[] {
  const entries = readdirSync(root, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) =>
      join(entry.parentPath, entry.name)
        .slice(root.length + 1)
        .replaceAll("\\", "/"),
    )
    .sort();
}
