import { readFileSync } from "node:fs";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { axeCheck, useBrowser } from "../helpers/browser.ts";
import { type BuiltSite, buildSite, removeBuild } from "../helpers/demo-build.ts";
import { startingBetween, useDemoPartPortal } from "../helpers/demo-parts.ts";
import { useServedDemo } from "../helpers/demo-site.ts";
import { type RunningServer, startStaticServer } from "../helpers/static-server.ts";
import { hasChromium } from "../helpers/system-packages.ts";
import { visibleEdges } from "../helpers/visible-edges.ts";

/*
 * What the site's pages keep for visitors beyond what axe-core checks: the
 * month's today, the current page in the navigation, forced colours
 * (Windows contrast themes), reflow at 320 CSS px and the text spacing of
 * WCAG 2.2 (docs/site.md, "Accessibility").
 */

/** The demo's month with NOW in it, and an event page with a register button. */
const MONTH = "/calendars/culture/2026/03/";

/** WCAG 1.4.12's text spacing, as a user stylesheet applies it (important, on every element). */
const TEXT_SPACING = `* {
  line-height: 1.5 !important;
  letter-spacing: 0.12em !important;
  word-spacing: 0.16em !important;
}
p { margin-bottom: 2em !important; }`;

/**
 * Elements whose own text is cut off: a box that hides what overflows it,
 * with more text than room. Visually hidden text (clipped by design) is
 * shown to no one and left out.
 */
function clippedText(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const clipped: string[] = [];
    for (const element of document.body.querySelectorAll<HTMLElement>("*")) {
      const ownText = [...element.childNodes].some(
        (node) => node.nodeType === Node.TEXT_NODE && (node.textContent ?? "").trim() !== "",
      );
      if (!ownText || element.getClientRects().length === 0) continue;
      const style = getComputedStyle(element);
      // Clipped on purpose, for screen readers only (.visually-hidden).
      if (style.clipPath !== "none" || style.clip !== "auto") continue;
      const cutX = style.overflowX !== "visible" && element.scrollWidth > element.clientWidth + 1;
      const cutY = style.overflowY !== "visible" && element.scrollHeight > element.clientHeight + 1;
      if (cutX || cutY) {
        clipped.push(
          `${element.tagName.toLowerCase()}.${element.className}: ${element.textContent?.trim().slice(0, 40)}`,
        );
      }
    }
    return clipped;
  });
}

/** How wide the page is beyond the window: 0 when nothing scrolls sideways. */
function sidewaysScroll(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}

