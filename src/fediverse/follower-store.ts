import { createHash } from "node:crypto";

/**
 * What the account keeps between requests, in a key-value store of the host
 * (Netlify Blobs; its local BlobsServer in tests): one entry per follower,
 * one per reply that could not be delivered at once, and the delivery queue
 * (delivery-queue.ts). One entry per follower rather than one list, so that
 * two follows at the same moment cannot overwrite each other.
 */

/** The part of @netlify/blobs' `Store` this uses (its own type fits). */
export interface BlobStore {
  get(key: string, options: { type: "json" }): Promise<unknown>;
  getWithMetadata(
    key: string,
    options: { type: "json" },
  ): Promise<{ data: unknown; etag?: string } | null>;
  setJSON(
    key: string,
    data: unknown,
    options?: { onlyIfNew?: boolean } | { onlyIfMatch?: string },
  ): Promise<{ modified: boolean; etag?: string }>;
  delete(key: string): Promise<void>;
  list(options: { prefix: string }): Promise<{ blobs: readonly { key: string }[] }>;
}

export interface Follower {
  /** The follower's actor id. */
  readonly id: string;
  readonly inbox: string;
  /** Its server's shared inbox, where one delivery reaches all its followers there. */
  readonly sharedInbox: string | null;
  /** The Follow activity's id (an Undo names it). */
  readonly follow: string;
  /** ISO 8601, UTC. */
  readonly followedAt: string;
}

/**
 * At most this many followers: every delivery reads them all and posts to
 * each server, within one function's time. Past it a Follow is refused
 * (docs/followers.md, "What is bounded").
 */
export const MAX_FOLLOWERS = 5_000;

const FOLLOWERS = "followers/";

export const keyOf = (prefix: string, id: string) =>
  `${prefix}${createHash("sha256").update(id).digest("base64url")}`;

export class FollowerStore {
  constructor(readonly store: BlobStore) {}

  async add(follower: Follower): Promise<"added" | "known" | "full"> {
    const key = keyOf(FOLLOWERS, follower.id);
    const known = await this.store.get(key, { type: "json" });
    if (known) {
      await this.store.setJSON(key, follower);
      return "known";
    }
    if ((await this.count()) >= MAX_FOLLOWERS) return "full";
    await this.store.setJSON(key, follower);
    return "added";
  }

  /** Removes a follower; with `follow`, only if that is the Follow it is following by. */
  async remove(actorId: string, follow?: string): Promise<boolean> {
    const key = keyOf(FOLLOWERS, actorId);
    const known = parseFollower(await this.store.get(key, { type: "json" }));
    if (!known || (follow !== undefined && known.follow !== follow)) return false;
    await this.store.delete(key);
    return true;
  }

  async count(): Promise<number> {
    return (await this.store.list({ prefix: FOLLOWERS })).blobs.length;
  }

  /** Every follower, read a few at a time. */
  async all(): Promise<Follower[]> {
    const keys = (await this.store.list({ prefix: FOLLOWERS })).blobs.map((blob) => blob.key);
    const found: Follower[] = [];
    for (let start = 0; start < keys.length; start += 16) {
      const batch = await Promise.all(
        keys.slice(start, start + 16).map((key) => this.store.get(key, { type: "json" })),
      );
      for (const raw of batch) {
        const follower = parseFollower(raw);
        if (follower) found.push(follower);
      }
    }
    return found;
  }
}

function parseFollower(raw: unknown): Follower | null {
  if (typeof raw !== "object" || raw === null) return null;
  const { id, inbox, sharedInbox, follow, followedAt } = raw as Record<string, unknown>;
  if (typeof id !== "string" || typeof inbox !== "string" || typeof follow !== "string") {
    return null;
  }
  return {
    id,
    inbox,
    sharedInbox: typeof sharedInbox === "string" ? sharedInbox : null,
    follow,
    followedAt: typeof followedAt === "string" ? followedAt : new Date(0).toISOString(),
  };
}
