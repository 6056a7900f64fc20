import { mkdir, rename, writeFile } from "node:fs/promises";
import { dirname } from "node:path";

/**
 * Writes a new file in place of `path`, whole or not at all: into a
 * temporary file beside it, then renamed over it, so a reader (the next
 * build, a host uploading the folder) sees the old bytes or the new ones.
 */
export async function replaceFile(path: string, content: string | Uint8Array): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, content);
  await rename(temporary, path);
}
