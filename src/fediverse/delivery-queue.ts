import type { KeyObject } from "node:crypto";
import { type BlobStore, FollowerStore, keyOf } from "./follower-store.ts";
import { signedPostHeaders } from "./http-signature.ts";
import { RemoteRefused, type RemoteServers } from "./remote-servers.ts";

/**
 * Delivering the account's activities to its followers (ActivityPub section
 * 7), within what one function may do. New activities are queued once per
 * inbox (a server's shared inbox when it offers one: one delivery reaches
 * all its followers there); each run of the deploy's function or the
 * scheduled one delivers what is due until its deadline or its count is
 * reached, and keeps the rest, with what failed for a server that may come
 * back, for the next run (docs/followers.md, "Delivery").
 *
 * One run at a time holds the queue (a lease in the store, taken with a
 * conditional write); another that starts meanwhile leaves it alone.
 */

/** An activity ready to post: with its @context, signed at each attempt. */
export type ActivityDocument = Readonly<Record<string, unknown>> & { readonly id: string };

interface Delivery {
  readonly activity: string;
  readonly inbox: string;
  readonly attempts: number;
  /** Not before this (ISO 8601): the back-off after a failure. */
  readonly notBefore: string;
}

interface QueueDocument {
  readonly version: 1;
  /**
   * The ids of the outbox's activities already handled (queued, or there
   * before the account had followers); null before the first run, which
   * queues nothing: whatever was published before it is not news to anyone.
   */
  readonly seen: readonly string[] | null;
  readonly activities: Readonly<Record<string, ActivityDocument>>;
  readonly deliveries: readonly Delivery[];
}

const QUEUE = "delivery/queue";
/** Twice the activities an outbox holds (src/changes/event-activity.ts, MAX_ACTIVITIES). */
const MAX_SEEN = 2_000;
const LEASE = "delivery/lease";
const OUTGOING = "outgoing/";

/** Bounds of the queue, and of one run (docs/followers.md, "What is bounded"). */
export const DELIVERY_LIMITS = {
  /** Deliveries kept waiting: past it the oldest are dropped, with a line. */
  queued: 10_000,
  /** Attempts of one delivery, a back-off apart, before it is given up. */
  attempts: 10,
  /** Requests one run makes at most. */
  requests: 500,
  /** Requests at once. */
  parallel: 4,
  /** How long a run holds the queue: a Netlify function lives at most 30 s. */
  leaseMs: 60_000,
} as const;

export interface Signer {
  readonly keyId: string;
  readonly privateKey: KeyObject;
}

export interface DeliveryRunOptions {
  readonly store: BlobStore;
  readonly remote: RemoteServers;
  readonly signer: Signer;
  /**
   * The outbox's activities not in `seen`, newest first, and the ids of all
   * it read (it may stop at a page it has seen all of).
   */
  readonly newActivities: (
    seen: ReadonlySet<string>,
  ) => Promise<{ activities: readonly ActivityDocument[]; read: readonly string[] }>;
  /** When the run must stop starting requests (ms since the epoch). */
  readonly deadline: number;
  readonly now?: () => Date;
  readonly log: (line: string) => void;
}

export interface DeliveryRunResult {
  readonly delivered: number;
  readonly failed: number;
  readonly waiting: number;
}

/** A reply (an Accept) that could not be posted at once: the next run takes it. */
export async function queueReply(
  store: BlobStore,
  activity: ActivityDocument,
  inbox: string,
): Promise<void> {
  await store.setJSON(keyOf(OUTGOING, `${activity.id} ${inbox}`), { activity, inbox });
}

export async function runDeliveries(options: DeliveryRunOptions): Promise<DeliveryRunResult> {
  const now = options.now ?? (() => new Date());
  const { store, log } = options;
  if (!(await takeLease(store, now()))) {
    log("another delivery run holds the queue; this one leaves it to it");
    return { delivered: 0, failed: 0, waiting: 0 };
  }
  try {
    const queue = await readQueue(store);
    const activities = new Map(Object.entries(queue.activities));
    const deliveries: Delivery[] = [...queue.deliveries];
    const due = (inbox: string, activity: ActivityDocument) => {
      activities.set(activity.id, activity);
      deliveries.push({
        activity: activity.id,
        inbox,
        attempts: 0,
        notBefore: now().toISOString(),
      });
    };
    for (const { key } of (await store.list({ prefix: OUTGOING })).blobs) {
      const reply = (await store.get(key, { type: "json" })) as {
        activity?: ActivityDocument;
        inbox?: string;
      } | null;
      if (reply?.activity && typeof reply.inbox === "string") due(reply.inbox, reply.activity);
      await store.delete(key);
    }
    const followers = await new FollowerStore(store).all();
    const found = await options.newActivities(new Set(queue.seen ?? []));
    const inboxes = [...new Set(followers.map((f) => f.sharedInbox ?? f.inbox))].sort();
    const fresh = queue.seen === null ? [] : found.activities;
    if (queue.seen === null) {
      log(`first run: the ${found.read.length} activities published so far are not delivered`);
    }
    for (const activity of [...fresh].reverse()) {
      for (const inbox of inboxes) due(inbox, activity);
    }
    if (fresh.length > 0) {
      log(
        `${fresh.length} new activities for ${inboxes.length} inboxes (${followers.length} followers)`,
      );
    }
    const dropped = deliveries.length - DELIVERY_LIMITS.queued;
    if (dropped > 0) {
      deliveries.splice(0, dropped);
      log(
        `the queue holds at most ${DELIVERY_LIMITS.queued} deliveries: ${dropped} oldest dropped`,
      );
    }
    const result = await deliver(deliveries, activities, options, now);
    const kept = result.kept;
    const used = new Set(kept.map((delivery) => delivery.activity));
    // What was seen and is still in the outbox's first pages, no more.
    const seen = [...new Set([...found.read, ...(queue.seen ?? [])])].slice(0, MAX_SEEN);
    await store.setJSON(QUEUE, {
      version: 1,
      seen,
      activities: Object.fromEntries([...activities].filter(([id]) => used.has(id))),
      deliveries: kept,
    } satisfies QueueDocument);
    log(
      `delivered ${result.delivered}, ${result.failed} failed for good, ${kept.length} waiting for a later run`,
    );
    return { delivered: result.delivered, failed: result.failed, waiting: kept.length };
  } finally {
    await store.delete(LEASE).catch(() => undefined);
  }
}

