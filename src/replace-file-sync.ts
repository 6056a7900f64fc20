import { closeSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from "node:fs";
import { dirname } from "node:path";

/**
 * Writes a new file in place of `path`, whole or not at all, as
 * src/publish/replace-file.ts does, but synchronously and in pieces:
 * `write` is given a function that appends a text, so a large file (the
 * file list, the page record: tens of megabytes at 100,000 events) is
 * never one text in memory. Into a temporary file beside it, then renamed
 * over it; on a failure the temporary file is removed and the error thrown.
 */
export function replaceFileSync(
  path: string,
  write: (append: (text: string) => void) => void,
): void {
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  let fd: number | null = openSync(temporary, "w");
  try {
    const open = fd;
    write((text) => {
      writeSync(open, text);
    });
    closeSync(open);
    fd = null;
    renameSync(temporary, path);
  } catch (error) {
    if (fd !== null) closeSync(fd);
    rmSync(temporary, { force: true });
    throw error;
  }
}
