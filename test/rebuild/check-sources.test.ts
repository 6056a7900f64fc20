import { readFileSync, writeFileSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PublishedSite } from "../../src/api/published-site.ts";
import { readSources, type SourcesConfig } from "../../src/config/sources.ts";
import { type RunningPortal, startPortal } from "../../src/portal/index.ts";
import type { BuildState } from "../../src/rebuild/build-state.ts";
import { checkSources } from "../../src/rebuild/check-sources.ts";
import { rebuildIfChanged } from "../../src/rebuild/rebuild-if-changed.ts";
import { choirConcert, choirFeed } from "../fixtures/choir-feed.ts";
import { publishSourcesState } from "../helpers/build-state.ts";
import { NOW, NOW_MS } from "../helpers/clock.ts";
import { runScript } from "../helpers/demo-build.ts";
import { demoPart, startingBetween } from "../helpers/demo-parts.ts";
import { type LoopbackServer, serveOnLoopback } from "../helpers/loopback-server.ts";
import { HOOK_ID, type Recorder, startRecorder } from "../helpers/request-recorder.ts";
import { tempDir } from "../helpers/temp-dir.ts";

/*
 * A site of two organizations' portals and a partner's feed, each on
 * loopback: the build state is made as the build makes it, then the sources
 * change (or not) and the check is asked.
 */

const first = demoPart(startingBetween("2026-03-20", "2026-04-03"));
const second = demoPart(startingBetween("2026-04-03", "2026-04-17"));

const feed = (title: string, stamp?: string) => choirFeed(choirConcert(title, stamp));

/** The partner's feed host: its body, and whether it sends an ETag and answers If-None-Match. */
interface FeedHost {
  body: string;
  validators: boolean;
  requests: number;
  notModified: number;
}

