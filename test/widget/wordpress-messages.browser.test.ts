import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Frame, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { paths } from "../../src/model/url-scheme.ts";
import { useBrowser, watchPage } from "../helpers/browser.ts";
import { NOW } from "../helpers/clock.ts";
import { useServedWidgetSite } from "../helpers/served-widget-site.ts";
import { useHostServer } from "../helpers/static-server.ts";
import { hasChromium } from "../helpers/system-packages.ts";

/*
 * The embed page's side of WordPress's embed protocol (src/widget/browser/frame.ts),
 * without WordPress: a host page frames the widget the way WordPress does for
 * an oEmbed provider it does not know (`sandbox="allow-scripts"`, an opaque
 * origin, and `#?secret=` in the address) and records what the frame posts.
 * test/integration/wordpress.browser.test.ts runs the same against a real
 * WordPress and its wp-embed script.
 */

const SECRET = "Ab12Cd34Ef";

type Posted = {
  message?: string;
  value?: unknown;
  secret?: string;
  type?: string;
  height?: number;
};

describe.skipIf(!hasChromium())("the widget in WordPress's sandbox", () => {
  const chromium = useBrowser();
  const widget = useServedWidgetSite();
  const host = useHostServer();

  /** A host page with one iframe, recording every message its frame posts (in `window.posted`). */
  async function openFrame(
    iframeAttributes: string,
  ): Promise<{ page: Page; frame: Frame; problems: string[]; popups: string[] }> {
    // The recorder is registered before the iframe exists, so it sees the first message.
    const html =
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>Post</title>` +
      `<script>window.posted=[];addEventListener("message",function(e){var f=document.querySelector("iframe");if(f&&e.source===f.contentWindow)window.posted.push(e.data);});</script>` +
      `</head><body><main><h1>A post</h1><iframe ${iframeAttributes} title="Events" width="500" height="600" frameborder="0" scrolling="no"></iframe></main></body></html>`;
    const context = await chromium.visitor({
      timezoneId: "Europe/Amsterdam",
      viewport: { width: 800, height: 900 },
    });
    const page = await context.newPage();
    const popups: string[] = [];
    context.on("page", (p) => popups.push(p.url()));
    const { problems } = watchPage(page);
    await page.goto(host.add(html));
    const frame = await (await page.locator("iframe").elementHandle())?.contentFrame();
    if (!frame) throw new Error("no frame");
    await frame.waitForSelector("#ecp[data-state=ready]");
    return { page, frame, problems, popups };
  }

  const posted = (page: Page) =>
    page.evaluate(() => (window as unknown as { posted: Posted[] }).posted);
  const contentHeight = (frame: Frame) =>
    frame.evaluate(() => Math.ceil(document.documentElement.getBoundingClientRect().height));

  /** The calendar's published events that have not ended at NOW, as the widget lists them. */
  function upcomingTitles(count: number): string[] {
    const json = JSON.parse(
      readFileSync(join(widget.outputDir, paths.apiEvents("culture")), "utf8"),
    ) as { events: { title: string; start: string; end: string }[] };
    return json.events
      .filter((e) => Math.max(Date.parse(e.start), Date.parse(e.end)) >= Date.parse(NOW))
      .slice(0, count)
      .map((e) => e.title);
  }

  const wordpressFrame = `sandbox="allow-scripts" src="EMBED?count=7#?secret=${SECRET}"`;
  const embedUrl = () => `${widget.origin}${paths.embed("culture")}`;

  it("should read its events and report its height to WordPress from an opaque origin", async () => {
    const { page, frame, problems } = await openFrame(wordpressFrame.replace("EMBED", embedUrl()));
    expect(await frame.evaluate(() => window.origin)).toBe("null");
    // Seven events are more than the build wrote: they came from the events JSON, over CORS.
    expect(
      await frame.$$eval(".ecp-event .ecp-name", (names) => names.map((n) => n.textContent)),
    ).toEqual(upcomingTitles(7));
    const height = await contentHeight(frame);
    await expect
      .poll(async () => (await posted(page)).filter((m) => m.message === "height").at(-1))
      .toEqual({ message: "height", value: height, secret: SECRET });
    // embed.js's message goes out too, for hosts that listen for it.
    expect((await posted(page)).filter((m) => m.type === "ecp:resize").at(-1)).toEqual({
      type: "ecp:resize",
      height,
      id: "",
    });
    expect(problems).toEqual([]);
  });

  it("should report its height again when WordPress says it is ready, and only then", async () => {
    const { page, problems } = await openFrame(wordpressFrame.replace("EMBED", embedUrl()));
    const heightMessages = async () =>
      (await posted(page)).filter((m) => m.message === "height").length;
    await expect.poll(heightMessages).toBeGreaterThan(0);
    const before = await heightMessages();
    await page.evaluate(() => {
      const target = document.querySelector("iframe")?.contentWindow;
      // Another secret first (ignored), then WordPress's (answered); in that order.
      target?.postMessage({ message: "ready", secret: "Zz99Zz99Zz" }, "*");
      target?.postMessage({ message: "ready", secret: "Ab12Cd34Ef" }, "*");
    });
    await expect.poll(heightMessages).toBe(before + 1);
    expect(problems).toEqual([]);
  });

  it("should ask WordPress to open event and calendar links, which the sandbox would block", async () => {
    const { page, frame, problems, popups } = await openFrame(
      wordpressFrame.replace("EMBED", embedUrl()),
    );
    const links = async () => (await posted(page)).filter((m) => m.message === "link");
    const event = frame.locator(".ecp-link").first();
    const eventHref = await event.evaluate((a) => (a as HTMLAnchorElement).href);
    // They open in WordPress's window, so no link says it opens a new tab.
    expect(await frame.getByRole("link").count()).toBeGreaterThan(1);
    expect(await frame.getByRole("link", { name: /new tab/i }).count()).toBe(0);
    expect(eventHref.startsWith(`${widget.origin}${paths.calendar("culture")}events/`)).toBe(true);
    await event.click();
    await expect.poll(links).toEqual([{ message: "link", value: eventHref, secret: SECRET }]);
    // The "all events" link at the foot: the calendar's page.
    await frame.locator(".ecp-foot a").click();
    await expect
      .poll(async () => (await links()).map((m) => m.value))
      .toEqual([eventHref, `${widget.origin}${paths.calendar("culture")}`]);
    // Nothing tried to open a tab (the sandbox would have logged a blocked popup).
    expect(popups).toEqual([]);
    expect(problems).toEqual([]);
  });

  it("should speak only its own protocol without WordPress's secret", async () => {
    const { page, frame, problems, popups } = await openFrame(`src="${embedUrl()}?id=ecp-abc"`);
    const height = await contentHeight(frame);
    await expect
      .poll(async () => (await posted(page)).at(-1))
      .toEqual({ type: "ecp:resize", height, id: "ecp-abc" });
    // Links keep opening a new tab, as on any other site, and say so.
    expect(await frame.getByRole("link", { name: /new tab/i }).count()).toBeGreaterThan(1);
    await frame.locator(".ecp-link").first().click();
    await expect.poll(() => popups.length).toBe(1);
    expect((await posted(page)).filter((m) => m.message !== undefined)).toEqual([]);
    expect(problems).toEqual([]);
  });
});
