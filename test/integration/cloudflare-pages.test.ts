import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { headersFor } from "../../src/hosts/headers.ts";
import { type PreviewServer, startPreviewServer } from "../../src/hosts/preview-server.ts";
import { siteHeaderRules } from "../../src/hosts/site-rules.ts";
import { useBrowser, watchPage } from "../helpers/browser.ts";
import { type BuiltSite, buildSite, removeBuild } from "../helpers/demo-build.ts";
import { DEMO_SITE_URL } from "../helpers/demo-expectations.ts";
import { builtDemoSite } from "../helpers/demo-site.ts";
import { listFiles, readSiteFile } from "../helpers/files.ts";
import { headersFromFile, readHeadersFile } from "../helpers/headers-file.ts";
import { icalJsEvents, nodeIcalEvents } from "../helpers/ics-readers.ts";
import { urlPathOf } from "../helpers/representative-site.ts";
import { hasChromium } from "../helpers/system-packages.ts";

/*
 * A build for Cloudflare Pages that keeps under a host's file limit:
 * DEPLOY_TARGET=cloudflare-pages writes netlify.toml's headers as `_headers`,
 * and EVENT_ICS=inline writes no event.ics, each event page's download then
 * carrying the same bytes. Compared with the shared demo build (Netlify, a
 * file per event), built from the same portal at the same moment.
 */

const INLINE_LINK =
  /href="data:text\/calendar;charset=utf-8;base64,([A-Za-z0-9+/=]*)" download="event\.ics"/;

describe("a build for Cloudflare Pages with the event downloads inline", () => {
  let site: BuiltSite;
  let demo: BuiltSite;
  let files: string[];
  let demoFiles: string[];

  beforeAll(async () => {
    [site, demo] = await Promise.all([
      buildSite({ DEPLOY_TARGET: "cloudflare-pages", EVENT_ICS: "inline" }),
      builtDemoSite(),
    ]);
    expect(site.status, site.log).toBe(0);
    [files, demoFiles] = await Promise.all([listFiles(site.dir), listFiles(demo.dir)]);
  });

  afterAll(() => {
    if (site) removeBuild(site);
  });

  it("should write the same site less one event.ics per event, with its _headers", () => {
    const eventIcs = demoFiles.filter((file) => file.endsWith("/event.ics"));
    expect(eventIcs.length).toBeGreaterThan(100);
    // The search index's files are named by their hashes, which differ from run to run.
    const named = (list: string[]) => list.filter((file) => !file.startsWith("pagefind/"));
    // Both have a _headers file: Netlify's holds the embed pages' policy (src/hosts/embed-policy.ts).
    expect(demoFiles).toContain("_headers");
    expect(named(files)).toEqual(named(demoFiles).filter((file) => !file.endsWith("/event.ics")));
    expect(files.length).toBe(demoFiles.length - eventIcs.length);
    // The report counts the files the host will count, against its limits.
    expect(site.stdout).toContain(`  files      ${files.length}, `);
    expect(site.stdout).toMatch(
      new RegExp(
        `host {7}Cloudflare Pages: ${files.length.toLocaleString("en-US")} of 20,000 files \\(paid plans 100,000\\), largest file [\\d.]+ KB of 25 MiB`,
      ),
    );
  });

  it("should give every event page the bytes of its event.ics in its download link, and change nothing else", () => {
    const pages = demoFiles.filter(
      (file) =>
        file.endsWith("/index.html") &&
        demoFiles.includes(file.replace(/index\.html$/, "event.ics")),
    );
    expect(pages.length).toBeGreaterThan(100);
    let downloads = 0;
    for (const page of pages) {
      const folder = page.slice(0, -"index.html".length);
      const html = readSiteFile(site.dir, page).replace(INLINE_LINK, (_, base64: string) => {
        downloads += 1;
        const bytes = Buffer.from(base64, "base64").toString("utf8");
        expect(bytes, page).toBe(readSiteFile(demo.dir, `${folder}event.ics`));
        return `href="/${folder}event.ics" download`;
      });
      expect(html, page).toBe(readSiteFile(demo.dir, page));
    }
    // Cancelled and removed events offer no download on either build.
    expect(downloads).toBeGreaterThan(100);
  });

  it("should offer downloads that calendar parsers read as the event", () => {
    const page = files.find(
      (file) =>
        /^calendars\/[^/]+\/events\/[^/]+\/index\.html$/.test(file) &&
        INLINE_LINK.test(readSiteFile(site.dir, file)),
    );
    const base64 = INLINE_LINK.exec(readSiteFile(site.dir, page ?? ""))?.[1] ?? "";
    const text = Buffer.from(base64, "base64").toString("utf8");
    const [event] = icalJsEvents(text);
    expect(event?.summary).toBeTruthy();
    expect(nodeIcalEvents(text)).toHaveLength(1);
    expect(nodeIcalEvents(text)[0]?.uid).toBe(event?.uid);
  });

  it("should write netlify.toml's rules as _headers, read back to the same headers for every file", () => {
    const text = readFileSync(join(site.dir, "_headers"), "utf8");
    const parsed = readHeadersFile(text);
    // Each rule as netlify.toml writes it, with the embed pages' policy naming the
    // site's origin, in its order (and the few a splat needs, below).
    const rules = siteHeaderRules({ url: DEMO_SITE_URL, map: null });
    const written = new Map(parsed.map((rule) => [rule.path, Object.fromEntries(rule.headers)]));
    expect(rules.map((rule) => written.get(rule.for))).toEqual(rules.map((rule) => rule.values));
    expect(parsed.filter((rule) => rule.path === "/feed.xml")).toHaveLength(1);
    const paths = [
      ...files.map(urlPathOf),
      "/search/?q=jazz",
      "/embed/city/?view=month",
      "/calendars/x/events/y/event.ics",
    ];
    for (const path of paths) {
      expect(headersFromFile(parsed, path.split("?")[0] ?? path), path).toEqual(
        headersFor(path, rules),
      );
    }
    // Every line within what Cloudflare Pages reads.
    expect(parsed.length).toBeLessThanOrEqual(100);
    expect(Math.max(...text.split("\n").map((line) => line.length))).toBeLessThanOrEqual(2000);
  });

  describe.runIf(hasChromium())("in a browser", () => {
    const chromium = useBrowser();

    it("should download the event's calendar from the link under the site's policy", async () => {
      const server: PreviewServer = await startPreviewServer({ root: site.dir });
      try {
        const page = await (await chromium.visitor({ acceptDownloads: true })).newPage();
        const { problems } = watchPage(page);
        const file = files.find((name) => INLINE_LINK.test(readSiteFile(site.dir, name))) ?? "";
        await page.goto(`${server.origin}${urlPathOf(file)}`);
        const [download] = await Promise.all([
          page.waitForEvent("download"),
          page.locator(".add-to-calendar a[download]").click(),
        ]);
        expect(download.suggestedFilename()).toBe("event.ics");
        const text = readFileSync((await download.path()) ?? "", "utf8");
        const expected = Buffer.from(
          INLINE_LINK.exec(readSiteFile(site.dir, file))?.[1] ?? "",
          "base64",
        ).toString("utf8");
        expect(text).toBe(expected);
        expect(icalJsEvents(text)).toHaveLength(1);
        expect(problems).toEqual([]);
      } finally {
        await server.close();
      }
    });
  });
});
