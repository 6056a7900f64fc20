import { getStore } from "@netlify/blobs";
import { readSigningKey } from "../config/fediverse.ts";
import { readSiteConfig } from "../config/site.ts";
import { ConfigError } from "../errors.ts";
import { type Account, accountOf } from "./account.ts";
import { ACTIVITY_JSON } from "./activity-context.ts";
import { runDeliveries, type Signer } from "./delivery-queue.ts";
import { type BlobStore, FollowerStore } from "./follower-store.ts";
import { handleInbox } from "./inbox.ts";
import { unseenActivities } from "./outbox-reader.ts";
import { RemoteServers } from "./remote-servers.ts";

/**
 * What the account's host functions run (netlify/functions: the inbox, the
 * followers collection, the delivery after a deploy and the scheduled one),
 * from the Functions scope's settings: SITE_URL, AP_USERNAME and
 * AP_PRIVATE_KEY (or AP_PRIVATE_KEY_FILE), read once per request. The store
 * is Netlify Blobs' site-wide store "fediverse", strongly consistent so that
 * a follow is seen by the next delivery; tests give a store of their own and
 * loopback servers.
 */

export interface AccountFunctionOptions {
  readonly store?: BlobStore;
  readonly remote?: RemoteServers;
  readonly now?: () => Date;
}

interface Runtime {
  readonly account: Account;
  readonly signer: Signer;
  readonly store: BlobStore;
  readonly remote: RemoteServers;
}

/** The account's settings and store; null without a key (no account). */
function runtimeOf(env: NodeJS.ProcessEnv, options: AccountFunctionOptions): Runtime | null {
  const site = readSiteConfig(env);
  const privateKey = readSigningKey(env);
  if (!site.fediverse) return null;
  if (!privateKey) {
    throw new ConfigError(
      "AP_PRIVATE_KEY is not set for the Functions scope: the account cannot sign (set AP_PRIVATE_KEY, or AP_PRIVATE_KEY_FILE, for Builds and Functions).",
    );
  }
  const account = accountOf(site, site.fediverse.username);
  return {
    account,
    signer: { keyId: account.keyId, privateKey },
    store: options.store ?? (getStore({ name: "fediverse", consistency: "strong" }) as BlobStore),
    remote: options.remote ?? new RemoteServers(),
  };
}

/** POST /ap/inbox. */
export async function inboxResponse(
  request: Request,
  env: NodeJS.ProcessEnv,
  options: AccountFunctionOptions = {},
): Promise<Response> {
  const runtime = runtimeOf(env, options);
  if (!runtime) return new Response("no fediverse account here\n", { status: 404 });
  const log = (line: string) => console.log(`ap-inbox ${new Date().toISOString()}: ${line}`);
  return handleInbox(request, { ...runtime, now: options.now, log });
}

/**
 * GET /ap/followers: how many, not who (as Mastodon answers for an account
 * that hides its network): a follower's handle is theirs to show.
 */
export async function followersResponse(
  env: NodeJS.ProcessEnv,
  options: AccountFunctionOptions = {},
): Promise<Response> {
  const runtime = runtimeOf(env, options);
  if (!runtime) return new Response("no fediverse account here\n", { status: 404 });
  const total = await new FollowerStore(runtime.store).count();
  const collection = {
    "@context": "https://www.w3.org/ns/activitystreams",
    id: runtime.account.followers,
    type: "OrderedCollection",
    totalItems: total,
  };
  return new Response(`${JSON.stringify(collection)}\n`, {
    headers: { "content-type": ACTIVITY_JSON, "access-control-allow-origin": "*" },
  });
}

/**
 * The deploy's (or a scheduled run's) delivery: the activities of `published`'s
 * outbox not yet handled are queued for every follower's server, and what is
 * due is delivered until `deadlineMs` from now. True when the run could do
 * its work; a follower's server that fails is retried later, not a failure.
 */
export async function deliverToFollowers(
  published: string,
  env: NodeJS.ProcessEnv,
  log: (line: string) => void,
  options: AccountFunctionOptions & { readonly deadlineMs?: number } = {},
): Promise<boolean> {
  const runtime = runtimeOf(env, options);
  if (!runtime) {
    log("no fediverse account (AP_PRIVATE_KEY is not set); nothing to deliver");
    return true;
  }
  const now = options.now ?? (() => new Date());
  try {
    await runDeliveries({
      store: runtime.store,
      remote: runtime.remote,
      signer: runtime.signer,
      newActivities: (seen) => unseenActivities(published, seen),
      deadline: now().getTime() + (options.deadlineMs ?? DELIVERY_DEADLINE_MS),
      now,
      log,
    });
    return true;
  } finally {
    if (!options.remote) await runtime.remote.close();
  }
}

/**
 * How long a run starts deliveries: a Netlify function has about 30 s, the
 * deploy's shares them with the WebSub ping, and a request may take 5 s more.
 */
export const DELIVERY_DEADLINE_MS = 15_000;
