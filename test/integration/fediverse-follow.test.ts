import { generateKeyPairSync } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  Accept,
  Create,
  createFederation,
  Endpoints,
  Event,
  Follow,
  generateCryptoKeyPair,
  getDocumentLoader,
  lookupObject,
  lookupWebFinger,
  MemoryKvStore,
  Organization,
  Person,
  Place,
} from "@fedify/fedify";
import { getStore } from "@netlify/blobs";
import { BlobsServer } from "@netlify/blobs/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  deliverToFollowers,
  followersResponse,
  inboxResponse,
} from "../../src/fediverse/account-functions.ts";
import type { BlobStore } from "../../src/fediverse/follower-store.ts";
import { RemoteServers } from "../../src/fediverse/remote-servers.ts";
import { paths } from "../../src/model/url-scheme.ts";
import { type RunningPortal, startPortal } from "../../src/portal/index.ts";
import { hoursAfterNow, NOW } from "../helpers/clock.ts";
import { buildSite } from "../helpers/demo-build.ts";
import { portalEvent } from "../helpers/events.ts";
import { serveOnLoopback } from "../helpers/loopback-server.ts";
import { type RunningServer, startStaticServer } from "../helpers/static-server.ts";
import { tempDir } from "../helpers/temp-dir.ts";
import { nodeListener } from "../helpers/web-handler.ts";

/*
 * Followed from the fediverse, end to end, with Fedify (an ActivityPub
 * implementation written elsewhere) as the other side. The built site is
 * served on loopback as the CDN serves it, with the inbox and followers
 * functions at their paths and Netlify Blobs' local server as their store.
 * Fedify finds the account through WebFinger and an event through its page's
 * alternate link; a Fedify server follows the account with a signed Follow
 * and verifies the signed Accept; after a second build ("deploy") with a new
 * event, the deploy's delivery posts a signed Create that Fedify verifies.
 *
 * Fedify signs with the machine's clock, so the inbox checks Date against
 * that clock here; the builds keep the tests' one clock (SITE_NOW).
 */

const ADDED = { calendarId: "sport", id: "added-by-fediverse-test", title: "Harbour Swim" };
const EVENT_PAGE = { calendarId: "culture", id: "jazz-boathouse-20260327" };
const documentLoader = getDocumentLoader({ allowPrivateAddress: true });

