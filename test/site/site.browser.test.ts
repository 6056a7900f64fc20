import { readdirSync, readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { axeCheck, useBrowser } from "../helpers/browser.ts";
import { useServedDemo } from "../helpers/demo-site.ts";
import { hasChromium } from "../helpers/system-packages.ts";

describe.runIf(hasChromium())("the demo site in a browser", () => {
  const chromium = useBrowser();
  const demo = useServedDemo();
  let eventPath: string;
  let monthPath: string;
  let placePath: string;
  let seriesPath: string;

  /** Opens a page of the demo site, collecting what the console reports. */
  async function open(
    path: string,
    options: {
      width?: number;
      colorScheme?: "light" | "dark";
      permissions?: string[];
      javaScriptEnabled?: boolean;
    } = {},
  ) {
    const { page, context, problems } = await chromium.open(`${demo.origin}${path}`, {
      viewport: { width: options.width ?? 1200, height: 900 },
      colorScheme: options.colorScheme ?? "light",
      permissions: options.permissions,
      javaScriptEnabled: options.javaScriptEnabled,
    });
    return { page, problems, close: () => context.close() };
  }

  beforeAll(() => {
    const calendarHtml = readFileSync(`${demo.dir}/calendars/culture/index.html`, "utf8");
    // An event page with an image, so the image check below always has one to check.
    const eventPaths = [
      ...calendarHtml.matchAll(/href="(\/calendars\/culture\/events\/[^"]+\/)"/g),
    ].map((m) => m[1] ?? "");
    eventPath =
      eventPaths.find((path) =>
        readFileSync(`${demo.dir}${path}index.html`, "utf8").includes("event-image"),
      ) ?? "";
    expect(eventPath).not.toBe("");
    monthPath = calendarHtml.match(/href="(\/calendars\/culture\/\d{4}\/\d{2}\/)"/)?.[1] ?? "";
    // A place and a series of the demo: pages that list one title many times.
    placePath = `/places/${readdirSync(`${demo.dir}/places`).find((name) => name.startsWith("community-centre-de-pijp-"))}/`;
    seriesPath = `/calendars/community/series/${readdirSync(`${demo.dir}/calendars/community/series`).find((name) => name.startsWith("repair-cafe-"))}/`;
  });

  /** A page of each kind that shows events or subscriptions. */
  const contentPages = () => [
    "/",
    "/calendars/culture/",
    monthPath,
    eventPath,
    "/subscribe/",
    placePath,
    seriesPath,
    "/search/",
    "/accessibility/",
  ];

  it("should render every kind of page under the production CSP with no console errors", async () => {
    for (const path of [...contentPages(), "/calendars/", "/categories/", "/places/"]) {
      const { page, problems, close } = await open(path);
      expect(await page.locator("h1").count(), path).toBe(1);
      expect(problems, path).toEqual([]);
      await close();
    }
  });

  it("should have no accessibility violations of WCAG 2.2 AA or axe's best practices, in light and dark mode", async () => {
    for (const colorScheme of ["light", "dark"] as const) {
      for (const path of [...contentPages(), "/places/"]) {
        const { page, close } = await open(path, { colorScheme });
        const axe = await axeCheck(page);
        expect(axe.passes, path).toBeGreaterThan(10);
        expect(axe.violations, `${path} (${colorScheme})`).toEqual([]);
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
    for (const path of contentPages()) {
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

  it("should copy a calendar's address with the copy button", async () => {
    const { page, close } = await open("/subscribe/", {
      permissions: ["clipboard-read", "clipboard-write"],
    });
    const panel = page.locator("section.subscribe").nth(1);
    const address = await panel.locator("input[data-choice=copy]").inputValue();
    expect(address).toMatch(/^https?:\/\/.+\/calendar\.ics$/);
    const button = panel.locator("button[data-copy]");
    await button.click();
    await expect.poll(() => button.textContent()).toBe("Copied");
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(address);
    await close();
  });

  it("should offer every way to subscribe without JavaScript", async () => {
    const { page, close } = await open("/subscribe/", { javaScriptEnabled: false });
    const panel = page.locator("section.subscribe").first();
    for (const choice of ["apple", "google", "icsx5", "outlook", "office365", "yahoo"]) {
      expect(await panel.locator(`a[data-choice=${choice}]`).isVisible(), choice).toBe(true);
    }
    // The address can be selected and copied by hand; the button needs the script.
    const field = panel.locator("input[data-choice=copy]");
    expect(await field.isVisible()).toBe(true);
    expect(await field.inputValue()).toMatch(/\/calendar\.ics$/);
    expect(await panel.locator("button[data-copy]").isVisible()).toBe(false);
    // A place's choices open without a script too.
    const place = page.locator("details[data-scope-kind=place]").first();
    await place.locator("summary").click();
    expect(await place.locator("a[data-choice=icsx5]").isVisible()).toBe(true);
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
