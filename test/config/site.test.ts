import { describe, expect, it } from "vitest";
import { readSiteConfig } from "../../src/config/site.ts";
import { ConfigError } from "../../src/errors.ts";

describe("readSiteConfig", () => {
  it("should give working defaults with nothing configured", () => {
    const config = readSiteConfig({});
    expect(config.url).toBe("http://localhost:8080");
    expect(config.lang).toBe("en-GB");
    expect(config.uiLanguage).toBe("en");
    expect(config.refreshMinutes).toBe(60);
    expect(config.websubHub).toBeNull();
    expect(config.changeNoticeDays).toBe(14);
    expect(config.icsMaxBytes).toBe(1_000_000);
  });

  it("should read ICS_MAX_BYTES in bytes, KB or MB, or none for no limit", () => {
    expect(readSiteConfig({ ICS_MAX_BYTES: "250000" }).icsMaxBytes).toBe(250_000);
    expect(readSiteConfig({ ICS_MAX_BYTES: "800KB" }).icsMaxBytes).toBe(800_000);
    expect(readSiteConfig({ ICS_MAX_BYTES: "1.5 MB" }).icsMaxBytes).toBe(1_500_000);
    expect(readSiteConfig({ ICS_MAX_BYTES: "none" }).icsMaxBytes).toBeNull();
  });

  it("should ask subscribers to poll every 15 minutes at most, however often the check runs", () => {
    expect(readSiteConfig({ REBUILD_INTERVAL_MINUTES: "5" }).refreshMinutes).toBe(15);
    expect(readSiteConfig({ REBUILD_INTERVAL_MINUTES: "30" }).refreshMinutes).toBe(30);
  });

  it("should take an https WebSub hub and refuse anything else", () => {
    expect(readSiteConfig({ WEBSUB_HUB: "https://hub.example.org/" }).websubHub).toBe(
      "https://hub.example.org/",
    );
    expect(() => readSiteConfig({ WEBSUB_HUB: "http://hub.example.org/" })).toThrow(/WEBSUB_HUB/);
    expect(() => readSiteConfig({ WEBSUB_HUB: "hub" })).toThrow(/WEBSUB_HUB/);
  });

  it("should normalize SITE_URL and pin SITE_NOW", () => {
    const config = readSiteConfig({
      SITE_URL: "https://events.example.org/sub/",
      SITE_NOW: "2026-03-01T12:00:00Z",
    });
    expect(config.url).toBe("https://events.example.org/sub");
    expect(config.now.toISO()).toBe("2026-03-01T12:00:00.000Z");
  });

  it("should accept regional language tags and pick UI strings by language", () => {
    expect(readSiteConfig({ SITE_LANG: "nl-be" })).toMatchObject({
      lang: "nl-BE",
      uiLanguage: "nl",
    });
  });

  it("should take a full tag of each of the ten languages, and the pseudo-locale", () => {
    for (const tag of ["de-AT", "fr-BE", "pt-BR", "es-MX", "it", "pl", "ar-EG", "ja", "en-US"]) {
      expect(readSiteConfig({ SITE_LANG: tag }).lang).toBe(tag);
    }
    expect(readSiteConfig({ SITE_LANG: "en-xa" })).toMatchObject({
      lang: "en-XA",
      uiLanguage: "en",
    });
    expect(() => readSiteConfig({ SITE_LANG: "sv-SE" })).toThrow(
      /SITE_LANG: "sv-SE" is not supported/,
    );
  });

  it("should name and describe the site in its language when SITE_TITLE and SITE_DESCRIPTION are unset", () => {
    expect(readSiteConfig({ SITE_LANG: "de-AT" })).toMatchObject({
      title: "Veranstaltungen",
      description: expect.stringMatching(/^Kommende Veranstaltungen/),
    });
    expect(readSiteConfig({ SITE_LANG: "fr" }).title).toBe("Événements");
    expect(readSiteConfig({ SITE_LANG: "ja" }).title).toBe("イベント");
    expect(readSiteConfig({ SITE_LANG: "en-GB" }).title).toBe("Events");
    expect(readSiteConfig({ SITE_LANG: "de", SITE_TITLE: "Kulturkalender" }).title).toBe(
      "Kulturkalender",
    );
  });

  it.each([
    [{ SITE_URL: "not a url" }, /SITE_URL/],
    [{ SITE_URL: "ftp://x.org" }, /SITE_URL/],
    [{ SITE_TIMEZONE: "Mars/Olympus" }, /SITE_TIMEZONE/],
    [{ SITE_LANG: "xx" }, /SITE_LANG/],
    [{ SITE_NOW: "yesterday" }, /SITE_NOW/],
    [{ FEED_PAST_DAYS: "-3" }, /FEED_PAST_DAYS/],
    [{ CHANGE_NOTICE_DAYS: "0" }, /CHANGE_NOTICE_DAYS/],
    [{ ICS_MAX_BYTES: "1 GB" }, /ICS_MAX_BYTES/],
    [{ ICS_MAX_BYTES: "12" }, /ICS_MAX_BYTES/],
  ])("should reject %o with a line naming the variable", (env, pattern) => {
    expect(() => readSiteConfig(env)).toThrow(ConfigError);
    expect(() => readSiteConfig(env)).toThrow(pattern);
  });
});
