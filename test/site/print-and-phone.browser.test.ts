import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { useBrowser } from "../helpers/browser.ts";
import { useServedDemo } from "../helpers/demo-site.ts";
import { searchAnswered } from "../helpers/search-page.ts";
import { hasChromium } from "../helpers/system-packages.ts";

/*
 * The demo site on paper and on a phone, in Debian's Chromium under the
 * production CSP: a month or a list prints as a handout (no navigation,
 * forms or buttons; the grid within the page; a list event a line), and the
 * search page's filters fold away on a phone so the results come first.
 */

/** A4's width less 1 cm margins each side, in CSS pixels (96 per inch). */
const A4_CONTENT_WIDTH = Math.floor(((210 - 20) / 25.4) * 96);
const APRIL = "/calendars/culture/2026/04/";

interface Screen {
  readonly width: number;
  readonly height?: number;
  readonly phone?: boolean;
  readonly timezoneId?: string;
}

describe.runIf(hasChromium())("print and phone", () => {
  const chromium = useBrowser();
  const demo = useServedDemo();

  /** A page of the demo, loaded, on a screen (or a phone) `width` wide, in Amsterdam unless said. */
  const open = (
    path: string,
    { width, height = 900, phone = false, timezoneId = "Europe/Amsterdam" }: Screen,
  ) =>
    chromium.open(demo.origin + path, {
      viewport: { width, height },
      isMobile: phone,
      hasTouch: phone,
      timezoneId,
    });

  /** Selectors of what a printed page must not show, with how many of each the screen shows. */
  const screenOnly = (page: Page) =>
    page.evaluate(() =>
      [
        ".site-header",
        ".site-footer",
        ".filter-panel",
        ".view-nav",
        ".month-nav",
        ".month-tz",
        ".panel",
        "button",
        ".button",
      ].map((selector) => ({
        selector,
        shown: [...document.querySelectorAll(selector)].filter(
          (node) => (node as HTMLElement).getClientRects().length > 0,
        ).length,
      })),
    );

  it("should print a month as a handout: no navigation or buttons, the grid within the page", async () => {
    // A visitor elsewhere: the time-zone toggle is on screen, and must not be on paper.
    const { page, problems } = await open(APRIL, {
      width: A4_CONTENT_WIDTH,
      timezoneId: "Asia/Tokyo",
    });
    await page.locator("[data-month-tz]").waitFor();
    const onScreen = await screenOnly(page);
    for (const selector of [".site-header", ".site-footer", ".view-nav", ".month-nav", "button"])
      expect(onScreen.find((s) => s.selector === selector)?.shown, selector).toBeGreaterThan(0);

    await page.emulateMedia({ media: "print" });
    for (const { selector, shown } of await screenOnly(page)) expect(shown, selector).toBe(0);
    const fit = await page.evaluate(() => ({
      table: document.querySelector("table.month-grid")?.getBoundingClientRect().right ?? 0,
      scroll: document.documentElement.scrollWidth,
      width: document.documentElement.clientWidth,
      urls: [...document.querySelectorAll("a")].filter((a) => {
        const after = getComputedStyle(a, "::after").content;
        return after !== "none" && after !== "normal";
      }).length,
    }));
    expect(fit.table).toBeGreaterThan(fit.width * 0.9);
    expect(fit.table).toBeLessThanOrEqual(fit.width);
    expect(fit.scroll).toBeLessThanOrEqual(fit.width);
    expect(fit.urls).toBe(0);

    const pdf = await page.pdf({
      format: "A4",
      margin: { top: "1cm", bottom: "1cm", left: "1cm", right: "1cm" },
    });
    const pages = pdf.toString("latin1").match(/\/Type\s*\/Page[^s]/g)?.length ?? 0;
    expect(pages).toBeGreaterThanOrEqual(1);
    expect(pages).toBeLessThanOrEqual(2);
    expect(problems).toEqual([]);
  });

  it("should print a list one event a line (time, title, place) under its day", async () => {
    const { page, problems } = await open("/calendars/culture/", {
      width: A4_CONTENT_WIDTH,
      timezoneId: "America/New_York",
    });
    await page.emulateMedia({ media: "print" });
    for (const { selector, shown } of await screenOnly(page)) expect(shown, selector).toBe(0);
    const rows = await page.$$eval(".event-row", (items) =>
      items.map((item) => {
        const box = (selector: string) => item.querySelector(selector)?.getBoundingClientRect();
        const row = item.getBoundingClientRect();
        const title = box(".event-title a");
        const lineHeight = Number.parseFloat(
          getComputedStyle(item.querySelector(".event-title") as Element).lineHeight,
        );
        return {
          text: item.textContent?.replace(/\s+/g, " ").trim() ?? "",
          height: row.height,
          lineHeight,
          parts: [box(".event-time time"), title, box(".meta-place")]
            .filter((b): b is DOMRect => Boolean(b))
            .map((b) => ({ top: b.top, bottom: b.bottom, left: b.left })),
        };
      }),
    );
    expect(rows.length).toBeGreaterThan(5);
    for (const row of rows) {
      expect(row.height, row.text).toBeLessThan(row.lineHeight * 1.8);
      const [first, ...rest] = row.parts;
      for (const part of rest) {
        // On the line of the first part, and to its right.
        expect(part.top, row.text).toBeLessThan((first?.bottom ?? 0) + 1);
        expect(part.left, row.text).toBeGreaterThan(first?.left ?? 0);
      }
    }
    // Day headings carry the date above their lines.
    expect(await page.locator(".day-heading").first().isVisible()).toBe(true);
    expect(problems).toEqual([]);
  });

  it("should print an event page with its own address in small type", async () => {
    const { page } = await open("/calendars/culture/events/jazz-boathouse-20260327/", {
      width: A4_CONTENT_WIDTH,
    });
    expect(await page.locator(".event-address").isVisible()).toBe(false);
    await page.emulateMedia({ media: "print" });
    const address = page.locator(".event-address");
    expect(await address.isVisible()).toBe(true);
    expect(await address.textContent()).toMatch(
      /\/calendars\/culture\/events\/jazz-boathouse-20260327\/$/,
    );
    const size = await address.evaluate((node) =>
      Number.parseFloat(getComputedStyle(node).fontSize),
    );
    expect(size).toBeLessThan(12);
    for (const { selector, shown } of await screenOnly(page)) expect(shown, selector).toBe(0);
  });

  const settled = searchAnswered;

  it("should fold the search page's filters away on a phone, so the results come first", async () => {
    const height = 844;
    const { page, problems } = await open("/search/?category=music", {
      width: 390,
      height,
      phone: true,
    });
    expect(await settled(page)).toMatch(/found/);
    const panel = page.locator("details.search-filters");
    const calendar = page.locator("#search-calendar");
    expect(await panel.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(false);
    expect(await calendar.isVisible()).toBe(false);
    const firstResult = await page.locator("#search-results .event-row").first().boundingBox();
    expect(firstResult?.y ?? Number.POSITIVE_INFINITY).toBeLessThan(height);

    // Touch opens and closes it.
    await page.locator("details.search-filters > summary").tap();
    await expect.poll(() => calendar.isVisible()).toBe(true);
    await page.locator("details.search-filters > summary").tap();
    await expect.poll(() => calendar.isVisible()).toBe(false);

    // So does the keyboard.
    await page.locator("details.search-filters > summary").focus();
    await page.keyboard.press("Enter");
    await expect.poll(() => calendar.isVisible()).toBe(true);
    await calendar.focus();
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("search-calendar");
    expect(problems).toEqual([]);

    // Where there is room, the filters are open from the start.
    const wide = await open("/search/?category=music", { width: 1200 });
    await settled(wide.page);
    expect(await wide.page.locator("#search-calendar").isVisible()).toBe(true);
    expect(wide.problems).toEqual([]);
  });
});
