import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { atEachFileEnd } from "./file-end.ts";
import { SYSTEM_PYTHON } from "./system-packages.ts";
import { tempDir } from "./temp-dir.ts";

/*
 * A real SMTP server on a free port of 127.0.0.1 (Debian's aiosmtpd, through
 * python/smtp-sink.py) that keeps every message it is given, for what sends
 * mail. Tests that use it check hasPythonModule("aiosmtpd") first
 * (system-packages.ts). Stopped when the test file ends.
 */

export interface SmtpSink {
  readonly port: number;
  /** The folder the messages are saved in: <n>.eml and <n>.json. */
  readonly folder: string;
  /** The messages received so far, in order: their files and envelopes. */
  received(): ReceivedMail[];
  stop(): Promise<void>;
}

export interface ReceivedMail {
  /** The message's bytes as the server received them. */
  readonly file: string;
  readonly mailFrom: string;
  readonly rcptTos: readonly string[];
  /** Who logged in with AUTH, or null. */
  readonly login: string | null;
}

const running = new Set<ChildProcessWithoutNullStreams>();

atEachFileEnd(() => Promise.all([...running].map(stopSink)));

/** Starts the server; with credentials it requires AUTH with exactly those. */
export function startSmtpSink(
  credentials: { user: string; password: string } | null = null,
): Promise<SmtpSink> {
  const folder = tempDir("ecp-smtp-");
  const script = join(import.meta.dirname, "python", "smtp-sink.py");
  const args = [script, folder, ...(credentials ? [credentials.user, credentials.password] : [])];
  const child = spawn(SYSTEM_PYTHON, args, { stdio: ["pipe", "pipe", "pipe"] });
  running.add(child);
  return new Promise((resolve, reject) => {
    let stdout = "";
    let stderr = "";
    const timer = setTimeout(() => fail(new Error("smtp-sink.py did not start in 20 s")), 20_000);
    const fail = (error: Error) => {
      clearTimeout(timer);
      void stopSink(child);
      reject(error);
    };
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    child.on("exit", (code) => fail(new Error(`smtp-sink.py exited (${code}): ${stderr}`)));
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
      const port = /^PORT (\d+)$/m.exec(stdout)?.[1];
      if (!port) return;
      clearTimeout(timer);
      child.removeAllListeners("exit");
      resolve({
        port: Number(port),
        folder,
        received: () => receivedIn(folder),
        stop: () => stopSink(child),
      });
    });
  });
}

function receivedIn(folder: string): ReceivedMail[] {
  return readdirSync(folder)
    .filter((name) => name.endsWith(".json"))
    .map((name) => Number(name.slice(0, -5)))
    .sort((a, b) => a - b)
    .map((n) => {
      const envelope = JSON.parse(readFileSync(join(folder, `${n}.json`), "utf8")) as Omit<
        ReceivedMail,
        "file"
      >;
      return { ...envelope, file: join(folder, `${n}.eml`) };
    });
}

/** Closes its standard input (it stops then), and kills it if it has not within 5 s. */
function stopSink(child: ChildProcessWithoutNullStreams): Promise<void> {
  running.delete(child);
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    child.stdin.end();
  });
}
