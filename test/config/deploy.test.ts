import { describe, expect, it } from "vitest";
import { readBuildConfig } from "../../src/config/build-config.ts";
import { DEPLOY_TARGETS, readDeployConfig } from "../../src/config/deploy.ts";
import { readSiteConfig } from "../../src/config/site.ts";
import { ConfigError } from "../../src/errors.ts";

describe("DEPLOY_TARGET", () => {
  it("should be netlify unless set, and any of the hosts when set", () => {
    expect(readDeployConfig({}).target).toBe("netlify");
    expect(readDeployConfig({ DEPLOY_TARGET: "  " }).target).toBe("netlify");
    for (const target of DEPLOY_TARGETS) {
      expect(readDeployConfig({ DEPLOY_TARGET: target.toUpperCase() }).target).toBe(target);
    }
  });

  it("should refuse an unknown host, naming the variable and the hosts it knows", () => {
    expect(() => readDeployConfig({ DEPLOY_TARGET: "vercel" })).toThrow(ConfigError);
    expect(() => readDeployConfig({ DEPLOY_TARGET: "vercel" })).toThrow(
      /^DEPLOY_TARGET: "vercel" .*netlify, github-pages, cloudflare-pages, s3, static/,
    );
  });

  it("should be part of the one build value", () => {
    const config = readBuildConfig({ DEPLOY_TARGET: "github-pages", SITE_NOW: "2026-03-20" });
    expect(config.deploy).toEqual({ target: "github-pages" });
  });
});

describe("EVENT_ICS", () => {
  it("should write a file per event unless inline is asked for", () => {
    expect(readSiteConfig({}).eventIcs).toBe("file");
    expect(readSiteConfig({ EVENT_ICS: "inline" }).eventIcs).toBe("inline");
    expect(readSiteConfig({ EVENT_ICS: " File " }).eventIcs).toBe("file");
  });

  it("should refuse anything else, naming the variable", () => {
    expect(() => readSiteConfig({ EVENT_ICS: "none" })).toThrow(ConfigError);
    expect(() => readSiteConfig({ EVENT_ICS: "none" })).toThrow(
      /^EVENT_ICS: expected file or inline/,
    );
  });
});

describe("EVENT_EMBEDS", () => {
  it("should give each event a card to embed unless switched off", () => {
    expect(readSiteConfig({}).eventEmbeds).toBe(true);
    expect(readSiteConfig({ EVENT_EMBEDS: "off" }).eventEmbeds).toBe(false);
    expect(readSiteConfig({ EVENT_EMBEDS: " On " }).eventEmbeds).toBe(true);
  });

  it("should refuse anything else, naming the variable", () => {
    expect(() => readSiteConfig({ EVENT_EMBEDS: "no" })).toThrow(ConfigError);
    expect(() => readSiteConfig({ EVENT_EMBEDS: "0" })).toThrow(
      /^EVENT_EMBEDS: expected on or off/,
    );
  });
});