describe("check-sources", () => {
  let dir: string;
  let portals: RunningPortal[];
  let feedServer: LoopbackServer;
  let host: FeedHost;
  let hook: Recorder;
  let env: Record<string, string>;
  let site: string;

  const sourcesEnv = () => {
    const file = join(dir, "sources.json");
    writeFileSync(
      file,
      JSON.stringify([
        { id: "arts", name: "Arts Council", url: portals[0]?.url, tokenEnv: "ARTS_TOKEN" },
        { id: "clubs", name: "Sports Clubs", url: portals[1]?.url, tokenEnv: "CLUBS_TOKEN" },
        { id: "choir", name: "City Choir", ics: `${feedServer.origin}/agenda.ics?key=private` },
      ]),
    );
    return {
      EVENT_SOURCES_FILE: file,
      ARTS_TOKEN: portals[0]?.token ?? "",
      CLUBS_TOKEN: portals[1]?.token ?? "",
      EVENT_API_CACHE_DIR: join(dir, ".cache"),
      EVENT_API_RETRIES: "0",
      EVENT_API_RETRY_MAX_WAIT: "100ms",
    };
  };
  const sources = (): SourcesConfig => readSources(env) as SourcesConfig;
  const check = () =>
    checkSources({ sources: sources(), published: new PublishedSite(site), nowMs: NOW_MS });

  beforeEach(async () => {
    dir = tempDir("check-sources-");
    portals = await Promise.all(
      [first, second].map((dataset) =>
        startPortal({ host: "127.0.0.1", port: 0, now: NOW, dataset, pageSizeMax: 10 }),
      ),
    );
    host = { body: feed("Spring concert"), validators: true, requests: 0, notModified: 0 };
    feedServer = await serveOnLoopback((request: IncomingMessage, response: ServerResponse) => {
      host.requests += 1;
      const etag = `"${host.body.length}-${host.body.charCodeAt(120)}"`;
      if (host.validators && request.headers["if-none-match"] === etag) {
        host.notModified += 1;
        response.writeHead(304).end();
        return;
      }
      response.writeHead(200, {
        "content-type": "text/calendar",
        ...(host.validators ? { etag } : {}),
      });
      response.end(host.body);
    });
    hook = await startRecorder(`/build_hooks/${HOOK_ID}`);
    env = sourcesEnv();
    site = await publishSourcesState(sources(), dir);
  });

  afterEach(async () => {
    await Promise.all(portals.map((portal) => portal.close()));
    await feedServer.close();
    await hook.close();
  });

  it("should record each source's lists and its feed's validators in the build state", () => {
    const state = JSON.parse(
      readFileSync(join(site, "api/build-state.json"), "utf8"),
    ) as BuildState;
    expect(state.portal).toBeNull();
    expect(state.sources?.map((source) => [source.id, source.kind])).toEqual([
      ["arts", "portal"],
      ["clubs", "portal"],
      ["choir", "ics"],
    ]);
    const clubs = state.sources?.[1];
    expect(clubs?.kind === "portal" && clubs.portal?.calendars.map((c) => c.versions)).toContain(
      "/api/build-state/clubs~community.json",
    );
    const choir = state.sources?.[2];
    expect(choir?.kind === "ics" && choir.feed?.etag).toMatch(/^"/);
    // The feed's address holds a private key: the public state has its hash only.
    expect(readFileSync(join(site, "api/build-state.json"), "utf8")).not.toContain("private");
  });

  it("should find nothing changed with every list page and the feed answered 304", async () => {
    const result = await check();
    expect(result.changes).toEqual([]);
    expect(result.failures).toEqual([]);
    expect(result.requests).toBeGreaterThan(4);
    expect(result.notModified).toBe(result.requests);
    expect(host.notModified).toBe(1);
  });

  it("should say which source changed", async () => {
    const event = second.events.find((e) => e.calendarId === "culture");
    portals[1]?.updateEvent("culture", event?.id ?? "", { title: "Moved to the big hall" });
    const result = await check();
    expect(result.changes).toEqual(["source clubs: 1 event updated in 1 calendar"]);
  });

  it("should see a changed feed, by its ETag or else by its digest, leaving its stamps aside", async () => {
    host.body = feed("Spring concert (sold out)");
    expect((await check()).changes).toEqual(["source choir: the feed changed"]);

    host.validators = false;
    site = await publishSourcesState(sources(), dir);
    // Only DTSTAMP moved, as many hosts stamp every request: nothing changed.
    host.body = feed("Spring concert (sold out)", "20260320T120000Z");
    expect((await check()).changes).toEqual([]);
    host.body = feed("Spring concert (moved)", "20260320T120000Z");
    expect((await check()).changes).toEqual(["source choir: the feed changed"]);
  });

  it("should see the same sources the same way, and every source's change as another sight", async () => {
    const unchanged = (await check()).seen;
    expect((await check()).seen).toBe(unchanged);

    const event = second.events.find((e) => e.calendarId === "culture");
    portals[1]?.updateEvent("culture", event?.id ?? "", { title: "Moved to the big hall" });
    const edited = (await check()).seen;
    expect(edited).not.toBe(unchanged);
    expect((await check()).seen).toBe(edited);

    host.body = feed("Spring concert (sold out)");
    expect((await check()).seen).not.toBe(edited);
  });

  it("should check the other sources when one cannot be checked, and request the build for their change", async () => {
    await portals[0]?.close();
    host.body = feed("Spring concert (sold out)");
    const result = await rebuildIfChanged({
      config: sources(),
      published: site,
      nowMs: NOW_MS,
      hookUrl: hook.url,
    });
    expect(result.lines.filter((line) => line.startsWith("source "))).toEqual([
      expect.stringMatching(/^source arts \(Arts Council\): not checked: .+\.$/),
    ]);
    expect(result.lines.at(-1)).toBe("changed: source choir: the feed changed; rebuild requested");
    expect(hook.calls).toHaveLength(1);
    // The run ends in error all the same: one source went unchecked.
    expect(result.ok).toBe(false);
  });

  it("should not request a build that the shrink guard would stop for one source's emptied lists", async () => {
    const port = Number(new URL(portals[1]?.url ?? "").port);
    await portals[1]?.close();
    portals[1] = await startPortal({ host: "127.0.0.1", port, now: NOW, emptyLists: true });
    env = { ...env, CLUBS_TOKEN: portals[1].token };
    // The other organization grew: the site's total alone would hide the loss.
    for (let n = 0; n < 5; n++) {
      const template = first.events[n];
      if (template) portals[0]?.addEvent({ ...template, id: `extra-${n}` });
    }
    await expect(
      rebuildIfChanged({ config: sources(), published: site, nowMs: NOW_MS, hookUrl: hook.url }),
    ).rejects.toThrow(/shrink guard would stop it: source "Sports Clubs"/);
    expect(hook.calls).toEqual([]);
  });

  it("should run from EVENT_SOURCES_FILE alone as npm run rebuild-if-changed", async () => {
    const run = await runScript("src/cli/rebuild-if-changed.ts", ["--published", site], {
      ...env,
      EVENT_API_URL: "",
    });
    expect(run.log).not.toMatch(/EVENT_API_URL/);
    expect(run.stdout.trim().split("\n").at(-1)).toMatch(/^unchanged: every source shows/);
    expect(run.status).toBe(0);
  });
});
