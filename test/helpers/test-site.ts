import type { SiteConfig } from "../../src/config/site.ts";
import { SiteUrls } from "../../src/model/url-scheme.ts";
import { fixtureSnapshot } from "../fixtures/snapshot.ts";
import { NOW_DATETIME } from "./clock.ts";

/** The site settings the feeds, calendar and page tests build with (pinned clock). */
export const TEST_SITE: SiteConfig = {
  url: "https://events.example.org",
  urls: new SiteUrls("https://events.example.org"),
  title: "City Events",
  description: "Markets, walks, concerts; and more.",
  lang: "en-GB",
  uiLanguage: "en",
  languages: [
    {
      lang: "en-GB",
      uiLanguage: "en",
      folder: "",
      url: "https://events.example.org",
      title: "City Events",
      description: "Markets, walks, concerts; and more.",
      name: "English",
    },
  ],
  contentLang: "en-GB",
  timeZone: "Europe/Amsterdam",
  now: NOW_DATETIME,
  pastDays: 365,
  feedPastDays: 30,
  feedMaxItems: 200,
  cancelledGraceDays: 30,
  refreshMinutes: 60,
  websubHub: null,
  changeNoticeDays: 14,
  icsMaxBytes: 1_000_000,
  eventIcs: "file",
  collapseSeries: false,
  map: null,
  eventEmbeds: true,
  digestDay: null,
  fediverse: null,
  indexNow: null,
  accessibility: {
    conformance: "partial",
    statementDate: "2026-03-01",
    contact: { kind: "email", text: "access@example.org", href: "mailto:access@example.org" },
    enforcementUrl: null,
  },
};

/** TEST_SITE with some settings changed (a new url brings its urls). */
export function siteWith(overrides: Partial<SiteConfig>): SiteConfig {
  const url = overrides.url ?? TEST_SITE.url;
  return { ...TEST_SITE, urls: new SiteUrls(url), ...overrides };
}

/**
 * What the feed and calendar renderers are given besides the events: the
 * whole of TEST_SITE, data last changed at the fixture's fetch time, warnings dropped.
 */
export const SITE_WIDE = {
  site: TEST_SITE,
  scope: { kind: "site" } as const,
  dataUpdatedAt: fixtureSnapshot.fetchedAt,
  warn: () => {},
};
