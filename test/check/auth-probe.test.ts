import { afterAll, describe, expect, it } from "vitest";
import { formatAuth } from "../../src/api/auth.ts";
import {
  COMMON_PLACEMENTS,
  placementFromChallenge,
  probeAuth,
} from "../../src/check/auth-probe.ts";
import { readApiConfig } from "../../src/config/api.ts";
import { type RunningPortal, startPortal } from "../../src/portal/index.ts";
import { NOW } from "../helpers/clock.ts";

const portals: RunningPortal[] = [];
afterAll(() => Promise.all(portals.map((portal) => portal.close())));

async function portalWith(auth: string): Promise<RunningPortal> {
  const portal = await startPortal({ port: 0, now: NOW, auth });
  portals.push(portal);
  return portal;
}

const configFor = (portal: RunningPortal, token = portal.token, auth = "bearer") =>
  readApiConfig({
    EVENT_API_URL: portal.url,
    EVENT_API_TOKEN: token,
    EVENT_API_AUTH: auth,
    EVENT_API_RETRY_MAX_WAIT: "10ms",
  });

describe("probeAuth", () => {
  it.each(COMMON_PLACEMENTS.filter((mode) => mode.kind !== "bearer").map(formatAuth))(
    "should find %s from a Bearer start, asking the portal at most once per placement",
    async (auth) => {
      const portal = await portalWith(auth);
      const result = await probeAuth(configFor(portal), null);
      expect(result.found && formatAuth(result.found)).toBe(auth);
      expect(result.tried.at(-1)).toBe(auth);
      expect(new Set(result.tried.map((t) => t.toLowerCase())).size).toBe(result.tried.length);
      expect(portal.counters.total).toBe(result.tried.length);
      expect(portal.counters.byStatus[200]).toBe(1);
    },
  );

  it("should try the placement the portal's challenge names first", async () => {
    const portal = await portalWith("header:X-Api-Key");
    const result = await probeAuth(
      configFor(portal),
      'ApiKey realm="event-calendar", header="x-api-key"',
    );
    expect(result.tried).toEqual(["header:X-Api-Key"]);
    expect(portal.counters.total).toBe(1);
  });

  it("should give up after trying every other placement once with a wrong token", async () => {
    const portal = await portalWith("bearer");
    const result = await probeAuth(
      configFor(portal, "ecp_aaaaaaaaaaaa_wrong-token-wrong-token-wrong-token-wr"),
      null,
    );
    expect(result.found).toBeNull();
    expect(result.tried).toHaveLength(COMMON_PLACEMENTS.length - 1);
    expect(result.tried).not.toContain("bearer");
    expect(portal.counters.total).toBe(COMMON_PLACEMENTS.length - 1);
    // Each answer is kept with its placement, for check-api to show the portal's words.
    expect(result.rejections.map((r) => r.placement)).toEqual(result.tried);
    expect(result.rejections[0]).toMatchObject({ placement: "header:X-Api-Key", status: 401 });
    expect(JSON.parse(result.rejections[0]?.body ?? "{}").detail).toBe(
      "This API needs a token; see docs/api.md, Authentication.",
    );
  });
});

describe("COMMON_PLACEMENTS", () => {
  it("should name the common query parameters and API-key headers, each once", () => {
    const names = COMMON_PLACEMENTS.map(formatAuth);
    for (const placement of [
      "query:key",
      "query:api_key",
      "query:apikey",
      "query:token",
      "query:access_token",
      "header:X-Api-Key",
      "header:X-Api-Token",
      "header:X-Auth-Token",
      "header:Api-Key",
    ])
      expect(names).toContain(placement);
    expect(new Set(names.map((name) => name.toLowerCase())).size).toBe(names.length);
  });
});

describe("placementFromChallenge", () => {
  it.each([
    ['Bearer realm="x", error="invalid_token"', { kind: "bearer" }],
    ['Token realm="api"', { kind: "scheme", name: "Token" }],
    ['ApiKey realm="event-calendar", header="x-api-key"', { kind: "header", name: "X-Api-Key" }],
    ['ApiKey realm="event-calendar", query="api_key"', { kind: "query", name: "api_key" }],
    ['Basic realm="site"', null],
    [null, null],
  ])("should read %s", (challenge, placement) => {
    expect(placementFromChallenge(challenge)).toEqual(placement);
  });
});
