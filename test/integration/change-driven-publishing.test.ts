import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import deploySucceeded from "../../netlify/functions/deploy-succeeded.mts";
import { startPreviewServer } from "../../src/hosts/preview-server.ts";
import { type RunningPortal, startPortal } from "../../src/portal/index.ts";
import type { BuildState } from "../../src/rebuild/build-state.ts";
import { NOW, NOW_MS } from "../helpers/clock.ts";
import { type BuiltSite, buildSite, DEMO_SITE_URL, runScript } from "../helpers/demo-build.ts";
import { demoPart, startingBetween } from "../helpers/demo-parts.ts";
import { buildApiEnv } from "../helpers/portal-env.ts";
import { HOOK_ID, type Recorder, startRecorder } from "../helpers/request-recorder.ts";

/**
 * The whole cycle with real builds: the build publishes its state, the check
 * finds nothing to do against the same portal, an edit makes it call the
 * hook once, the next build changes some feeds, and the WebSub ping (the CLI
 * and the Netlify deploy-succeeded function) tells the hub about exactly those.
 */

const FEED = /(^|\/)(feed\.xml|atom\.xml|feed\.json)$/;

/** The demo's events of March and April: every calendar and feed, at a fraction of the build's time. */
const PORTAL = demoPart(startingBetween("2026-03-01", "2026-05-01"));

function feedHashes(dir: string): Map<string, string> {
  const hashes = new Map<string, string>();
  for (const entry of readdirSync(dir, { recursive: true }) as string[]) {
    if (!FEED.test(entry)) continue;
    const bytes = readFileSync(join(dir, entry));
    hashes.set(`${DEMO_SITE_URL}/${entry}`, createHash("sha256").update(bytes).digest("hex"));
  }
  return hashes;
}

const topics = (hub: Recorder) =>
  hub.calls.map((call) => {
    const form = new URLSearchParams(call.body);
    expect(form.get("hub.mode")).toBe("publish");
    return form.get("hub.url") ?? "";
  });

let root: string;
let portal: RunningPortal;
let hook: Recorder;
let hub: Recorder;
let env: Record<string, string>;
let first: BuiltSite;
let firstFeeds: Map<string, string>;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "ecp-change-driven-"));
  portal = await startPortal({ port: 0, now: NOW, dataset: PORTAL });
  hook = await startRecorder(`/build_hooks/${HOOK_ID}`);
  hub = await startRecorder("/hub");
  env = {
    ...buildApiEnv(portal, root),
    WEBSUB_HUB: hub.url,
    BUILD_HOOK_URL: hook.url,
    // What changed and who is told, not the pictures links share as: without share cards.
    SHARE_CARDS: "off",
  };
  first = await buildSite(env, join(root, "_site"));
  firstFeeds = feedHashes(first.dir);
});

afterAll(async () => {
  await portal.close();
  await hook.close();
  await hub.close();
  rmSync(root, { recursive: true, force: true });
});

describe("change-driven publishing", () => {
  it("should publish its state with the site, and a check against the same portal finds nothing", async () => {
    expect(first.status, first.log).toBe(0);
    const state = JSON.parse(
      readFileSync(join(first.dir, "api/build-state.json"), "utf8"),
    ) as BuildState;
    expect(state.portal?.calendars.map((c) => c.id).sort()).toEqual([
      "city",
      "community",
      "culture",
      "sport",
    ]);
    expect(first.log).not.toContain(portal.token);

    const run = await runScript("src/cli/rebuild-if-changed.ts", ["--published", first.dir], env);

    expect(run.status, run.log).toBe(0);
    expect(run.stdout.trim().split("\n").at(-1)).toMatch(/^unchanged/);
    expect(hook.calls).toEqual([]);
  });

  it("should advertise the hub in the feeds it built", () => {
    expect(readFileSync(join(first.dir, "feed.xml"), "utf8")).toContain(
      `<atom:link href="${hub.url}" rel="hub"/>`,
    );
  });

  it("should ping the hub for every feed after a first deploy", async () => {
    const run = await runScript("src/cli/ping-hub.ts", ["--published", first.dir], env);

    expect(run.status, run.log).toBe(0);
    expect(topics(hub).sort()).toEqual([...firstFeeds.keys()].sort());
    hub.calls.length = 0;
  });

  it("should ping once per changed feed, and not for unchanged ones, after a build that followed an edit", async () => {
    const sport = PORTAL.events.filter(
      (e) => e.calendarId === "sport" && Date.parse(e.start) > NOW_MS,
    );
    portal.updateEvent("sport", sport[0]?.id ?? "", { title: "Run club, new route" });
    const check = await runScript("src/cli/rebuild-if-changed.ts", ["--published", first.dir], env);
    expect(check.stdout.trim().split("\n").at(-1)).toBe(
      "changed: 1 event updated in 1 calendar; rebuild requested",
    );
    expect(hook.calls).toHaveLength(1);

    const second = await buildSite(env, first.dir);
    expect(second.status, second.log).toBe(0);
    const changed = [...feedHashes(second.dir)]
      .filter(([url, hash]) => firstFeeds.get(url) !== hash)
      .map(([url]) => url)
      .sort();
    expect(changed).toContain(`${DEMO_SITE_URL}/calendars/sport/feed.xml`);
    expect(changed).not.toContain(`${DEMO_SITE_URL}/calendars/culture/feed.xml`);

    // As Netlify calls it after the deploy, reading the deploy at its own address.
    const server = await startPreviewServer({ root: second.dir, port: 0 });
    vi.stubEnv("WEBSUB_HUB", hub.url);
    vi.spyOn(console, "log").mockImplementation(() => undefined);
    try {
      const response = await deploySucceeded(
        new Request("http://localhost/.netlify/functions/deploy-succeeded", {
          method: "POST",
          body: JSON.stringify({
            payload: { context: "production", deploy_ssl_url: server.origin },
          }),
        }),
      );
      expect(response.status, await response.clone().text()).toBe(200);
    } finally {
      vi.unstubAllEnvs();
      vi.restoreAllMocks();
      await server.close();
    }
    expect(topics(hub).sort()).toEqual(changed);

    // A deploy preview pings nothing.
    hub.calls.length = 0;
    const preview = await deploySucceeded(
      new Request("http://localhost/", {
        method: "POST",
        body: JSON.stringify({ payload: { context: "deploy-preview" } }),
      }),
    );
    expect(preview.status).toBe(200);
    expect(hub.calls).toEqual([]);
  });
});
