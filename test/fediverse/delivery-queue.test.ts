import { generateKeyPairSync } from "node:crypto";
import { join } from "node:path";
import { getStore } from "@netlify/blobs";
import { BlobsServer } from "@netlify/blobs/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ActivityDocument, runDeliveries } from "../../src/fediverse/delivery-queue.ts";
import { type BlobStore, FollowerStore } from "../../src/fediverse/follower-store.ts";
import { RemoteServers } from "../../src/fediverse/remote-servers.ts";
import { NOW, NOW_MS } from "../helpers/clock.ts";
import { serveOnLoopback } from "../helpers/loopback-server.ts";
import { tempDir } from "../helpers/temp-dir.ts";

/*
 * Deliveries to followers' servers on loopback, each answering as a server
 * does when it takes an activity (202), refuses it (403) or is down for a
 * while (503), with the store on Netlify Blobs' local server and the tests'
 * clock moved by hand between runs.
 */

const activity = (n: number): ActivityDocument => ({
  "@context": "https://www.w3.org/ns/activitystreams",
  id: `https://events.example.org/ap/events/a/e${n}.json#create-20260320T120000Z`,
  type: "Create",
  actor: "https://events.example.org/ap/actor.json",
  object: `https://events.example.org/ap/events/a/e${n}.json`,
});

describe("runDeliveries", () => {
  let blobs: BlobsServer;
  let store: BlobStore;
  let remote: RemoteServers;
  let origin: string;
  const received: { path: string; id: string; signed: boolean }[] = [];
  let flakyUp = false;
  const log: string[] = [];
  const privateKey = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey;
  let outbox: ActivityDocument[] = [];
  const run = (at: number, deadline = at + 10_000) =>
    runDeliveries({
      store,
      remote,
      signer: { keyId: "https://events.example.org/ap/actor.json#main-key", privateKey },
      newActivities: async (seen) => ({
        activities: outbox.filter((item) => !seen.has(item.id)),
        read: outbox.map((item) => item.id),
      }),
      deadline,
      now: () => new Date(at),
      log: (line) => log.push(line),
    });

  beforeAll(async () => {
    const server = await serveOnLoopback((req, res) => {
      let body = "";
      req.on("data", (chunk) => {
        body += chunk;
      });
      req.on("end", () => {
        const id = (JSON.parse(body) as { id: string }).id;
        received.push({ path: req.url ?? "", id, signed: Boolean(req.headers.signature) });
        const status =
          req.url === "/gone/inbox" ? 403 : req.url === "/flaky/inbox" && !flakyUp ? 503 : 202;
        res.writeHead(status).end();
      });
    });
    origin = server.origin;
    blobs = new BlobsServer({ directory: join(tempDir(), "blobs"), port: 0, token: "t" });
    const { port } = await blobs.start();
    store = getStore({ name: "f", edgeURL: `http://127.0.0.1:${port}`, siteID: "s", token: "t" });
    remote = new RemoteServers({ allowPrivateAddresses: true, timeoutMs: 2_000 });
    const followers = new FollowerStore(store);
    const follower = (name: string, inbox: string, sharedInbox: string | null) =>
      followers.add({
        id: `${origin}/${name}`,
        inbox: `${origin}${inbox}`,
        sharedInbox: sharedInbox && `${origin}${sharedInbox}`,
        follow: `${origin}/${name}/follow`,
        followedAt: NOW,
      });
    // Two followers on one server with a shared inbox: one delivery for both.
    await follower("ann", "/ann/inbox", "/shared/inbox");
    await follower("bob", "/bob/inbox", "/shared/inbox");
    await follower("gone", "/gone/inbox", null);
    await follower("flaky", "/flaky/inbox", null);
  });

  afterAll(async () => {
    await remote?.close();
    await blobs?.stop();
  });

  it("should deliver nothing on its first run: what was published before is not news", async () => {
    outbox = [activity(1)];
    expect(await run(NOW_MS)).toEqual({ delivered: 0, failed: 0, waiting: 0 });
    expect(received).toEqual([]);
  });

  it("should post a new activity once per server, signed, give up on a refusal and keep what failed for later", async () => {
    outbox = [activity(2), activity(1)];
    const result = await run(NOW_MS + 60_000);
    expect(result).toEqual({ delivered: 1, failed: 1, waiting: 1 });
    expect(received.map((r) => [r.path, r.id.match(/e\d/)?.[0], r.signed]).sort()).toEqual([
      ["/flaky/inbox", "e2", true],
      ["/gone/inbox", "e2", true],
      ["/shared/inbox", "e2", true],
    ]);
    expect(log.join("\n")).toMatch(/gone\/inbox: .*e2\.json#create-\S+ given up \(refused\)/);
  });

  it("should not try again before the back-off, nor start past its deadline", async () => {
    received.length = 0;
    flakyUp = true;
    expect(await run(NOW_MS + 90_000)).toEqual({ delivered: 0, failed: 0, waiting: 1 });
    const later = NOW_MS + 60_000 + 2 * 60_000 + 1_000;
    expect(await run(later, later)).toEqual({ delivered: 0, failed: 0, waiting: 1 });
    expect(received).toEqual([]);
  });

  it("should deliver what waited once the server is back, and nothing twice", async () => {
    const later = NOW_MS + 60_000 + 2 * 60_000 + 1_000;
    expect(await run(later)).toEqual({ delivered: 1, failed: 0, waiting: 0 });
    expect(received.map((r) => r.path)).toEqual(["/flaky/inbox"]);
    expect(await run(later + 60_000)).toEqual({ delivered: 0, failed: 0, waiting: 0 });
    expect(received).toHaveLength(1);
  });

  it("should leave the queue to a run that holds it, and take it over once that run's time is up", async () => {
    const at = NOW_MS + 3_600_000;
    await store.setJSON("delivery/lease", { until: new Date(at + 1_000).toISOString() });
    outbox = [activity(3), ...outbox];
    log.length = 0;
    expect(await run(at)).toEqual({ delivered: 0, failed: 0, waiting: 0 });
    expect(log).toEqual(["another delivery run holds the queue; this one leaves it to it"]);
    expect(received).toHaveLength(1);
    // Its holder was stopped: the lease ran out, and the next run delivers.
    expect(await run(at + 2_000)).toEqual({ delivered: 2, failed: 1, waiting: 0 });
  });
});
