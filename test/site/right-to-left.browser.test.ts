import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useBrowser } from "../helpers/browser.ts";
import { type BuiltSite, buildSite, removeBuild } from "../helpers/demo-build.ts";
import { startingBetween, useDemoPartPortal } from "../helpers/demo-parts.ts";
import { htmlElements } from "../helpers/html-elements.ts";
import { searchAnswered } from "../helpers/search-page.ts";
import { type RunningServer, startStaticServer } from "../helpers/static-server.ts";
import { hasChromium } from "../helpers/system-packages.ts";

/*
 * A site in Arabic (SITE_LANG=ar), built once for every test of this file
 * from the demo's events of March and April (every kind of page), without
 * share cards (test/cards draws right-to-left cards), and read in Debian's
 * Chromium under the production headers: the page runs right to left, its
 * layout mirrored, and the portal's (English) texts each keep their own
 * direction.
 */

const MONTH = "/calendars/culture/2026/04/";
const MARCH = "/calendars/culture/2026/03/";
const CALENDAR = "/calendars/culture/";

describe.runIf(hasChromium())("right to left", () => {
  const portal = useDemoPartPortal(startingBetween("2026-03-01", "2026-05-01"));
  const chromium = useBrowser();
  let site: BuiltSite;
  let server: RunningServer;

  beforeAll(async () => {
    site = await buildSite(
      // Share cards are checked in test/cards; this build is about the pages.
      { ...portal(), SITE_LANG: "ar", SHARE_CARDS: "off" },
    );
    expect(site.status, site.log).toBe(0);
    server = await startStaticServer();
    server.setRoot(site.dir);
  });
  afterAll(async () => {
    await server?.close();
    if (site) removeBuild(site);
  });

  const page = (path: string) => readFileSync(join(site.dir, path, "index.html"), "utf8");
  const open = async (path: string): Promise<Page> => {
    const visit = await chromium.open(server.origin + path, {
      viewport: { width: 1200, height: 900 },
    });
    expect(visit.problems).toEqual([]);
    return visit.page;
  };

  it("should write <html lang=ar dir=rtl> on every kind of page", () => {
    for (const path of ["", "calendars", CALENDAR, MONTH, "places", "categories", "search"]) {
      const html = htmlElements(page(path)).find((element) => element.tagName === "html");
      expect(html?.attributes.get("lang"), path).toBe("ar");
      expect(html?.attributes.get("dir"), path).toBe("rtl");
    }
  });

  it("should isolate every piece of portal text, so an English title reads left to right in the Arabic page", async () => {
    const calendar = await open(CALENDAR);
    const eventPath = await calendar.locator(".event-row .u-url").first().getAttribute("href");
    for (const path of [CALENDAR, MONTH, eventPath as string]) {
      const visit = path === CALENDAR ? calendar : await open(path);
      const pieces = await visit.evaluate(() => {
        const selectors = [".p-name", ".p-location", ".p-category", ".calendar-chip", "h1 bdi"];
        return [...document.querySelectorAll(selectors.join(","))]
          .filter((element) => element.textContent?.trim())
          .map((element) => {
            // dir=auto on it, or a <bdi> of its own text: the direction of its first letter.
            const isolated = element.closest("[dir=auto], bdi") ?? element.querySelector("bdi");
            return {
              text: element.textContent?.trim().slice(0, 40),
              isolated: isolated !== null,
              direction: getComputedStyle(isolated ?? element).direction,
            };
          });
      });
      expect(pieces.length, path).toBeGreaterThan(0);
      // The demo's texts are English: each runs left to right within the right-to-left page.
      for (const piece of pieces)
        expect(piece, path).toMatchObject({ isolated: true, direction: "ltr" });
      expect(await visit.evaluate(() => getComputedStyle(document.body).direction)).toBe("rtl");
    }
  });

  it("should isolate the portal text of search results, which the page's script writes", async () => {
    const search = await open("/search/?q=jazz");
    await searchAnswered(search);
    const pieces = await search.evaluate(() =>
      [...document.querySelectorAll("#search-results .p-name, #search-results .meta-place")].map(
        (element) => ({
          dir: element.getAttribute("dir"),
          direction: getComputedStyle(element).direction,
        }),
      ),
    );
    expect(pieces.length).toBeGreaterThan(0);
    for (const piece of pieces) expect(piece).toEqual({ dir: "auto", direction: "ltr" });
  });

  it("should start the navigation at the right", async () => {
    const home = await open("/");
    const boxes = await home
      .locator(".nav li")
      .evaluateAll((items) => items.map((item) => item.getBoundingClientRect().x));
    expect(boxes.length).toBeGreaterThan(2);
    // Each item to the left of the one before it.
    for (let i = 1; i < boxes.length; i++) expect(boxes[i]).toBeLessThan(boxes[i - 1] as number);
    const title = await home.locator(".site-title").boundingBox();
    const search = await home.locator(".site-search").boundingBox();
    expect((title?.x ?? 0) > (search?.x ?? 0)).toBe(true);
  });

  it("should run a month's weekdays from the right, and point the next month's arrow left", async () => {
    const month = await open(MONTH);
    const columns = await month
      .locator(".month-grid thead th")
      .evaluateAll((cells) => cells.map((cell) => cell.getBoundingClientRect().x));
    expect(columns).toHaveLength(7);
    for (let i = 1; i < columns.length; i++)
      expect(columns[i]).toBeLessThan(columns[i - 1] as number);
    // March's link to April (the part's last month) is at the left, and its arrow, → in the
    // markup, is turned to point left.
    const march = await open(MARCH);
    const nav = await march.locator(".month-nav").boundingBox();
    const next = await march.locator(".month-nav a[rel=next]").boundingBox();
    expect((next?.x ?? 0) + (next?.width ?? 0)).toBeLessThan((nav?.x ?? 0) + (nav?.width ?? 0) / 2);
    const arrow = await march.locator(".month-nav a[rel=next] .arrow").evaluate((span) => ({
      text: span.textContent,
      transform: getComputedStyle(span).transform,
    }));
    expect(arrow).toEqual({ text: "→", transform: "matrix(-1, 0, 0, 1, 0, 0)" });
  });

  it("should run the widget right to left, its events' edges and texts too", async () => {
    const widget = await open("/embed/culture/");
    // After its script has drawn the list again from the public JSON.
    await widget.locator(".ecp-event").first().waitFor();
    const state = await widget.evaluate(() => {
      const item = document.querySelector(".ecp-event") as HTMLElement;
      const name = item.querySelector(".ecp-name") as HTMLElement;
      const style = getComputedStyle(item);
      return {
        dir: document.documentElement.dir,
        // The calendar's edge is at the start of the line: the right.
        right: style.borderRightWidth,
        left: style.borderLeftWidth,
        name: { dir: name.dir, direction: getComputedStyle(name).direction },
      };
    });
    expect(state).toEqual({
      dir: "rtl",
      right: "4px",
      left: "0px",
      name: { dir: "auto", direction: "ltr" },
    });
  });
});
