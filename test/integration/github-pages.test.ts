import { existsSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { withEmbedPolicy } from "../../src/hosts/embed-policy.ts";
import { defaultHeaderRules } from "../../src/hosts/headers.ts";
import { metaPolicy } from "../../src/hosts/page-policy.ts";
import { useBrowser } from "../helpers/browser.ts";
import { crawlSite } from "../helpers/crawl.ts";
import { isDigestFile } from "../helpers/demo-expectations.ts";
import { listFiles, readSiteFile } from "../helpers/files.ts";
import { urlPathOf } from "../helpers/representative-site.ts";
import { useSiteInFolder } from "../helpers/site-in-folder.ts";
import { hasChromium } from "../helpers/system-packages.ts";

/*
 * A GitHub Pages project site, built as .github/workflows/publish.yml builds
 * it (SITE_URL the Pages address with the repository's folder,
 * DEPLOY_TARGET=github-pages) and served as GitHub Pages serves it: plain
 * files in the <repo>/ folder, no custom header at all. The policy each page
 * carries in its meta must hold on its own.
 */

const REPO = "events-site";

describe("a GitHub Pages project site", () => {
  // Plain files, no header at all, and no oEmbed endpoint: GitHub Pages runs no function.
  const served = useSiteInFolder(REPO, {
    server: { headers: () => ({}), oembedEndpoint: false },
    env: { DEPLOY_TARGET: "github-pages" },
  });

  it("should answer every address the site writes, all in its folder, with no header from the site", async () => {
    const crawl = await crawlSite({ start: served().start, also: ["robots.txt"] });
    expect(crawl.problems).toEqual([]);
    expect([...crawl.fetched.keys()]).toEqual(
      expect.arrayContaining([
        `/${REPO}/search/`,
        `/${REPO}/pagefind/pagefind.js`,
        `/${REPO}/calendar.ics`,
      ]),
    );
    const response = await fetch(`${served().start}search/`);
    expect(response.headers.get("content-security-policy")).toBeNull();
    expect(existsSync(join(served().site.dir, ".nojekyll"))).toBe(true);
    expect(served().site.stdout).toMatch(/host {7}GitHub Pages: [\d.]+ MB of 1 GB/);
  });

  it("should carry netlify.toml's policy for its path in every page, first in the head", async () => {
    // Not the weekly digest's mails: a policy in a mail would be applied by
    // mail clients to the mail's inline styles (docs/followers.md, "The mail").
    const pages = (await listFiles(served().site.dir)).filter(
      (file) => file.endsWith(".html") && !isDigestFile(file),
    );
    expect(pages.length).toBeGreaterThan(200);
    // The embed pages' policy names the site's origin (src/hosts/embed-policy.ts).
    const rules = withEmbedPolicy(defaultHeaderRules(), [served().start]);
    for (const page of pages) {
      const html = readSiteFile(served().site.dir, page);
      const metas = [
        ...html.matchAll(/<meta http-equiv="Content-Security-Policy" content="([^"]*)">/g),
      ];
      expect(
        metas.map((m) => m[1]),
        page,
      ).toEqual([metaPolicy(urlPathOf(page), rules)]);
      expect(html.indexOf(metas[0]?.[0] ?? "?"), page).toBeLessThan(
        html.search(/<(script|link)\b/),
      );
    }
    expect(readSiteFile(served().site.dir, "search/index.html")).toContain(
      "script-src 'self' 'wasm-unsafe-eval'",
    );
  });

  describe.runIf(hasChromium())("in a browser", () => {
    const chromium = useBrowser();

    it("should refuse inline scripts by the meta alone, and still search", async () => {
      const { page, problems } = await chromium.newPage();
      const runsInline = async (url: string) => {
        await page.goto(url);
        // An inline script runs as it is inserted, or never.
        return page.evaluate(() => {
          const script = document.createElement("script");
          script.textContent = "window.inlineRan = true;";
          document.head.append(script);
          return (window as unknown as { inlineRan?: boolean }).inlineRan === true;
        });
      };
      // The server sends no policy: on a page of its own without the meta, the inline script runs...
      writeFileSync(
        join(served().site.dir, "control.html"),
        "<!DOCTYPE html><title>control</title>",
      );
      expect(await runsInline(`${served().start}control.html`)).toBe(true);
      rmSync(join(served().site.dir, "control.html"));
      // ...and with it, it does not, on an event page as on the search page.
      const eventPage = `${served().start}calendars/city/`;
      expect(await runsInline(eventPage)).toBe(false);
      expect(await runsInline(`${served().start}search/`)).toBe(false);
      expect(problems.some((text) => /Content Security Policy/i.test(text))).toBe(true);
      problems.length = 0;

      // Pagefind's WebAssembly is allowed by the search page's meta, as by its header.
      await page.goto(`${served().start}search/?q=jazz`);
      const first = page.locator("#search-results a").first();
      await first.waitFor();
      expect(await first.getAttribute("href")).toMatch(
        new RegExp(`^/${REPO}/calendars/[^/]+/events/[^/]+/$`),
      );
      expect(problems).toEqual([]);
    });
  });
});