describe.runIf(hasChromium())("the site's pages beyond axe-core's rules", () => {
  const chromium = useBrowser();
  const demo = useServedDemo();
  let eventPath = "";
  let listPath = "";

  beforeAll(() => {
    // The demo's Jazz at the Boathouse: access features, a register button, a series.
    eventPath = "/calendars/culture/events/jazz-boathouse-20260327/";
    listPath = "/calendars/culture/";
    expect(readFileSync(`${demo.dir}${eventPath}index.html`, "utf8")).toContain('class="button"');
  });

  async function open(path: string, options: { width?: number; bypassCSP?: boolean } = {}) {
    const { page, context } = await chromium.open(`${demo.origin}${path}`, {
      viewport: { width: options.width ?? 1200, height: 900 },
      bypassCSP: options.bypassCSP,
    });
    return { page, close: () => context.close() };
  }

  it("should mark today in the month grid with aria-current=date, an outline and the word", async () => {
    const { page, close } = await open(MONTH);
    const today = page.locator('td[aria-current="date"]');
    expect(await today.count()).toBe(1);
    expect(await today.locator("time").getAttribute("datetime")).toBe("2026-03-20");
    expect(await today.locator(".today-label").innerText()).toMatch(/^today$/i);
    expect((await visibleEdges(page, 'td[aria-current="date"]')).outline).toBe(true);
    await close();
  });

  it("should pass axe-core's WCAG 2.2 rules on a phone too, where a day's events stand close", async () => {
    for (const path of ["/", MONTH, eventPath, "/accessibility/"]) {
      const { page, close } = await open(path, { width: 320 });
      const axe = await axeCheck(page);
      expect(axe.passes, path).toBeGreaterThan(10);
      expect(axe.violations, `${path} at 320 px`).toEqual([]);
      await close();
    }
  });

  it("should mark the current page in the navigation", async () => {
    const current = async (path: string) => {
      const { page, close } = await open(path);
      const marked = await page
        .locator("header [aria-current], .view-nav [aria-current], footer [aria-current]")
        .evaluateAll((links) =>
          links.map((link) => `${link.getAttribute("aria-current")} ${link.getAttribute("href")}`),
        );
      await close();
      return marked;
    };
    expect(await current("/")).toEqual(["page /"]);
    expect(await current("/subscribe/")).toEqual(["page /subscribe/"]);
    expect(await current("/accessibility/")).toEqual(["page /accessibility/"]);
    // A calendar's month: the section, and its view (another month's page than its link's).
    expect(await current(MONTH)).toEqual([
      "page /calendars/",
      expect.stringMatching(/^(page|true) \/calendars\/culture\/\d{4}\/\d{2}\/$/),
    ]);
    expect(await current(listPath)).toEqual(["page /calendars/", `page ${listPath}`]);
  });

  it("should keep focus, buttons, status badges, chips and today visible in forced colours", async () => {
    const { page, close } = await open(MONTH);
    await page.emulateMedia({ forcedColors: "active" });
    expect(await visibleEdges(page, 'td[aria-current="date"]')).toMatchObject({ outline: true });
    expect(await visibleEdges(page, ".month-grid li")).toMatchObject({ border: true });
    await page.locator(".month-grid li a").first().focus();
    expect(await visibleEdges(page, ".month-grid li a:focus-visible")).toMatchObject({
      outline: true,
      text: true,
    });
    await close();

    // Each where the demo has one: lists with a cancelled and a postponed event, chips,
    // the header's search button, the event page's register button (a link).
    const checks = [
      ["/", ".badge-cancelled"],
      ["/", ".calendar-chip"],
      ["/", ".site-search button"],
      [listPath, ".badge-postponed"],
      [eventPath, "a.button"],
    ] as const;
    for (const [path, selector] of checks) {
      const opened = await open(path);
      await opened.page.emulateMedia({ forcedColors: "active" });
      expect(await visibleEdges(opened.page, selector), `${path} ${selector}`).toMatchObject({
        border: true,
        text: true,
      });
      await opened.close();
    }
  });

  it("should fit 320 CSS px without scrolling sideways, and keep all text with WCAG's text spacing", async () => {
    const pages = ["/", eventPath, MONTH, listPath, "/search/", "/subscribe/", "/accessibility/"];
    for (const width of [320, 1200]) {
      for (const path of pages) {
        const { page, close } = await open(path, { width, bypassCSP: true });
        expect(await sidewaysScroll(page), `${path} at ${width}`).toBeLessThanOrEqual(0);
        await page.addStyleTag({ content: TEXT_SPACING });
        expect(await sidewaysScroll(page), `${path} at ${width}, spaced`).toBeLessThanOrEqual(0);
        expect(await clippedText(page), `${path} at ${width}, spaced`).toEqual([]);
        await close();
      }
    }
  });

  it("should publish the accessibility statement, linked from every page's footer", async () => {
    for (const path of ["/", eventPath, MONTH, "/search/"]) {
      const html = readFileSync(`${demo.dir}${path}index.html`, "utf8");
      expect(html, path).toContain('<a href="/accessibility/"');
    }
    const { page, close } = await open("/accessibility/");
    expect(await page.locator("h1").innerText()).toBe("Accessibility statement");
    const text = await page.locator("main").innerText();
    // The demo sets nothing: partial conformance, and no contact of its own.
    expect(text).toContain("This website is partially compliant with EN 301 549");
    expect(text).toContain("Please contact the organization that publishes");
    expect(text).not.toContain("This statement was prepared on");
    await close();
  });
});

/*
 * The languages that run right to left or in another script: axe-core's
 * WCAG 2.2 rules over every kind of page, in Arabic and Japanese.
 */
const OTHER_SCRIPTS = ["ar", "ja"] as const;

describe.runIf(hasChromium())("the site's pages in other scripts, checked by axe-core", () => {
  const chromium = useBrowser();
  const portal = useDemoPartPortal(startingBetween("2026-03-01", "2026-05-01"));
  for (const lang of OTHER_SCRIPTS) {
    describe(`SITE_LANG=${lang}`, () => {
      let site: BuiltSite | undefined;
      let server: RunningServer | undefined;
      beforeAll(async () => {
        // About pages, not pictures: without share cards.
        site = await buildSite({ ...portal(), SITE_LANG: lang, SHARE_CARDS: "off" });
        expect(site.status, site.log).toBe(0);
        server = await startStaticServer();
        server.setRoot(site.dir);
        return async () => {
          await server?.close();
          if (site) removeBuild(site);
        };
      });

      it("should have no accessibility violations on any kind of page", async () => {
        const paths = [
          "/",
          "/calendars/culture/",
          MONTH,
          "/calendars/culture/events/jazz-boathouse-20260327/",
          "/subscribe/",
          "/search/",
          "/accessibility/",
        ];
        for (const path of paths) {
          const { page, context } = await chromium.open(`${server?.origin}${path}`);
          const axe = await axeCheck(page);
          expect(axe.passes, path).toBeGreaterThan(10);
          expect(axe.violations, `${lang} ${path}`).toEqual([]);
          await context.close();
        }
      });
    });
  }
});
