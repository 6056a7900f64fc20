import { request } from "undici";
import { describe, expect, it } from "vitest";
import { useDemoPortalIfUnconfigured } from "../../src/cli/demo-portal.ts";
import { readSiteConfig } from "../../src/config/site.ts";
import { ConfigError } from "../../src/errors.ts";

const site = (url: string) => readSiteConfig({ SITE_URL: url, SITE_NOW: "2026-03-20T12:00:00Z" });

describe("useDemoPortalIfUnconfigured", () => {
  it("should serve the demo over real HTTP when nothing is configured", async () => {
    const env: NodeJS.ProcessEnv = {};
    const stop = await useDemoPortalIfUnconfigured(site("http://localhost:8080"), env);
    try {
      expect(env.EVENT_API_URL).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
      const response = await request(`${env.EVENT_API_URL}/event-calendars`, {
        headers: { authorization: `Bearer ${env.EVENT_API_TOKEN}` },
      });
      expect(response.statusCode).toBe(200);
      expect(((await response.body.json()) as unknown[]).length).toBeGreaterThan(0);
    } finally {
      await stop();
    }
  });

  it("should refuse to publish demo data to a published SITE_URL unless asked by name", async () => {
    const published = site("https://events.example.org");
    await expect(useDemoPortalIfUnconfigured(published, {})).rejects.toThrow(ConfigError);
    await expect(useDemoPortalIfUnconfigured(published, {})).rejects.toThrow(
      /EVENT_API_URL is not set/,
    );
    const env: NodeJS.ProcessEnv = { EVENT_API_URL: "demo" };
    const stop = await useDemoPortalIfUnconfigured(published, env);
    await stop();
    expect(env.EVENT_API_URL).toMatch(/^http:\/\/127\.0\.0\.1:/);
  });

  it("should leave a configured API alone", async () => {
    const env: NodeJS.ProcessEnv = {
      EVENT_API_URL: "https://portal.example.org/v1",
      EVENT_API_TOKEN: "t",
    };
    await (await useDemoPortalIfUnconfigured(site("https://events.example.org"), env))();
    expect(env).toEqual({ EVENT_API_URL: "https://portal.example.org/v1", EVENT_API_TOKEN: "t" });
  });
});
