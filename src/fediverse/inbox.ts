import { createHash } from "node:crypto";
import type { Account } from "./account.ts";
import { type ActivityDocument, postSigned, queueReply, type Signer } from "./delivery-queue.ts";
import { type BlobStore, FollowerStore } from "./follower-store.ts";
import { parseSignature, SignatureRejected } from "./http-signature.ts";
import { RemoteRefused, type RemoteServers, readBounded } from "./remote-servers.ts";

/**
 * The account's inbox (ActivityPub section 5.2; netlify/functions/ap-inbox.mts
 * serves it at /ap/inbox, as the actor's inbox and shared inbox). It takes
 * what following needs and nothing else:
 *
 * - every request must be signed (http-signature.ts): by a key fetched from
 *   the signer's actor, of the actor the activity names, with a fresh Date
 *   and the body's digest; anything else is refused with 401 and why;
 * - `Follow` of this account: the follower is kept (follower-store.ts) and
 *   answered with a signed `Accept` to its inbox (queued for the next
 *   delivery run if its server does not take it now); a Follow past
 *   MAX_FOLLOWERS is answered with `Reject`;
 * - `Undo` of that Follow: the follower is forgotten;
 * - anything else signed is acknowledged (202) and dropped: the site has no
 *   timeline, replies or likes to keep.
 */

export interface InboxOptions {
  readonly account: Account;
  readonly signer: Signer;
  readonly store: BlobStore;
  readonly remote: RemoteServers;
  /** The receiver's clock, which the signature's Date must be near. */
  readonly now?: () => Date;
  readonly log?: (line: string) => void;
}

/** An activity is a few kilobytes; a larger body is refused unread. */
export const MAX_INBOX_BYTES = 64 * 1024;

export async function handleInbox(request: Request, options: InboxOptions): Promise<Response> {
  const now = options.now ?? (() => new Date());
  const log = options.log ?? (() => undefined);
  if (request.method !== "POST") {
    return answer(405, "the inbox takes signed POSTs of activities", { allow: "POST" });
  }
  const length = Number(request.headers.get("content-length") ?? "0");
  if (length > MAX_INBOX_BYTES) return answer(413, `at most ${MAX_INBOX_BYTES} bytes`);
  let text: string;
  try {
    text = await readBounded(request.body, MAX_INBOX_BYTES, "the activity");
  } catch (error) {
    if (error instanceof RemoteRefused) return answer(413, `at most ${MAX_INBOX_BYTES} bytes`);
    throw error;
  }
  const body = Buffer.from(text, "utf8");
  let signer: RemoteActor;
  try {
    const signature = parseSignature(
      { method: request.method, url: request.url, headers: request.headers, body },
      now(),
    );
    signer = await remoteActorOfKey(signature.keyId, options.remote);
    signature.verifyWith(signer.publicKeyPem);
  } catch (error) {
    if (!(error instanceof SignatureRejected || error instanceof RemoteRefused)) throw error;
    log(`refused: ${error.message}`);
    return answer(401, `signature refused: ${error.message}`);
  }
  let activity: Record<string, unknown>;
  try {
    activity = JSON.parse(text) as Record<string, unknown>;
    if (typeof activity !== "object" || activity === null) throw new Error("not an object");
  } catch {
    return answer(400, "the body is not a JSON object");
  }
  if (idOf(activity.actor) !== signer.id) {
    log(`refused: ${signer.id} signed an activity of ${String(idOf(activity.actor))}`);
    return answer(401, "signature refused: the activity is not the signer's");
  }
  const followers = new FollowerStore(options.store);
  if (activity.type === "Follow" && idOf(activity.object) === options.account.actor) {
    const follow = idOf(activity);
    if (!follow) return answer(400, "a Follow needs an id");
    const added = await followers.add({
      id: signer.id,
      inbox: signer.inbox,
      sharedInbox: signer.sharedInbox,
      follow,
      followedAt: now().toISOString(),
    });
    const reply = added === "full" ? "Reject" : "Accept";
    log(`${signer.id} follows (${added}); ${reply} sent`);
    await sendReply(reply, activity, signer.inbox, options, now(), log);
    return answer(202, `${reply}ed`);
  }
  if (activity.type === "Undo" && typeof activity.object === "object" && activity.object) {
    const inner = activity.object as Record<string, unknown>;
    if (inner.type === "Follow" && idOf(inner.object) === options.account.actor) {
      const removed = await followers.remove(signer.id);
      log(`${signer.id} unfollows${removed ? "" : " (was not following)"}`);
      return answer(202, "unfollowed");
    }
  }
  return answer(202, "accepted, and nothing to do with it");
}

/** An Accept or Reject of a Follow, posted to the follower's inbox, queued if that fails now. */
async function sendReply(
  type: "Accept" | "Reject",
  follow: Record<string, unknown>,
  inbox: string,
  options: InboxOptions,
  at: Date,
  log: (line: string) => void,
): Promise<void> {
  const reply: ActivityDocument = {
    "@context": "https://www.w3.org/ns/activitystreams",
    id: `${options.account.actor}#${type.toLowerCase()}-${createHash("sha256").update(String(follow.id)).digest("hex").slice(0, 32)}`,
    type,
    actor: options.account.actor,
    object: follow,
  };
  try {
    const status = await postSigned(options, inbox, reply, at);
    if (status >= 200 && status < 300) return;
    log(`${inbox}: HTTP ${status} for the ${type}; queued for the next delivery run`);
  } catch (error) {
    if (!(error instanceof RemoteRefused)) throw error;
    log(`${error.message}; the ${type} is queued for the next delivery run`);
  }
  await queueReply(options.store, reply, inbox);
}

interface RemoteActor {
  readonly id: string;
  readonly inbox: string;
  readonly sharedInbox: string | null;
  readonly publicKeyPem: string;
}

/**
 * The actor that owns the key `keyId`, with that key: keyId is the actor's
 * id with a fragment (Mastodon, Fedify), or the address of a key document
 * that names its owner. The key must be one the actor itself lists.
 */
async function remoteActorOfKey(keyId: string, remote: RemoteServers): Promise<RemoteActor> {
  const document = asObject(await remote.getJson(keyId));
  let actor = document;
  if (!("inbox" in document)) {
    const owner = idOf(document.owner);
    if (!owner) throw new SignatureRejected(`${keyId} names no owner`);
    actor = asObject(await remote.getJson(owner));
  }
  const keys = [actor.publicKey].flat().map(asObject);
  const key = keys.find((candidate) => candidate.id === keyId);
  const id = idOf(actor);
  const inbox = idOf(actor.inbox);
  if (!key || typeof key.publicKeyPem !== "string" || !id || !inbox) {
    throw new SignatureRejected(`the actor of ${keyId} does not list that key`);
  }
  if (idOf(key.owner) !== undefined && idOf(key.owner) !== id) {
    throw new SignatureRejected(`${keyId} belongs to another actor`);
  }
  const endpoints = asObject(actor.endpoints);
  return {
    id,
    inbox,
    sharedInbox: idOf(endpoints.sharedInbox) ?? null,
    publicKeyPem: key.publicKeyPem,
  };
}

function asObject(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

/** An object's id: the string itself, or its `id`. */
function idOf(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  const id = asObject(value).id;
  return typeof id === "string" ? id : undefined;
}

function answer(status: number, text: string, headers: Record<string, string> = {}): Response {
  return new Response(`${text}\n`, {
    status,
    headers: { "content-type": "text/plain; charset=utf-8", ...headers },
  });
}
