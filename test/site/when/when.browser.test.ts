import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { paths } from "../../../src/model/url-scheme.ts";
import { launchBrowser } from "../../helpers/browser.ts";
import { NOW_MS } from "../../helpers/clock.ts";
import { DEMO_SITE_URL } from "../../helpers/demo-build.ts";
import { builtDemoSite } from "../../helpers/demo-site.ts";
import { type RunningServer, startStaticServer } from "../../helpers/static-server.ts";
import { hasChromium } from "../../helpers/system-packages.ts";

/*
 * The "when" pages in Chromium, served as the CDN serves them (production
 * CSP): the build (at Friday 20 March 2026, 13:00 in Amsterdam) shows
 * Friday; a visitor whose clock is a day later sees Saturday's events and
 * date from the same file, a page left open turns over at midnight, and a
 * page days old says so.
 */

const axeSource = readFileSync(
  createRequire(import.meta.url).resolve("axe-core/axe.min.js"),
  "utf8",
);
const HOUR = 3_600_000;

let server: RunningServer;
let browser: Browser;
let closeBrowser: () => Promise<void>;
let siteDir: string;
const contexts: BrowserContext[] = [];

interface WhenJson {
  readonly ranges: readonly { readonly events: readonly number[] }[];
  readonly events: readonly { readonly url: string }[];
}

/** The event paths a JSON range lists: what the page must show in that view. */
function expectedPaths(jsonPath: string, view: number): string[] {
  const json = JSON.parse(readFileSync(join(siteDir, jsonPath), "utf8")) as WhenJson;
  return (json.ranges[view]?.events ?? [])
    .map((i) => (json.events[i]?.url ?? "").slice(DEMO_SITE_URL.length))
    .sort();
}

async function open(
  path: string,
  options: { at?: number; javaScript?: boolean; bypassCSP?: boolean; installClock?: boolean } = {},
): Promise<{ page: Page; problems: string[] }> {
  const context = await browser.newContext({
    viewport: { width: 1200, height: 900 },
    javaScriptEnabled: options.javaScript ?? true,
    bypassCSP: options.bypassCSP ?? false,
    // The page's days are Amsterdam's whatever the visitor's zone.
    timezoneId: "America/New_York",
  });
  contexts.push(context);
  const at = new Date(options.at ?? NOW_MS);
  if (options.installClock) await context.clock.install({ time: at });
  else await context.clock.setFixedTime(at);
  const page = await context.newPage();
  const problems: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error" || m.type() === "warning") problems.push(`console: ${m.text()}`);
  });
  page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
  const response = await page.goto(server.origin + path);
  expect(response?.status(), path).toBe(200);
  return { page, problems };
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

beforeAll(async () => {
  if (!hasChromium()) return;
  siteDir = (await builtDemoSite()).dir;
  server = await startStaticServer();
  server.setRoot(siteDir);
  ({ browser, close: closeBrowser } = await launchBrowser());
});

afterAll(async () => {
  for (const context of contexts) await context.close();
  await closeBrowser?.();
  await server?.close();
});

describe.runIf(hasChromium())("the when pages in a browser", () => {
  const today = paths.when("today");
  const todayJson = paths.apiWhen("today").slice(1);

  it("should show the build's day at the build's time", async () => {
    // Served with the production policy: scripts from the site only, nothing inline.
    const csp = (await fetch(server.origin + today)).headers.get("content-security-policy");
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
      const { page } = await open(path, { bypassCSP: true });
      await page.addScriptTag({ content: axeSource });
      const violations = await page.evaluate(async () => {
        const axe = (
          window as unknown as {
            axe: { run: () => Promise<{ violations: { id: string; impact: string }[] }> };
          }
        ).axe;
        const result = await axe.run();
        return result.violations
          .filter((v) => v.impact === "serious" || v.impact === "critical")
          .map((v) => v.id);
      });
      expect(violations, path).toEqual([]);
    }
  });
});
