import { describe, expect, it } from "vitest";
import { readPublishConfig, readShrinkGuardConfig } from "../../src/config/publish.ts";
import { ConfigError } from "../../src/errors.ts";

describe("readShrinkGuardConfig", () => {
  it("should default to a 50% limit, not allowed", () => {
    expect(readShrinkGuardConfig({})).toEqual({
      maxDropShare: 0.5,
      minDropEvents: 10,
      allow: false,
    });
  });

  it("should read ALLOW_SHRINK and SHRINK_GUARD_MAX_DROP", () => {
    expect(
      readShrinkGuardConfig({ ALLOW_SHRINK: "1", SHRINK_GUARD_MAX_DROP: "0.8" }),
    ).toMatchObject({
      maxDropShare: 0.8,
      allow: true,
    });
    expect(readShrinkGuardConfig({ ALLOW_SHRINK: "0" }).allow).toBe(false);
  });

  it("should allow one build started by a build hook whose body asks for it", () => {
    expect(readShrinkGuardConfig({ INCOMING_HOOK_BODY: "ALLOW_SHRINK=1" }).allow).toBe(true);
    expect(readShrinkGuardConfig({ INCOMING_HOOK_BODY: "{}" }).allow).toBe(false);
  });

  it("should name the variable when a value is wrong", () => {
    expect(() => readShrinkGuardConfig({ SHRINK_GUARD_MAX_DROP: "80%" })).toThrow(ConfigError);
    expect(() => readShrinkGuardConfig({ SHRINK_GUARD_MAX_DROP: "1.5" })).toThrow(
      /SHRINK_GUARD_MAX_DROP/,
    );
    expect(() => readShrinkGuardConfig({ ALLOW_SHRINK: "please" })).toThrow(/ALLOW_SHRINK/);
    expect(() => readShrinkGuardConfig({ SHRINK_GUARD_MIN_EVENTS: "0" })).toThrow(
      /SHRINK_GUARD_MIN_EVENTS/,
    );
  });
});

describe("readPublishConfig", () => {
  it("should keep the page record unless PAGE_RECORD says off or verify, and refuse anything else", () => {
    const site = "https://example.org";
    expect(readPublishConfig({}, site).pageRecord).toBe("on");
    expect(readPublishConfig({ PAGE_RECORD: " OFF " }, site).pageRecord).toBe("off");
    expect(readPublishConfig({ PAGE_RECORD: "verify" }, site).pageRecord).toBe("verify");
    expect(() => readPublishConfig({ PAGE_RECORD: "bogus" }, site)).toThrow(
      'PAGE_RECORD: expected on, off or verify, got "bogus".',
    );
  });

  it("should read the published site's manifest at SITE_URL unless told otherwise", () => {
    const site = "https://example.org/events";
    expect(readPublishConfig({}, site).publishedSite).toBe("https://example.org/events");
    expect(
      readPublishConfig(
        { PREVIOUS_MANIFEST_URL: "https://cdn.example.org/api/manifest.json" },
        site,
      ).publishedSite,
    ).toBe("https://cdn.example.org");
    expect(readPublishConfig({ PREVIOUS_MANIFEST_URL: "none" }, site).publishedSite).toBe(null);
  });

  it("should never take a site on this machine for the published one", () => {
    expect(readPublishConfig({}, "http://localhost:8080").publishedSite).toBe(null);
    expect(
      readPublishConfig(
        { PREVIOUS_MANIFEST_URL: "http://127.0.0.1:9000/site/api/manifest.json" },
        "http://localhost:8080",
      ).publishedSite,
    ).toBe("http://127.0.0.1:9000/site");
  });

  it("should name PREVIOUS_MANIFEST_URL and REBUILD_DATE_DELAY when they cannot be read", () => {
    expect(() =>
      readPublishConfig({ PREVIOUS_MANIFEST_URL: "manifest.json" }, "https://example.org"),
    ).toThrow(/PREVIOUS_MANIFEST_URL/);
    expect(() => readPublishConfig({ REBUILD_DATE_DELAY: "soon" }, "https://example.org")).toThrow(
      /REBUILD_DATE_DELAY/,
    );
    expect(
      readPublishConfig({ REBUILD_DATE_DELAY: "15m" }, "https://example.org").dateDelayMs,
    ).toBe(900_000);
  });
});
