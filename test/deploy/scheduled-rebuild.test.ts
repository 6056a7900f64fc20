import { mkdtempSync, rmSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { getStore } from "@netlify/blobs";
import { BlobsServer } from "@netlify/blobs/server";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import scheduledRebuild, { checkAndRequest } from "../../netlify/functions/scheduled-rebuild.mts";
import { readApiConfig } from "../../src/config/api.ts";
import { startPreviewServer } from "../../src/hosts/preview-server.ts";
import { createDemoDataset, type RunningPortal, startPortal } from "../../src/portal/index.ts";
import { rebuildIfChanged } from "../../src/rebuild/rebuild-if-changed.ts";
import { redactHookUrl, triggerRebuild } from "../../src/rebuild/trigger-rebuild.ts";
import { publishState } from "../helpers/build-state.ts";
import { NOW, NOW_MS } from "../helpers/clock.ts";
import { serveOnLoopback } from "../helpers/loopback-server.ts";
import { buildApiEnv } from "../helpers/portal-env.ts";

const HOOK_ID = "5f3c9d2e8a7b6c1d0e9f8a7b";
const FIXED_NOW = () => new Date("2025-03-30T01:00:00Z");

interface HookCall {
  method: string | undefined;
  url: string | undefined;
}

/** A local stand-in for the host's build hook endpoint. */
async function startHook(
  answer: (request: IncomingMessage, response: ServerResponse) => void,
): Promise<{ url: string; calls: HookCall[]; close(): Promise<void> }> {
  const calls: HookCall[] = [];
  const { origin, close } = await serveOnLoopback((request, response) => {
    calls.push({ method: request.method, url: request.url });
    request.resume();
    answer(request, response);
  });
  return { url: `${origin}/build_hooks/${HOOK_ID}`, calls, close };
}

let lines: string[] = [];
const log = (line: string) => lines.push(line);

beforeEach(() => {
  lines = [];
});

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

describe("triggerRebuild", () => {
  it("should POST the build hook exactly once and report success", async () => {
    const hook = await startHook((_request, response) => response.writeHead(200).end());

    const result = await triggerRebuild({ hookUrl: hook.url, now: FIXED_NOW, log });

    expect(result.ok).toBe(true);
    expect(result.status).toBe(200);
    expect(hook.calls).toEqual([{ method: "POST", url: `/build_hooks/${HOOK_ID}` }]);
    expect(lines).toEqual([
      expect.stringMatching(
        /^scheduled-rebuild 2025-03-30T01:00:00.000Z: build hook .* accepted \(HTTP 200\)\.$/,
      ),
    ]);
  });

  it("should report a missing hook URL clearly without calling anything", async () => {
    const fetch = vi.fn<typeof globalThis.fetch>();
    const result = await triggerRebuild({ hookUrl: undefined, fetch, now: FIXED_NOW, log });

    expect(result.ok).toBe(false);
    expect(result.message).toMatch(/BUILD_HOOK_URL is not set; no rebuild was started/);
    expect(fetch).not.toHaveBeenCalled();
    expect(lines).toHaveLength(1);
  });

  it("should refuse a hook that is not https or not a URL, without echoing it", async () => {
    const fetch = vi.fn<typeof globalThis.fetch>();
    const plain = await triggerRebuild({
      hookUrl: `http://api.example.org/hooks/${HOOK_ID}`,
      fetch,
      log,
    });
    const garbage = await triggerRebuild({ hookUrl: `not a url ${HOOK_ID}`, fetch, log });

    expect(plain.message).toMatch(/must be an https:\/\/ URL/);
    expect(garbage.message).toMatch(/not a valid URL \(value hidden\)/);
    expect(fetch).not.toHaveBeenCalled();
    expect(lines.join("\n")).not.toContain(HOOK_ID);
  });

  it("should report a hook answering HTTP 500 as a failure", async () => {
    const hook = await startHook((_request, response) => response.writeHead(500).end("boom"));

    const result = await triggerRebuild({ hookUrl: hook.url, now: FIXED_NOW, log });

    expect(result).toMatchObject({ ok: false, status: 500 });
    expect(result.message).toMatch(/answered HTTP 500; no build was started/);
    expect(hook.calls).toHaveLength(1);
  });

  it("should give up on a hook that never answers, within its own deadline", async () => {
    // The server accepts the request and never answers.
    const hook = await startHook(() => undefined);

    const result = await triggerRebuild({ hookUrl: hook.url, timeoutMs: 200, now: FIXED_NOW, log });

    expect(result.ok).toBe(false);
    expect(result.message).toMatch(/no answer within 0.2 s; the next run will try again/);
  });

  it("should report an unreachable hook without throwing", async () => {
    const hook = await startHook((_request, response) => response.end());
    await hook.close();

    const result = await triggerRebuild({ hookUrl: hook.url, log });

    expect(result.ok).toBe(false);
    expect(result.message).toMatch(/failed: network error/);
  });

  it("should never write the hook id into a log line or a result", async () => {
    const hook = await startHook((_request, response) => response.writeHead(500).end());

    const failed = await triggerRebuild({ hookUrl: hook.url, log });
    const passedHook = await startHook((_request, response) => response.writeHead(200).end());
    const passed = await triggerRebuild({ hookUrl: passedHook.url, log });

    expect(`${failed.message}${passed.message}${lines.join("\n")}`).not.toContain(HOOK_ID);
    expect(lines.join("\n")).toContain("/build_hooks/***");
  });
});

describe("triggerRebuild on Netlify", () => {
  it("should title the deploy it starts so the deploy list shows why it ran", async () => {
    const seen: string[] = [];
    const fetch: typeof globalThis.fetch = async (input) => {
      seen.push(String(input));
      return new Response(null, { status: 200 });
    };
    await triggerRebuild({ hookUrl: `https://api.netlify.com/build_hooks/${HOOK_ID}`, fetch, log });

    expect(seen).toEqual([
      `https://api.netlify.com/build_hooks/${HOOK_ID}?trigger_title=Scheduled+rebuild`,
    ]);
  });
});

describe("redactHookUrl", () => {
  it("should keep the origin and hide every secret part", () => {
    expect(redactHookUrl(new URL(`https://api.netlify.com/build_hooks/${HOOK_ID}`))).toBe(
      "https://api.netlify.com/build_hooks/***",
    );
    expect(redactHookUrl(new URL(`https://hooks.example.org/${HOOK_ID}`))).toBe(
      "https://hooks.example.org/***",
    );
    expect(redactHookUrl(new URL(`https://hooks.example.org/?token=${HOOK_ID}`))).toBe(
      "https://hooks.example.org/***",
    );
  });
});

describe("netlify/functions/scheduled-rebuild", () => {
  const invoke = () =>
    scheduledRebuild(new Request("http://localhost/.netlify/functions/scheduled-rebuild"));
  let dir = "";
  let portal: RunningPortal | null = null;
  let site: Awaited<ReturnType<typeof startPreviewServer>> | null = null;

  afterEach(async () => {
    await portal?.close();
    await site?.close();
    portal = null;
    site = null;
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = "";
  });

  /** A portal, its build state served over HTTP as the live site, and the function's variables. */
  async function publishedSite(hookUrl: string): Promise<RunningPortal> {
    dir = mkdtempSync(join(tmpdir(), "ecp-scheduled-"));
    portal = await startPortal({ port: 0, now: NOW });
    const env = buildApiEnv(portal, dir);
    const root = await publishState(env, dir);
    site = await startPreviewServer({ root, port: 0 });
    for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
    vi.stubEnv("SITE_URL", site.origin);
    vi.stubEnv("BUILD_HOOK_URL", hookUrl);
    vi.stubEnv("REBUILD_ALWAYS", "");
    vi.stubEnv("SITE_NOW", NOW);
    return portal;
  }

  it("should check the portal and start no build when nothing changed", async () => {
    const hook = await startHook((_request, response) => response.writeHead(200).end());
    await publishedSite(hook.url);
    vi.spyOn(console, "log").mockImplementation(() => undefined);

    const response = await invoke();

    expect(response.status).toBe(200);
    expect((await response.text()).trim().split("\n").at(-1)).toMatch(/^unchanged/);
    expect(hook.calls).toEqual([]);
  });

  it("should start exactly one build when an event changed", async () => {
    const hook = await startHook((_request, response) => response.writeHead(200).end());
    const running = await publishedSite(hook.url);
    const event = createDemoDataset(new Date(NOW)).events[0];
    running.updateEvent(event?.calendarId ?? "", event?.id ?? "", { title: "Changed" });
    const logged = vi.spyOn(console, "log").mockImplementation(() => undefined);

    const response = await invoke();

    expect(response.status).toBe(200);
    expect(hook.calls).toEqual([{ method: "POST", url: `/build_hooks/${HOOK_ID}` }]);
    expect(logged).toHaveBeenLastCalledWith(
      expect.stringMatching(
        /^scheduled-rebuild \S+: changed: 1 event updated in 1 calendar; rebuild requested$/,
      ),
    );
  });

  it("should start one build per change when it runs every minute, remembering it in Netlify Blobs", async () => {
    const hook = await startHook((_request, response) => response.writeHead(200).end());
    const running = await publishedSite(hook.url);
    const blobs = new BlobsServer({ directory: join(dir, "blobs"), port: 0, token: "blobs-token" });
    const { port } = await blobs.start();
    const store = getStore({
      name: "rebuild",
      edgeURL: `http://127.0.0.1:${port}`,
      siteID: "site",
      token: "blobs-token",
    });
    vi.spyOn(console, "log").mockImplementation(() => undefined);
    try {
      const event = createDemoDataset(new Date(NOW)).events[0];
      running.updateEvent(event?.calendarId ?? "", event?.id ?? "", { title: "Changed" });

      const first = await checkAndRequest(process.env, store);
      const second = await checkAndRequest(process.env, store);

      expect([first.status, second.status]).toEqual([200, 200]);
      expect(hook.calls).toHaveLength(1);
      expect((await second.text()).trim().split("\n").at(-1)).toMatch(
        /^changed: 1 event updated in 1 calendar; a rebuild for it was requested at \S+ and is not published yet, so none was requested again$/,
      );
      expect(await store.get("requested-build", { type: "json" })).toEqual({
        seen: expect.stringMatching(/^sha256-/),
        at: new Date(NOW_MS).toISOString(),
      });
    } finally {
      await blobs.stop();
    }
  });

  it("should answer 500 with one clear line, and start nothing, when the portal is down", async () => {
    const hook = await startHook((_request, response) => response.writeHead(200).end());
    const running = await publishedSite(hook.url);
    await running.close();
    vi.spyOn(console, "log").mockImplementation(() => undefined);

    const response = await invoke();

    expect(response.status).toBe(500);
    expect((await response.text()).trim()).toMatch(/^error: Cannot reach the portal/);
    expect(hook.calls).toEqual([]);
  });

  it("should answer 500 and start nothing when the shrink guard would stop the build, and start it with ALLOW_SHRINK=1", async () => {
    const hook = await startHook((_request, response) => response.writeHead(200).end());
    const running = await publishedSite(hook.url);
    const port = Number(new URL(running.url).port);
    await running.close();
    // The same portal now answers the token with empty lists, as some do an expired one.
    portal = await startPortal({ port, now: NOW, emptyLists: true });
    vi.stubEnv("EVENT_API_TOKEN", portal.token);
    vi.spyOn(console, "log").mockImplementation(() => undefined);

    const stopped = await invoke();

    expect(stopped.status).toBe(500);
    expect((await stopped.text()).trim().split("\n")).toEqual([
      expect.stringMatching(/^portal: \d+ list requests/),
      expect.stringMatching(
        /^error: No build requested, because the shrink guard would stop it: the site would have no events \(it had \d+\); .* allow it once with ALLOW_SHRINK=1/,
      ),
    ]);
    expect(hook.calls).toEqual([]);

    vi.stubEnv("ALLOW_SHRINK", "1");
    const allowed = await invoke();

    expect(allowed.status).toBe(200);
    expect((await allowed.text()).trim().split("\n").at(-1)).toMatch(
      /^changed: 4 calendars removed; \d+ events removed in 4 calendars; rebuild requested with ALLOW_SHRINK=1$/,
    );
    expect(hook.calls).toHaveLength(1);
  });

  it("should start a build on every run with REBUILD_ALWAYS=1 (plain periodic rebuilds)", async () => {
    const hook = await startHook((_request, response) => response.writeHead(200).end());
    vi.stubEnv("REBUILD_ALWAYS", "1");
    vi.stubEnv("BUILD_HOOK_URL", hook.url);
    vi.spyOn(console, "log").mockImplementation(() => undefined);

    const response = await invoke();

    expect(response.status).toBe(200);
    expect(hook.calls).toEqual([{ method: "POST", url: `/build_hooks/${HOOK_ID}` }]);
  });

  it("should answer 500 with a clear message when BUILD_HOOK_URL is missing", async () => {
    vi.stubEnv("REBUILD_ALWAYS", "");
    vi.stubEnv("SITE_URL", "https://events.example.org");
    vi.stubEnv("BUILD_HOOK_URL", "");
    const logged = vi.spyOn(console, "log").mockImplementation(() => undefined);

    const response = await invoke();

    expect(response.status).toBe(500);
    expect(await response.text()).toMatch(/BUILD_HOOK_URL is not set/);
    expect(logged).toHaveBeenCalledWith(expect.stringMatching(/BUILD_HOOK_URL is not set/));
  });
});

describe("rebuildIfChanged within the function's time limit", () => {
  it("should give up with one clear line when the portal is slower than the deadline", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ecp-deadline-"));
    const fast = await startPortal({ port: 0, now: NOW });
    const env = buildApiEnv(fast, dir);
    const root = await publishState(env, dir);
    await fast.close();
    // The same address, now answering slowly.
    const slow = await startPortal({
      port: Number(new URL(fast.url).port),
      now: NOW,
      latencyMs: 2_000,
    });
    try {
      await expect(
        rebuildIfChanged({
          config: readApiConfig({ ...env, EVENT_API_TOKEN: slow.token }),
          published: root,
          nowMs: NOW_MS,
          hookUrl: "http://127.0.0.1:9/never",
          deadlineMs: 300,
        }),
      ).rejects.toThrow(/did not answer every list request within 0.3 s/);
    } finally {
      await slow.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