describe("the site followed from the fediverse", () => {
  let work: string;
  let portal: RunningPortal;
  let files: RunningServer;
  let blobs: BlobsServer;
  let store: BlobStore;
  let remote: RemoteServers;
  let site: { origin: string };
  let env: Record<string, string>;
  let follower: { origin: string };
  const accepts: Accept[] = [];
  const creates: Create[] = [];
  const deliveryLog: string[] = [];
  const buildLogs: string[] = [];
  let privatePem = "";
  let publicPem = "";
  const output = () => join(work, "out", "_site");
  const build = async (now: string) => {
    const built = await buildSite(
      {
        ...env,
        EVENT_API_URL: portal.url,
        EVENT_API_TOKEN: portal.token,
        EVENT_API_CACHE_DIR: join(work, "cache"),
        SITE_NOW: now,
      },
      output(),
    );
    if (built.status !== 0) throw new Error(`build failed:\n${built.log}`);
    buildLogs.push(built.log);
    files.setRoot(output());
  };
  const deploy = () =>
    deliverToFollowers(site.origin, env, (line) => deliveryLog.push(line), {
      store,
      remote,
      deadlineMs: 20_000,
    });

  const federation = createFederation<void>({ kv: new MemoryKvStore(), allowPrivateAddress: true });
  let aliceKeys: CryptoKeyPair;

  beforeAll(async () => {
    work = tempDir("ecp-fediverse-");
    mkdirSync(join(work, "out"));
    const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    const keyFile = join(work, "account.pem");
    privatePem = privateKey.export({ type: "pkcs8", format: "pem" }).toString();
    publicPem = publicKey.export({ type: "spki", format: "pem" }).toString();
    writeFileSync(keyFile, privatePem);
    portal = await startPortal({ host: "127.0.0.1", port: 0, now: NOW });
    files = await startStaticServer();
    blobs = new BlobsServer({ directory: join(work, "blobs"), port: 0, token: "test-token" });
    const { port } = await blobs.start();
    store = getStore({
      name: "fediverse",
      edgeURL: `http://127.0.0.1:${port}`,
      siteID: "site",
      token: "test-token",
    }) as BlobStore;
    remote = new RemoteServers({ allowPrivateAddresses: true });
    // The site as the host serves it: the functions at their paths, files for the rest.
    let siteOrigin = "";
    site = await serveOnLoopback(
      nodeListener(
        () => siteOrigin,
        async (request) => {
          const { pathname, search } = new URL(request.url);
          if (pathname === paths.apInbox()) return inboxResponse(request, env, { store, remote });
          if (pathname === paths.apFollowers()) return followersResponse(env, { store });
          return fetch(files.origin + pathname + search, { headers: request.headers });
        },
      ),
    );
    siteOrigin = site.origin;
    env = { SITE_URL: site.origin, AP_PRIVATE_KEY_FILE: keyFile, AP_USERNAME: "events" };

    aliceKeys = await generateCryptoKeyPair("RSASSA-PKCS1-v1_5");
    federation
      .setActorDispatcher("/users/{identifier}", async (ctx, identifier) => {
        if (identifier !== "alice") return null;
        const [keys] = await ctx.getActorKeyPairs(identifier);
        return new Person({
          id: ctx.getActorUri(identifier),
          preferredUsername: identifier,
          inbox: ctx.getInboxUri(identifier),
          endpoints: new Endpoints({ sharedInbox: ctx.getInboxUri() }),
          publicKey: keys?.cryptographicKey,
        });
      })
      .setKeyPairsDispatcher(async () => [aliceKeys]);
    federation
      .setInboxListeners("/users/{identifier}/inbox", "/inbox")
      .on(Accept, async (_ctx, accept) => {
        accepts.push(accept);
      })
      .on(Create, async (_ctx, create) => {
        creates.push(create);
      });
    let followerOrigin = "";
    follower = await serveOnLoopback(
      nodeListener(
        () => followerOrigin,
        (request) => federation.fetch(request, { contextData: undefined }),
      ),
    );
    followerOrigin = follower.origin;

    await build(NOW);
    // The first deploy's run: what the account published before it had followers is no news.
    expect(await deploy()).toBe(true);
  }, 240_000);

  afterAll(async () => {
    await remote?.close();
    await portal?.close();
    await files?.close();
    await blobs?.stop();
  });

  it("should publish the public key and keep the private key out of every file the build wrote, its cache and its log", () => {
    // Each 64-character line of the key's base64, and the whole: any copy of it holds one.
    const lines = (pem: string) => pem.split("\n").filter((line) => line.length === 64);
    const written = (dir: string): string[] =>
      readdirSync(dir, { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) => readFileSync(join(entry.parentPath, entry.name)).toString("latin1"));
    const everything = [...written(output()), ...written(join(work, "cache")), ...buildLogs];
    const actor = readFileSync(join(output(), "ap/actor.json"), "utf8");
    expect(JSON.parse(actor).publicKey.publicKeyPem).toBe(publicPem);
    expect(lines(privatePem).length).toBeGreaterThan(20);
    const leaks = everything.filter((text) =>
      lines(privatePem).some((line) => text.includes(line)),
    );
    expect(leaks).toEqual([]);
    expect(everything.some((text) => lines(publicPem).some((line) => text.includes(line)))).toBe(
      true,
    );
  });

  it("should be found through WebFinger, as an Organization with a key", async () => {
    const jrd = await lookupWebFinger(new URL(`${site.origin}/`), { allowPrivateAddress: true });
    expect(jrd?.subject).toBe(`acct:events@${new URL(site.origin).host}`);
    const self = jrd?.links?.find((link) => link.rel === "self");
    expect(self?.type).toBe("application/activity+json");
    const actor = await lookupObject(String(self?.href), { documentLoader });
    expect(actor).toBeInstanceOf(Organization);
    const organization = actor as Organization;
    expect(organization.preferredUsername).toBe("events");
    expect(organization.manuallyApprovesFollowers).toBe(false);
    expect(organization.inboxId?.href).toBe(`${site.origin}/ap/inbox`);
    const key = await organization.getPublicKey({ documentLoader });
    expect(key?.id?.href).toBe(`${site.origin}/ap/actor.json#main-key`);
  });

  it("should give an event page's ActivityStreams Event to a reader that looks it up by the page", async () => {
    const page = site.origin + paths.event(EVENT_PAGE.calendarId, EVENT_PAGE.id);
    const object = await lookupObject(page, { documentLoader });
    expect(object).toBeInstanceOf(Event);
    const event = object as Event;
    expect(event.id?.href).toBe(site.origin + paths.apEvent(EVENT_PAGE.calendarId, EVENT_PAGE.id));
    expect(event.name?.toString()).toBe("Jazz at the Boathouse");
    expect(event.startTime?.toString()).toBe("2026-03-27T19:30:00Z");
    expect(String(event.url)).toBe(page);
    const place = await event.getLocation({ documentLoader });
    expect(place).toBeInstanceOf(Place);
    expect((place as Place).latitude).toBeTypeOf("number");
  });

  it("should accept a signed Follow, answer it with a signed Accept, and deliver a new event after a deploy as a signed Create", async () => {
    const ctx = federation.createContext(new URL(follower.origin), undefined);
    const account = await lookupObject(`${site.origin}/ap/actor.json`, { documentLoader });
    expect(account).toBeInstanceOf(Organization);
    const follow = new Follow({
      id: new URL(`${follower.origin}/follows/1`),
      actor: ctx.getActorUri("alice"),
      object: account?.id,
    });
    await ctx.sendActivity({ identifier: "alice" }, account as Organization, follow);
    expect(accepts).toHaveLength(1);
    expect(accepts[0]?.actorId?.href).toBe(`${site.origin}/ap/actor.json`);
    expect((await accepts[0]?.getObject())?.id?.href).toBe(`${follower.origin}/follows/1`);
    const count = (await (await fetch(`${site.origin}/ap/followers`)).json()) as {
      totalItems: number;
    };
    expect(count.totalItems).toBe(1);

    portal.addEvent(
      portalEvent({
        ...ADDED,
        start: "2026-03-28T09:00:00+01:00",
        end: "2026-03-28T10:00:00+01:00",
        location: { name: "Harbour", address: null, geo: { lat: 52.37, lon: 4.9 } },
      }),
    );
    await build(hoursAfterNow(1));
    expect(await deploy()).toBe(true);
    expect(creates).toHaveLength(1);
    const create = creates[0] as Create;
    const objectId = site.origin + paths.apEvent(ADDED.calendarId, ADDED.id);
    expect(create.id?.href).toBe(`${objectId}#create-20260320T130000Z`);
    const object = await create.getObject({ documentLoader });
    expect(object).toBeInstanceOf(Event);
    expect(object?.name?.toString()).toBe(ADDED.title);
    expect(deliveryLog.join("\n")).toMatch(/delivered 1, 0 failed for good, 0 waiting/);

    // Another run finds nothing new: nothing is delivered twice.
    expect(await deploy()).toBe(true);
    expect(creates).toHaveLength(1);
  });
});
