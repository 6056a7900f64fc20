import { setTimeout as sleep } from "node:timers/promises";

export interface WaitOptions {
  /**
   * How long to wait at most, in real time: only a hang should reach it, so
   * it is far beyond what the work takes on a slow, busy machine.
   */
  readonly limitMs?: number;
  /** Why the wait can end now without success (a process that exited), or null. */
  readonly failed?: () => string | null;
}

/**
 * Waits for something a test cannot be told about (a server that starts
 * answering, a socket that appears): asks `ready` again after each short
 * pause until it says yes, `failed` says why it never will, or the limit
 * passes.
 */
export async function waitUntil(
  what: string,
  ready: () => boolean | Promise<boolean>,
  { limitMs = 300_000, failed }: WaitOptions = {},
): Promise<void> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    const reason = failed?.();
    if (reason) throw new Error(`${what}: ${reason}`);
    if (await ready()) return;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${limitMs / 1000} s`);
    await sleep(100);
  }
}