async function deliver(
  deliveries: readonly Delivery[],
  activities: ReadonlyMap<string, ActivityDocument>,
  options: DeliveryRunOptions,
  now: () => Date,
): Promise<{ kept: Delivery[]; delivered: number; failed: number }> {
  const kept: Delivery[] = [];
  const pending = [...deliveries];
  let requests = 0;
  let delivered = 0;
  let failed = 0;
  const worker = async () => {
    for (let delivery = pending.shift(); delivery; delivery = pending.shift()) {
      const activity = activities.get(delivery.activity);
      if (!activity) continue;
      const at = now();
      const late = at.getTime() >= options.deadline || requests >= DELIVERY_LIMITS.requests;
      if (late || Date.parse(delivery.notBefore) > at.getTime()) {
        kept.push(delivery);
        continue;
      }
      requests++;
      const outcome = await post(activity, delivery.inbox, options, at);
      if (outcome === "delivered") {
        delivered++;
      } else if (outcome === "refused" || delivery.attempts + 1 >= DELIVERY_LIMITS.attempts) {
        failed++;
        options.log(
          `${delivery.inbox}: ${activity.id} given up (${outcome === "refused" ? "refused" : `${DELIVERY_LIMITS.attempts} attempts`})`,
        );
      } else {
        const attempts = delivery.attempts + 1;
        // 2, 4, 8... minutes, at most 12 hours: ten attempts span about a day.
        const wait = Math.min(2 ** attempts * 60_000, 12 * 3_600_000);
        kept.push({
          ...delivery,
          attempts,
          notBefore: new Date(at.getTime() + wait).toISOString(),
        });
      }
    }
  };
  await Promise.all(Array.from({ length: DELIVERY_LIMITS.parallel }, worker));
  return { kept, delivered, failed };
}

/**
 * POSTs `activity` to `inbox`, signed with the account's key at `at`: the
 * answer's status, or RemoteRefused where the server may not be reached.
 */
export function postSigned(
  options: Pick<DeliveryRunOptions, "remote" | "signer">,
  inbox: string,
  activity: ActivityDocument,
  at: Date,
): Promise<number> {
  const body = JSON.stringify(activity);
  return options.remote.post(
    inbox,
    body,
    signedPostHeaders(inbox, body, { ...options.signer, now: at }),
  );
}

/** One signed POST: delivered, refused for good (a 4xx but 408 and 429), or to try again. */
async function post(
  activity: ActivityDocument,
  inbox: string,
  options: DeliveryRunOptions,
  at: Date,
): Promise<"delivered" | "refused" | "retry"> {
  try {
    const status = await postSigned(options, inbox, activity, at);
    if (status >= 200 && status < 300) return "delivered";
    options.log(`${inbox}: HTTP ${status} for ${activity.id}`);
    return status >= 400 && status < 500 && status !== 408 && status !== 429 ? "refused" : "retry";
  } catch (error) {
    if (!(error instanceof RemoteRefused)) throw error;
    options.log(error.message);
    return error.message.endsWith("not a public address") ? "refused" : "retry";
  }
}

async function readQueue(store: BlobStore): Promise<QueueDocument> {
  const raw = (await store.get(QUEUE, { type: "json" })) as Partial<QueueDocument> | null;
  return {
    version: 1,
    seen: Array.isArray(raw?.seen) ? raw.seen.filter((id) => typeof id === "string") : null,
    activities: raw?.activities && typeof raw.activities === "object" ? raw.activities : {},
    deliveries: Array.isArray(raw?.deliveries) ? raw.deliveries : [],
  };
}

/** Takes the queue for DELIVERY_LIMITS.leaseMs unless another run holds it. */
async function takeLease(store: BlobStore, at: Date): Promise<boolean> {
  const until = new Date(at.getTime() + DELIVERY_LIMITS.leaseMs).toISOString();
  const held = await store.getWithMetadata(LEASE, { type: "json" });
  if (!held) return (await store.setJSON(LEASE, { until }, { onlyIfNew: true })).modified;
  const { until: other } = (held.data ?? {}) as { until?: string };
  if (typeof other === "string" && Date.parse(other) > at.getTime()) return false;
  // Left by a run that was stopped: taken over, unless another run took it first.
  if (held.etag) {
    return (await store.setJSON(LEASE, { until }, { onlyIfMatch: held.etag })).modified;
  }
  // A store that gives no etag (Netlify Blobs' local server): removed, then taken anew.
  await store.delete(LEASE);
  return (await store.setJSON(LEASE, { until }, { onlyIfNew: true })).modified;
}
