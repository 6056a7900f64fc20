/**
 * What the scheduled check remembers of the build it last requested, so that
 * it can run every minute: while a requested build runs, the published site
 * still shows the old state, and every check in between would find the same
 * change and queue one more build. With this memory a check that sees exactly
 * what it saw when it requested a build (the digest `seen` of the lists and
 * of the date-relative moment due, check-portal.ts) requests none, until the
 * build is published or `REQUESTED_BUILD_WAIT_MS` has passed (a build that
 * failed is requested again then). Anything new in the portal gives another
 * digest, and its own build. Kept in the host's key-value store (Netlify
 * Blobs); a store that cannot be read or written costs the memory, never the
 * check.
 */

/** The build last requested: what the check saw, and when (ISO 8601). */
export interface RequestedBuild {
  readonly seen: string;
  readonly at: string;
}

export interface RequestedBuildMemory {
  last(): Promise<RequestedBuild | null>;
  remember(build: RequestedBuild): Promise<void>;
}

/**
 * How long a requested build may take to be published before the same change
 * requests it again: longer than a cold build of a large site on the host
 * (docs/deploy.md, "A check every minute"), short enough that a failed build
 * is retried within the half hour.
 */
export const REQUESTED_BUILD_WAIT_MS = 20 * 60_000;

/** The part of @netlify/blobs' `Store` the memory uses (its own type fits). */
export interface JsonStore {
  get(key: string, options: { type: "json" }): Promise<unknown>;
  setJSON(key: string, data: unknown): Promise<unknown>;
}

const KEY = "requested-build";

/** Each read or write of the store gets this long: the function has 30 seconds in all. */
const STORE_TIMEOUT_MS = 3_000;

/** The memory in the host's store, each read or write given `timeoutMs`. */
export function storedMemory(store: JsonStore, timeoutMs = STORE_TIMEOUT_MS): RequestedBuildMemory {
  const within = <T>(work: Promise<T>) => withinTime(work, timeoutMs);
  return {
    async last() {
      const value = (await within(
        store.get(KEY, { type: "json" }),
      )) as Partial<RequestedBuild> | null;
      return typeof value?.seen === "string" && typeof value.at === "string"
        ? { seen: value.seen, at: value.at }
        : null;
    },
    async remember(build) {
      await within(store.setJSON(KEY, build));
    },
  };
}

function withinTime<T>(work: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () => reject(new Error(`no answer within ${timeoutMs / 1000} s`)),
      timeoutMs,
    );
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/** The moment a build for exactly `seen` was requested and may still be under way; null if none. */
export function pendingSince(
  last: RequestedBuild | null,
  seen: string,
  nowMs: number,
): string | null {
  if (!last || last.seen !== seen) return null;
  const age = nowMs - Date.parse(last.at);
  return age >= 0 && age < REQUESTED_BUILD_WAIT_MS ? last.at : null;
}
