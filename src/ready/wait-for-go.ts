import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import type { Readable } from "node:stream";
import { codeFingerprint, codeFingerprintNow } from "../code-fingerprint.ts";
import { envFilePath } from "../config/env-file.ts";

/** A build told to go that started under other code or another .env: started again (EX_TEMPFAIL). */
export const STARTED_UNDER_OTHER_CODE = 75;

/** The line that tells a build started ahead to go. */
export const GO = "go";

/** The longest unfinished line kept while waiting: "go" with room for spaces around it. */
const GO_LINE_LIMIT = 64;

/**
 * Waits for the line "go" on `input`: true then, false when the input ends
 * first (the build was not needed, and does nothing). Other lines are
 * ignored. The input is released either way, so that it keeps the build
 * running no longer.
 */
export function waitForGo(input: Readable): Promise<boolean> {
  return new Promise((resolve) => {
    let text = "";
    const settle = (go: boolean) => {
      input.off("data", onData);
      input.off("end", onEnd);
      input.off("error", onEnd);
      input.destroy();
      resolve(go);
    };
    const onData = (chunk: Buffer | string) => {
      text += String(chunk);
      const lines = text.split("\n");
      // What follows the last line's end, kept no longer than a go line can be: a line without end costs nothing.
      text = (lines.pop() ?? "").slice(-GO_LINE_LIMIT);
      if (lines.some((line) => line.trim() === GO)) settle(true);
    };
    const onEnd = () => settle(text.trim() === GO);
    input.on("data", onData);
    input.once("end", onEnd);
    input.once("error", onEnd);
  });
}

/**
 * What a process started under: the code's fingerprint as it loaded it, and
 * the .env file it read its settings from. A build that waited is run by the
 * code it loaded, with those settings; if either changed since on disk, it
 * must not build (`stillCurrent` is false): the command that started it
 * starts a build afresh instead.
 */
export function startedUnder(env: NodeJS.ProcessEnv = process.env): () => boolean {
  const settings = envFileDigest(env);
  const code = codeFingerprint();
  return () => codeFingerprintNow() === code && envFileDigest(env) === settings;
}

function envFileDigest(env: NodeJS.ProcessEnv): string {
  const path = envFilePath(env);
  if (!path) return "none";
  try {
    return createHash("sha256").update(readFileSync(path)).digest("base64url");
  } catch {
    return "unreadable";
  }
}
