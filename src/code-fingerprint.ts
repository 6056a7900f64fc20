import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

/**
 * A digest of the code that makes the outputs: every file of src/ and
 * templates/, .eleventy.js, and the installed packages' versions (npm's
 * record of node_modules). What is kept between builds because its inputs
 * are unchanged (a file the writer keeps as published, a normalized event)
 * is keyed by it too, so nothing an older version made is ever reused: an
 * upgrade, or any edit of the code or a template, makes everything once.
 */
export function codeFingerprint(): string {
  fingerprint ??= computeFingerprint();
  return fingerprint;
}

/** The fingerprint of the code on disk now, which a process started earlier may not be running. */
export function codeFingerprintNow(): string {
  return computeFingerprint();
}

let fingerprint: string | undefined;

const PROJECT_DIR = join(import.meta.dirname, "..");
const CODE = ["src", "templates", ".eleventy.js"];
// npm writes node_modules/.package-lock.json on every install: the versions in place.
const VERSIONS = ["node_modules/.package-lock.json", "package-lock.json"];

function computeFingerprint(): string {
  const digest = createHash("sha256");
  for (const path of [...CODE.flatMap(filesOf), ...VERSIONS]) {
    const file = join(PROJECT_DIR, path);
    if (existsSync(file)) digest.update(path).update("\0").update(readFileSync(file)).update("\0");
  }
  return digest.digest("base64url").slice(0, 22);
}

/** A file, or every file under a folder, by path from the project with "/", in one order on every machine. */
function filesOf(path: string): string[] {
  const full = join(PROJECT_DIR, path);
  if (!existsSync(full)) return [];
  if (statSync(full).isFile()) return [path];
  return readdirSync(full, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) =>
      join(entry.parentPath, entry.name)
        .slice(PROJECT_DIR.length + 1)
        .replaceAll("\\", "/"),
    )
    .sort();
}
