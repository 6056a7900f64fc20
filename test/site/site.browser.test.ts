import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser } from "../helpers/browser.ts";
import { builtDemoSite } from "../helpers/demo-site.ts";
import { type RunningServer, startStaticServer } from "../helpers/static-server.ts";
import { hasChromium } from "../helpers/system-packages.ts";

const axeSource = readFileSync(
  createRequire(import.meta.url).resolve("axe-core/axe.min.js"),
  "utf8",
);

let server: RunningServer;
let browser: Browser;
let closeBrowser: () => Promise<void>;

/** Opens a page of the demo site and collects what the console and CSP report. */
async function open(
  path: string,
  options: { width?: number; colorScheme?: "light" | "dark"; bypassCSP?: boolean } = {},
) {
  const context = await browser.newContext({
    viewport: { width: options.width ?? 1200, height: 900 },
    colorScheme: options.colorScheme ?? "light",
    // Only for injecting axe-core; the CSP itself is checked with it enforced.
    bypassCSP: options.bypassCSP ?? false,
  });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(message.text());
  });
  page.on("pageerror", (error) => problems.push(error.message));
  const response = await page.goto(`${server.origin}${path}`);
  expect(response?.status(), path).toBe(200);
  return { page, problems, close: () => context.close() };
}

async function seriousAxeViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ content: axeSource });
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run: () => Promise<{ violations: { id: string; impact: string; nodes: unknown[] }[] }>;
        };
      }
    ).axe;
    const result = await axe.run();
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, count: v.nodes.length }));
  });
  return violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id} (${v.count})`);
}

describe.runIf(hasChromium())("the demo site in a browser", () => {
  let eventPath: string;
  let monthPath: string;
  let placePath: string;
  let seriesPath: string;

  beforeAll(async () => {
    const site = await builtDemoSite();
    server = await startStaticServer();
    server.setRoot(site.dir);
    ({ browser, close: closeBrowser } = await launchBrowser());
    const calendarHtml = readFileSync(`${site.dir}/calendars/culture/index.html`, "utf8");
    // An event page with an image, so the image check below always has one to check.
    const eventPaths = [
      ...calendarHtml.matchAll(/href="(\/calendars\/culture\/events\/[^"]+\/)"/g),
    ].map((m) => m[1] ?? "");
    eventPath =
      eventPaths.find((path) =>
        readFileSync(`${site.dir}${path}index.html`, "utf8").includes("event-image"),
      ) ?? "";
    expect(eventPath).not.toBe("");
    monthPath = calendarHtml.match(/href="(\/calendars\/culture\/\d{4}\/\d{2}\/)"/)?.[1] ?? "";
    // A place and a series of the demo: pages that list one title many times.
    placePath = `/places/${readdirSync(`${site.dir}/places`).find((name) => name.startsWith("community-centre-de-pijp-"))}/`;
    seriesPath = `/calendars/community/series/${readdirSync(`${site.dir}/calendars/community/series`).find((name) => name.startsWith("repair-cafe-"))}/`;
  });

  afterAll(async () => {
    await closeBrowser?.();
    await server?.close();
  });

  it("should render every kind of page under the production CSP with no console errors", async () => {
    for (const path of [
      "/",
      "/calendars/",
      "/calendars/culture/",
      monthPath,
      eventPath,
      "/categories/",
      "/subscribe/",
      "/places/",
      placePath,
      seriesPath,
    ]) {
      const { page, problems, close } = await open(path);
      expect(await page.locator("h1").count(), path).toBe(1);
      expect(problems, path).toEqual([]);
      await close();
    }
  });

  it("should have no serious or critical accessibility violations, in light and dark mode", async () => {
    for (const colorScheme of ["light", "dark"] as const) {
      for (const path of [
        "/",
        "/calendars/culture/",
        monthPath,
        eventPath,
        "/subscribe/",
        "/places/",
        placePath,
        seriesPath,
      ]) {
        const { page, close } = await open(path, { colorScheme, bypassCSP: true });
        expect(await seriousAxeViolations(page), `${path} (${colorScheme})`).toEqual([]);
        await close();
      }
    }
  });

  it("should lead keyboard users to the content with the skip link", async () => {
    const { page, close } = await open("/");
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Skip to content");
    await page.keyboard.press("Enter");
    expect(await page.evaluate(() => location.hash)).toBe("#main");
    await close();
  });

  it("should fit a 320 px wide screen without horizontal scrolling", async () => {
    for (const path of [
      "/",
      "/calendars/culture/",
      monthPath,
      eventPath,
      "/subscribe/",
      placePath,
      seriesPath,
    ]) {
      const { page, close } = await open(path, { width: 320 });
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - window.innerWidth,
      );
      expect(overflow, path).toBeLessThanOrEqual(0);
      await close();
    }
  });

  it("should show the copy buttons only when the script can copy", async () => {
    const { page, close } = await open("/subscribe/");
    const buttons = page.locator("button[data-copy]");
    expect(await buttons.count()).toBeGreaterThan(0);
    await expect.poll(() => buttons.first().isVisible()).toBe(true);
    await close();
  });

  it("should show the event image from the site itself", async () => {
    const { page, close } = await open(eventPath);
    const image = page.locator("img.event-image");
    await expect
      .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
      .toBe(true);
    expect(await image.getAttribute("src")).toMatch(/^\/media\//);
    await close();
  });
});
