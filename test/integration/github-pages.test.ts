import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withEmbedPolicy } from "../../src/hosts/embed-policy.ts";
import { defaultHeaderRules } from "../../src/hosts/headers.ts";
import { metaPolicy } from "../../src/hosts/page-policy.ts";
import { type PreviewServer, startPreviewServer } from "../../src/hosts/preview-server.ts";
import { useBrowser } from "../helpers/browser.ts";
import { crawlSite } from "../helpers/crawl.ts";
import { type BuiltSite, buildSite } from "../helpers/demo-build.ts";
import { isDigestFile } from "../helpers/demo-expectations.ts";
import { listFiles, readSiteFile } from "../helpers/files.ts";
import { urlPathOf } from "../helpers/representative-site.ts";
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
  let work: string;
  let server: PreviewServer;
  let site: BuiltSite;
  let start: string;

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), "ecp-pages-"));
    const root = join(work, "root");
    server = await startPreviewServer({
      basePath: `/${REPO}`,
      headers: () => ({}),
      oembedEndpoint: false,
    });
    server.setRoot(join(root, REPO));
    start = `${server.origin}/${REPO}/`;
    site = await buildSite(
      {
        SITE_URL: start,
        DEPLOY_TARGET: "github-pages",
        EVENT_API_CACHE_DIR: join(work, "cache"),
        // The share cards' addresses in a folder are test/integration/share-cards.test.ts's.
        SHARE_CARDS: "off",
      },
      join(root, REPO),
    );
    expect(site.status, site.log).toBe(0);
  });

  afterAll(async () => {
    await server?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it("should answer every address the site writes, all in its folder, with no header from the site", async () => {
    const crawl = await crawlSite({ start, also: ["robots.txt"] });
    expect(crawl.problems).toEqual([]);
    expect([...crawl.fetched.keys()]).toEqual(
      expect.arrayContaining([
        `/${REPO}/search/`,
        `/${REPO}/pagefind/pagefind.js`,
        `/${REPO}/calendar.ics`,
      ]),
    );
    const response = await fetch(`${start}search/`);
    expect(response.headers.get("content-security-policy")).toBeNull();
    expect(existsSync(join(site.dir, ".nojekyll"))).toBe(true);
    expect(site.stdout).toMatch(/host {7}GitHub Pages: [\d.]+ MB of 1 GB/);
  });

  it("should carry netlify.toml's policy for its path in every page, first in the head", async () => {
    // Not the weekly digest's mails: a policy in a mail would be applied by
    // mail clients to the mail's inline styles (docs/followers.md, "The mail").
    const pages = (await listFiles(site.dir)).filter(
      (file) => file.endsWith(".html") && !isDigestFile(file),
    );
    expect(pages.length).toBeGreaterThan(200);
    // The embed pages' policy names the site's origin (src/hosts/embed-policy.ts).
    const rules = withEmbedPolicy(defaultHeaderRules(), [start]);
    for (const page of pages) {
      const html = readSiteFile(site.dir, page);
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
    expect(readSiteFile(site.dir, "search/index.html")).toContain(
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
      writeFileSync(join(site.dir, "control.html"), "<!DOCTYPE html><title>control</title>");
      expect(await runsInline(`${start}control.html`)).toBe(true);
      rmSync(join(site.dir, "control.html"));
      // ...and with it, it does not, on an event page as on the search page.
      const eventPage = `${start}calendars/city/`;
      expect(await runsInline(eventPage)).toBe(false);
      expect(await runsInline(`${start}search/`)).toBe(false);
      expect(problems.some((text) => /Content Security Policy/i.test(text))).toBe(true);
      problems.length = 0;

      // Pagefind's WebAssembly is allowed by the search page's meta, as by its header.
      await page.goto(`${start}search/?q=jazz`);
      const first = page.locator("#search-results a").first();
      await first.waitFor();
      expect(await first.getAttribute("href")).toMatch(
        new RegExp(`^/${REPO}/calendars/[^/]+/events/[^/]+/$`),
      );
      expect(problems).toEqual([]);
    });
  });
});
