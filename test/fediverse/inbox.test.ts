import { generateKeyPairSync } from "node:crypto";
import { join } from "node:path";
import { exportSpki, generateCryptoKeyPair } from "@fedify/fedify";
import { signRequest } from "@fedify/fedify/sig";
import { getStore } from "@netlify/blobs";
import { BlobsServer } from "@netlify/blobs/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accountOf } from "../../src/fediverse/account.ts";
import type { BlobStore } from "../../src/fediverse/follower-store.ts";
import { FollowerStore } from "../../src/fediverse/follower-store.ts";
import { handleInbox } from "../../src/fediverse/inbox.ts";
import { RemoteServers } from "../../src/fediverse/remote-servers.ts";
import { SiteUrls } from "../../src/model/url-scheme.ts";
import { NOW, NOW_MS } from "../helpers/clock.ts";
import { serveOnLoopback } from "../helpers/loopback-server.ts";
import { tempDir } from "../helpers/temp-dir.ts";

/*
 * The inbox takes only what its signer signed: requests are signed by Fedify
 * (an implementation written elsewhere) as a Mastodon-like server would, for
 * an actor served on loopback, and the inbox runs at the tests' one clock.
 */

const SITE = "https://events.example.org";
const account = accountOf({ url: SITE, urls: new SiteUrls(SITE) }, "events");

describe("inbox", () => {
  let blobs: BlobsServer;
  let store: BlobStore;
  let remote: RemoteServers;
  let actorOrigin: string;
  let signing: CryptoKeyPair;
  let other: CryptoKeyPair;
  const actorId = () => `${actorOrigin}/users/alice`;
  const keyId = () => new URL(`${actorId()}#main-key`);

  beforeAll(async () => {
    signing = await generateCryptoKeyPair("RSASSA-PKCS1-v1_5");
    other = await generateCryptoKeyPair("RSASSA-PKCS1-v1_5");
    const pem = await exportSpki(signing.publicKey);
    const server = await serveOnLoopback((req, res) => {
      if (req.url !== "/users/alice") return void res.writeHead(404).end();
      res.writeHead(200, { "content-type": "application/activity+json" }).end(
        JSON.stringify({
          "@context": ["https://www.w3.org/ns/activitystreams", "https://w3id.org/security/v1"],
          id: actorId(),
          type: "Person",
          inbox: `${actorId()}/inbox`,
          publicKey: { id: keyId().href, owner: actorId(), publicKeyPem: pem },
        }),
      );
    });
    actorOrigin = server.origin;
    blobs = new BlobsServer({ directory: join(tempDir(), "blobs"), port: 0, token: "t" });
    const { port } = await blobs.start();
    store = getStore({ name: "f", edgeURL: `http://127.0.0.1:${port}`, siteID: "s", token: "t" });
    remote = new RemoteServers({ allowPrivateAddresses: true, timeoutMs: 2_000 });
  });

  afterAll(async () => {
    await remote?.close();
    await blobs?.stop();
  });

  const follow = () =>
    JSON.stringify({
      "@context": "https://www.w3.org/ns/activitystreams",
      id: `${actorId()}/follows/1`,
      type: "Follow",
      actor: actorId(),
      object: account.actor,
    });
  const unsigned = (body: string, date = new Date(NOW_MS)) =>
    new Request(account.inbox, {
      method: "POST",
      headers: { "content-type": "application/activity+json", date: date.toUTCString() },
      body,
    });
  const signed = (body: string, key = signing.privateKey, date = new Date(NOW_MS)) =>
    signRequest(unsigned(body, date), key, keyId());
  const receive = (request: Request) =>
    handleInbox(request, {
      account,
      signer: {
        keyId: account.keyId,
        privateKey: generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey,
      },
      store,
      remote,
      now: () => new Date(NOW_MS),
    });

  it("should take a Follow its signer signed, and keep the follower", async () => {
    const response = await receive(await signed(follow()));
    expect(response.status).toBe(202);
    const followers = await new FollowerStore(store).all();
    expect(followers.map((f) => [f.id, f.inbox])).toEqual([[actorId(), `${actorId()}/inbox`]]);
  });

  it("should refuse an unsigned request", async () => {
    const response = await receive(unsigned(follow()));
    expect(response.status).toBe(401);
    expect(await response.text()).toMatch(/not signed/);
  });

  it("should refuse a request signed with a key that is not the signer's", async () => {
    const response = await receive(await signed(follow(), other.privateKey));
    expect(response.status).toBe(401);
    expect(await response.text()).toMatch(/does not verify/);
  });

  it("should refuse a request whose Date is far from its clock", async () => {
    const stale = new Date(Date.parse(NOW) - 3_600_000);
    const response = await receive(await signed(follow(), signing.privateKey, stale));
    expect(response.status).toBe(401);
    expect(await response.text()).toMatch(/Date is 3600 s from/);
  });

  it("should refuse a request whose body was changed after signing", async () => {
    const original = await signed(follow());
    const tampered = new Request(original.url, {
      method: "POST",
      headers: original.headers,
      body: follow().replace("follows/1", "follows/2"),
    });
    const response = await receive(tampered);
    expect(response.status).toBe(401);
    expect(await response.text()).toMatch(/Digest is not the body's/);
  });

  it("should refuse an activity of another actor than its signer", async () => {
    const body = follow().replace(
      `"actor":"${actorId()}"`,
      '"actor":"https://elsewhere.example/u/bob"',
    );
    const response = await receive(await signed(body));
    expect(response.status).toBe(401);
    expect(await response.text()).toMatch(/not the signer's/);
  });

  it("should forget a follower that undoes its Follow", async () => {
    const undo = JSON.stringify({
      "@context": "https://www.w3.org/ns/activitystreams",
      id: `${actorId()}/undo/1`,
      type: "Undo",
      actor: actorId(),
      object: JSON.parse(follow()),
    });
    const response = await receive(await signed(undo));
    expect(response.status).toBe(202);
    expect(await new FollowerStore(store).count()).toBe(0);
  });
});
