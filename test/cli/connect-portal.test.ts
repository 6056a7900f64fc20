import { request } from "undici";
import { describe, expect, it } from "vitest";
import { connectPortal } from "../../src/cli/connect-portal.ts";
import { readBuildConfig } from "../../src/config/build-config.ts";
import { ConfigError } from "../../src/errors.ts";
import { NOW } from "../helpers/clock.ts";

describe("connectPortal", () => {
  it("should serve the demo over real HTTP when nothing is configured", async () => {
    const config = readBuildConfig({ SITE_URL: "http://localhost:8080", SITE_NOW: NOW });
    const portal = await connectPortal(config);
    try {
      expect(portal.api.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
      const response = await request(`${portal.api.baseUrl}/event-calendars`, {
        headers: { authorization: `Bearer ${portal.api.token}` },
      });
      expect(response.statusCode).toBe(200);
      expect(((await response.body.json()) as unknown[]).length).toBeGreaterThan(0);
    } finally {
      await portal.close();
    }
  });

  it("should keep the API options the environment sets for the demo portal", async () => {
    const config = readBuildConfig({
      SITE_NOW: NOW,
      EVENT_API_CACHE_DIR: "/tmp/elsewhere",
      EVENT_API_CONCURRENCY: "3",
    });
    const portal = await connectPortal(config);
    await portal.close();
    expect(portal.api.cacheDir).toBe("/tmp/elsewhere");
    expect(portal.api.concurrency).toBe(3);
  });

  it("should refuse to publish demo data to a published SITE_URL unless asked by name", async () => {
    const published = { SITE_URL: "https://events.example.org", SITE_NOW: NOW };
    expect(() => readBuildConfig(published)).toThrow(ConfigError);
    expect(() => readBuildConfig(published)).toThrow(/EVENT_API_URL is not set/);
    const portal = await connectPortal(readBuildConfig({ ...published, EVENT_API_URL: "demo" }));
    await portal.close();
    expect(portal.api.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:/);
  });

  it("should leave a configured API alone", async () => {
    const env = {
      SITE_URL: "https://events.example.org",
      EVENT_API_URL: "https://portal.example.org/v1",
      EVENT_API_TOKEN: "token-1234",
    };
    const portal = await connectPortal(readBuildConfig(env));
    await portal.close();
    expect(portal.api.baseUrl).toBe("https://portal.example.org/v1");
    expect(portal.api.token).toBe("token-1234");
  });
});
