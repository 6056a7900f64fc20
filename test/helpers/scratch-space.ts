import { statfsSync } from "node:fs";
import { tmpdir } from "node:os";

/** statfs(2)'s type of Linux's tmpfs. */
const TMPFS = 0x01021994;
/** What the suite's folders take at most at once (two files' builds and browsers), with room to spare. */
const ROOM = 4 * 1024 ** 3;

/**
 * Where the tests' temporary folders go (builds, caches, browser profiles,
 * and whatever the commands they run put in TMPDIR): the folder TMPDIR
 * names, when it is set; otherwise /dev/shm where it is a tmpfs with room
 * for them, else the system's temporary folder. A build writes a file for
 * each page: in memory the 180-event build of
 * integration/incremental-equals-full takes 2.0-2.1 s, against 2.9-3.2 s on
 * this project's ext4 disk (test/README.md, "Time"). Nothing a test checks
 * depends on where its folders are.
 */
export function scratchSpace(env: NodeJS.ProcessEnv = process.env): string {
  if (env.TMPDIR) return env.TMPDIR;
  try {
    const shm = statfsSync("/dev/shm");
    if (shm.type === TMPFS && shm.bavail * shm.bsize >= ROOM) return "/dev/shm";
  } catch {
    // No /dev/shm here (macOS, Windows).
  }
  return tmpdir();
}
