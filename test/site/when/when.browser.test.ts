import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { paths } from "../../../src/model/url-scheme.ts";
import { axeCheck, useBrowser } from "../../helpers/browser.ts";
import { NOW_MS } from "../../helpers/clock.ts";
import { DEMO_SITE_URL } from "../../helpers/demo-build.ts";
import { useServedDemo } from "../../helpers/demo-site.ts";
import { hasChromium } from "../../helpers/system-packages.ts";

/*
 * The "when" pages in Chromium, served as the CDN serves them (production
 * CSP): the build (at Friday 20 March 2026, 13:00 in Amsterdam) shows
 * Friday; a visitor whose clock is a day later sees Saturday's events and
 * date from the same file, a page left open turns over at midnight, and a
 * page days old says so.
 */

const HOUR = 3_600_000;

interface WhenJson {
  readonly ranges: readonly { readonly events: readonly number[] }[];
  readonly events: readonly { readonly url: string }[];
}

/** What a visitor sees: the heading and the event links shown. */
async function seen(page: Page): Promise<{ heading: string; links: string[] }> {
  return {
    heading: (await page.locator("h1").innerText()).replace(/\s+/g, " ").trim(),
    links: (
      await page.$$eval(".day .event-title a", (links) =>
        links
          .filter((link) => link instanceof HTMLElement && link.offsetParent !== null)
          .map((link) => link.getAttribute("href") ?? ""),
      )
    ).sort(),
  };
}

describe.runIf(hasChromium())("the when pages in a browser", () => {
  const chromium = useBrowser();
  const demo = useServedDemo();

  /** The event paths a JSON range lists: what the page must show in that view. */
  function expectedPaths(jsonPath: string, view: number): string[] {
    const json = JSON.parse(readFileSync(join(demo.dir, jsonPath), "utf8")) as WhenJson;
    return (json.ranges[view]?.events ?? [])
      .map((i) => (json.events[i]?.url ?? "").slice(DEMO_SITE_URL.length))
      .sort();
  }

  /** A "when" page as a visitor in New York sees it at `at` (NOW by default). */
  async function open(
    path: string,
    options: { at?: number; javaScript?: boolean; installClock?: boolean } = {},
  ): Promise<{ page: Page; problems: string[] }> {
    const { page, problems } = await chromium.open(demo.origin + path, {
      viewport: { width: 1200, height: 900 },
      javaScriptEnabled: options.javaScript ?? true,
      // The page's days are Amsterdam's whatever the visitor's zone.
      timezoneId: "America/New_York",
      at: options.at ?? NOW_MS,
      running: options.installClock ?? false,
      warnings: true,
    });
    return { page, problems };
  }

  const today = paths.when("today");
  const todayJson = paths.apiWhen("today").slice(1);

  it("should show the build's day at the build's time", async () => {
    // Served with the production policy: scripts from the site only, nothing inline.
    const csp = (await fetch(demo.origin + today)).headers.get("content-security-policy");
    expect(csp).toContain("script-src 'self';");
    const { page, problems } = await open(today);
    const view = await seen(page);
    expect(view.heading).toBe("Today, Friday, 20 March 2026");
    expect(view.links).toEqual(expectedPaths(todayJson, 0));
    expect(await page.locator("[data-when-stale]").isVisible()).toBe(false);
    expect(problems).toEqual([]);
  });

  it("should show the next day's events and date to a visitor a day later, from the same file", async () => {
    const { page, problems } = await open(today, { at: NOW_MS + 24 * HOUR });
    const view = await seen(page);
    expect(view.heading).toBe("Today, Saturday, 21 March 2026");
    const saturday = expectedPaths(todayJson, 1);
    expect(saturday).not.toEqual(expectedPaths(todayJson, 0));
    expect(view.links).toEqual(saturday);
    expect(await page.locator("[data-when-stale]").isVisible()).toBe(false);
    // Under the production CSP: no violation, no error.
    expect(problems).toEqual([]);
  });

  it("should turn over at midnight in Amsterdam on a page left open", async () => {
    // 23:59 on Friday in Amsterdam (22:59 UTC).
    const { page } = await open(today, {
      at: Date.parse("2026-03-20T22:59:00Z"),
      installClock: true,
    });
    expect((await seen(page)).heading).toContain("Friday");
    await page.clock.runFor(3 * 60_000);
    expect((await seen(page)).heading).toBe("Today, Saturday, 21 March 2026");
    expect((await seen(page)).links).toEqual(expectedPaths(todayJson, 1));
  });

  it("should say a page is out of date when it is older than the days it holds", async () => {
    const { page } = await open(today, { at: NOW_MS + 3 * 24 * HOUR });
    const stale = page.locator("[data-when-stale]");
    expect(await stale.isVisible()).toBe(true);
    expect(await stale.innerText()).toContain("Saturday, 21 March 2026");
    expect(await stale.locator("a").getAttribute("href")).toBe(paths.events());
  });

  it("should show the build's view, with its date, without JavaScript", async () => {
    const { page } = await open(today, { at: NOW_MS + 24 * HOUR, javaScript: false });
    const view = await seen(page);
    expect(view.heading).toBe("Today, Friday, 20 March 2026");
    expect(view.links).toEqual(expectedPaths(todayJson, 0));
  });

  it("should give each event link its date in its accessible name, and skip hidden rows with the keyboard", async () => {
    const { page } = await open(paths.when("week"), { at: NOW_MS + 24 * HOUR });
    const tree = await page.locator("main").ariaSnapshot();
    // Names with a colon are quoted again in the YAML: match the name wherever the line starts.
    const eventLinks = [...tree.matchAll(/\blink "([^"]+)"/g)]
      .map((m) => m[1] ?? "")
      .filter(
        (name) => !/^(Today|Tomorrow|This weekend|This week|Next week|This month)$/.test(name),
      );
    const shown = (await seen(page)).links;
    expect(eventLinks).toHaveLength(shown.length);
    // "Repair Café, Saturday, 21 March 2026, 10:00–13:00 CET"; a multi-day one, its days.
    for (const name of eventLinks) expect(name).toMatch(/ ?, \w+day,? \d+ \w+.* 2026/);
    // Tab through the page (bounded): the event links reached are exactly the ones shown.
    const reached = new Set<string>();
    for (let i = 0; i < 80; i++) {
      await page.keyboard.press("Tab");
      const href = await page.evaluate(() =>
        document.activeElement?.closest(".day")
          ? document.activeElement.getAttribute("href")
          : null,
      );
      if (href) reached.add(href);
    }
    expect([...reached].sort()).toEqual(shown);
  });

  it("should have no serious accessibility problems, site-wide and for a calendar", async () => {
    for (const path of [paths.when("weekend"), paths.calendarWhen("culture", "month")]) {
      const { page } = await open(path);
      const violations = (await axeCheck(page)).serious;
      expect(violations, path).toEqual([]);
    }
  });
});
