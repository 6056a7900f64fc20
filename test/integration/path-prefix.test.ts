import { describe, expect, it } from "vitest";
import { useBrowser } from "../helpers/browser.ts";
import { crawlSite } from "../helpers/crawl.ts";
import { useSiteInFolder } from "../helpers/site-in-folder.ts";
import { hasChromium } from "../helpers/system-packages.ts";

/*
 * A site published in a folder of its host, as a GitHub Pages project site
 * (https://<owner>.github.io/<repo>/) or a folder of an organization's site:
 * SITE_URL=http://127.0.0.1:PORT/events/, the build served in the events/
 * folder of the host with the production headers, as `npm run preview` serves
 * it. Every address the site writes must stay in that folder and answer.
 */

describe("a site under a path prefix", () => {
  const served = useSiteInFolder("events");

  it("should answer every link, asset, feed, calendar and JSON address, all in its folder", async () => {
    const crawl = await crawlSite({ start: served().start, also: ["robots.txt"] });
    expect(crawl.problems).toEqual([]);
    const paths = [...crawl.fetched.keys()];
    // What the crawl reached: the kinds of files a visitor, a reader and a calendar app use.
    for (const expected of [
      "/events/assets/site.css",
      "/events/assets/calendars.css",
      "/events/assets/search.js",
      "/events/search/",
      "/events/search/subscriptions.json",
      "/events/pagefind/pagefind.js",
      "/events/pagefind/parts.json",
      "/events/feed.xml",
      "/events/calendar.ics",
      "/events/sitemap.xml",
      "/events/embed/",
      "/events/embed.js",
      "/events/api/calendars.json",
    ]) {
      expect(paths).toContain(expected);
    }
    expect(
      paths.filter((path) => /\/events\/[^/]+\/index\.html$|\/events\/$/.test(path)).length,
    ).toBeGreaterThan(0);
    expect(paths.filter((path) => path.includes("/events/calendars/")).length).toBeGreaterThan(170);
    // Places and series: their pages, feeds and calendars, in the folder too.
    expect(paths).toContain("/events/places/");
    for (const file of ["index.html", "feed.xml", "calendar.ics"]) {
      const found = paths.filter((path) =>
        new RegExp(`^/events/places/[^/]+/${file === "index.html" ? "" : file}$`).test(path),
      );
      expect(found.length, file).toBeGreaterThanOrEqual(9);
    }
    for (const file of ["", "feed.xml", "calendar.ics"]) {
      const found = paths.filter((path) =>
        new RegExp(`^/events/calendars/[^/]+/series/[^/]+/${file}$`).test(path),
      );
      expect(found.length, file || "series pages").toBeGreaterThanOrEqual(5);
    }
  });

  describe.runIf(hasChromium())("in a browser", () => {
    const chromium = useBrowser();

    it("should find events with the search page and open them in the folder", async () => {
      const { page, context, problems } = await chromium.newPage();
      page.on("response", (response) => {
        if (response.status() >= 400) problems.push(`${response.status()} ${response.url()}`);
      });
      // The search index's parts, merged by the page's worker, in the folder too.
      const parts = new Set<string>();
      context.on("request", (request) => {
        const path = new URL(request.url()).pathname;
        const part = /^\/events\/pagefind\/([^/]+)\/pagefind-entry\.json$/.exec(path)?.[1];
        if (part) parts.add(part);
        else if (path.includes("/pagefind/") && !path.startsWith("/events/pagefind/"))
          problems.push(`outside the folder: ${path}`);
      });
      await page.goto(`${served().start}search/?q=jazz`);
      const first = page.locator("#search-results a").first();
      await first.waitFor();
      const href = await first.getAttribute("href");
      expect(href).toMatch(/^\/events\/calendars\/[^/]+\/events\/[^/]+\/$/);
      await first.click();
      await page.waitForURL(/\/events\/calendars\/[^/]+\/events\/[^/]+\/$/);
      expect(await page.locator("h1").first().textContent()).toMatch(/jazz/i);
      expect(parts.size).toBeGreaterThan(1);
      // The header's search form stays in the folder too.
      await page.fill("#site-search-q", "market");
      await page.press("#site-search-q", "Enter");
      await page.waitForURL(`${served().start}search/?q=market`);
      await page.locator("#search-results a").first().waitFor();
      expect(problems).toEqual([]);
    });
  });
});
