import { readdirSync, readFileSync } from "node:fs";
import { mkdir, readdir, writeFile } from "node:fs/promises";
import { dirname, join, relative, sep } from "node:path";

/** Every file below root, as a site-relative path with forward slashes, sorted. */
export async function listFiles(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(root, join(entry.parentPath, entry.name)).split(sep).join("/"))
    .sort();
}

/** listFiles(), synchronously. */
export function listFilesSync(root: string): string[] {
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(root, join(entry.parentPath, entry.name)).split(sep).join("/"))
    .sort();
}

/** Names (relative to dir) and contents of every file below dir. */
export function filesWithContent(dir: string): { name: string; content: string }[] {
  return listFilesSync(dir).map((name) => ({
    name,
    content: readFileSync(join(dir, name), "utf8"),
  }));
}

/** Every file's bytes (base64) by its path below root, with forward slashes. */
export function fileBytesSync(root: string): Map<string, string> {
  return new Map(
    listFilesSync(root).map((path) => [path, readFileSync(join(root, path)).toString("base64")]),
  );
}

/** A file of a built site, as text. */
export const readSiteFile = (dir: string, file: string): string =>
  readFileSync(join(dir, file), "utf8");

/** Writes `files` (site-relative path -> content) below root, making folders as needed. */
export async function writeTree(
  root: string,
  files: Readonly<Record<string, string>>,
): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), content);
  }
}
