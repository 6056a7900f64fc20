import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import scheduledRebuild from "../../netlify/functions/scheduled-rebuild.mts";
import { redactHookUrl, triggerRebuild } from "../../src/build/trigger-rebuild.ts";

const HOOK_ID = "5f3c9d2e8a7b6c1d0e9f8a7b";
const FIXED_NOW = () => new Date("2025-03-30T01:00:00Z");

interface HookCall {
  method: string | undefined;
  url: string | undefined;
}

/** A local stand-in for the host's build hook endpoint. */
async function startHook(
  answer: (request: IncomingMessage, response: ServerResponse) => void,
): Promise<{ url: string; calls: HookCall[]; server: Server }> {
  const calls: HookCall[] = [];
  const server = createServer((request, response) => {
    calls.push({ method: request.method, url: request.url });
    request.resume();
    answer(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/build_hooks/${HOOK_ID}`, calls, server };
}

let servers: Server[] = [];
let lines: string[] = [];
const log = (line: string) => lines.push(line);

beforeEach(() => {
  servers = [];
  lines = [];
});

afterEach(async () => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

describe("triggerRebuild", () => {
  it("should POST the build hook exactly once and report success", async () => {
    const hook = await startHook((_request, response) => response.writeHead(200).end());
    servers.push(hook.server);

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
    servers.push(hook.server);

    const result = await triggerRebuild({ hookUrl: hook.url, now: FIXED_NOW, log });

    expect(result).toMatchObject({ ok: false, status: 500 });
    expect(result.message).toMatch(/answered HTTP 500; no build was started/);
    expect(hook.calls).toHaveLength(1);
  });

  it("should give up on a hook that never answers, within its own deadline", async () => {
    // The server accepts the request and never answers.
    const hook = await startHook(() => undefined);
    servers.push(hook.server);

    const result = await triggerRebuild({ hookUrl: hook.url, timeoutMs: 200, now: FIXED_NOW, log });

    expect(result.ok).toBe(false);
    expect(result.message).toMatch(/no answer within 0.2 s; the next run will try again/);
  });

  it("should report an unreachable hook without throwing", async () => {
    const hook = await startHook((_request, response) => response.end());
    await new Promise((resolve) => hook.server.close(resolve));

    const result = await triggerRebuild({ hookUrl: hook.url, log });

    expect(result.ok).toBe(false);
    expect(result.message).toMatch(/failed: network error/);
  });

  it("should never write the hook id into a log line or a result", async () => {
    const hook = await startHook((_request, response) => response.writeHead(500).end());
    servers.push(hook.server);

    const failed = await triggerRebuild({ hookUrl: hook.url, log });
    const passedHook = await startHook((_request, response) => response.writeHead(200).end());
    servers.push(passedHook.server);
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
  it("should trigger the hook from BUILD_HOOK_URL and answer 200", async () => {
    const hook = await startHook((_request, response) => response.writeHead(200).end());
    servers.push(hook.server);
    vi.stubEnv("BUILD_HOOK_URL", hook.url);
    vi.spyOn(console, "log").mockImplementation(() => undefined);

    const response = await scheduledRebuild(
      new Request("http://localhost/.netlify/functions/scheduled-rebuild"),
    );

    expect(response.status).toBe(200);
    expect(hook.calls).toEqual([{ method: "POST", url: `/build_hooks/${HOOK_ID}` }]);
  });

  it("should answer 500 with a clear message when BUILD_HOOK_URL is missing", async () => {
    vi.stubEnv("BUILD_HOOK_URL", "");
    const logged = vi.spyOn(console, "log").mockImplementation(() => undefined);

    const response = await scheduledRebuild(
      new Request("http://localhost/.netlify/functions/scheduled-rebuild"),
    );

    expect(response.status).toBe(500);
    expect(await response.text()).toMatch(/BUILD_HOOK_URL is not set/);
    expect(logged).toHaveBeenCalledWith(expect.stringMatching(/BUILD_HOOK_URL is not set/));
  });
});
