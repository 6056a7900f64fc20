import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { BrowserContext, Frame, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { paths } from "../../src/model/url-scheme.ts";
import { WIDGET_INITIAL_HEIGHT } from "../../src/widget/options.ts";
import { OEMBED_WIDTH } from "../../src/widget/snippets.ts";
import { useBrowser, watchPage } from "../helpers/browser.ts";
import { NOW } from "../helpers/clock.ts";
import { type BuiltSite, buildSite, removeBuild } from "../helpers/demo-build.ts";
import { startingBetween, useDemoPartPortal } from "../helpers/demo-parts.ts";
import { type RunningServer, startStaticServer } from "../helpers/static-server.ts";
import { hasWordPress } from "../helpers/system-packages.ts";
import { startWordPress, type WordPressSite } from "../helpers/wordpress.ts";

/*
 * The widget in a real WordPress (Debian's wordpress package, PHP, MariaDB;
 * test/helpers/wordpress.ts): an editor publishes a post whose content is
 * only a calendar page's address, WordPress discovers our oEmbed endpoint on
 * that page and embeds the answer its way (a blockquote, then the iframe in
 * `sandbox="allow-scripts"` with `#?secret=`), and Chromium shows the post.
 * The project's plugin (wordpress-plugin/) is active too, for its shortcode.
 * The demo site is built for, and served (with the production headers and
 * the endpoint) by, a loopback server of this test; the browser reaches
 * nothing else.
 */

const CALENDAR = "culture";

/** The project's WordPress plugin (wordpress-plugin/), installed and activated in the test's WordPress. */
const PLUGIN = resolve(import.meta.dirname, "../../wordpress-plugin/event-calendar-publisher");

interface Visit {
  readonly page: Page;
  readonly context: BrowserContext;
  /** Console errors, page errors, dialogs and requests that would leave the machine. */
  readonly problems: string[];
  /** Every request the page and its frames made. */
  readonly requests: { readonly url: string; readonly status: () => number | undefined }[];
}

describe.skipIf(!hasWordPress())("the widget in WordPress", () => {
  let widget: RunningServer;
  let site: BuiltSite | undefined;
  let wordpress: WordPressSite | undefined;
  const chromium = useBrowser();
  // The demo's events of March and April: the widget's lists, quicker to build.
  const portal = useDemoPartPortal(startingBetween("2026-03-01", "2026-05-01"));
  let postUrl = "";

  beforeAll(async () => {
    widget = await startStaticServer();
    const port = Number(new URL(widget.origin).port);
    // The build and WordPress's setup side by side: neither needs the other.
    const [built, started] = await Promise.allSettled([
      // The widget, not the pictures links share as: without share cards.
      buildSite({ ...portal(), SITE_URL: widget.origin, SHARE_CARDS: "off" }),
      startWordPress({
        allowedPort: port,
        plugins: [PLUGIN],
        options: { event_calendar_site: widget.origin },
      }),
    ]);
    if (built.status === "fulfilled") site = built.value;
    if (started.status === "fulfilled") wordpress = started.value;
    if (built.status === "rejected") throw built.reason;
    if (started.status === "rejected") throw started.reason;
    if (site?.status !== 0) throw new Error(`The demo build failed:\n${site?.log}`);
    widget.setRoot(site.dir);
    postUrl = await started.value.publishPost(
      "What's on",
      `${widget.origin}${paths.calendar(CALENDAR)}`,
    );
  });

  afterAll(async () => {
    await wordpress?.stop();
    await widget?.close();
    if (site) removeBuild(site);
  });

  const isLoopback = (url: string) => {
    const { protocol, hostname } = new URL(url);
    return protocol === "data:" || hostname === "127.0.0.1" || hostname === "[::1]";
  };

  /** The post, in a new browser context whose clock reads `now`. */
  async function visitPost(now: string, url = postUrl): Promise<Visit> {
    const context = await chromium.visitor({
      timezoneId: "Europe/Amsterdam",
      viewport: { width: 1000, height: 900 },
      at: now,
    });
    const page = await context.newPage();
    const { problems } = watchPage(page);
    await context.route("**/*", async (route) => {
      const url = route.request().url();
      if (isLoopback(url)) return route.continue();
      problems.push(`request off the machine: ${url}`);
      return route.abort();
    });
    const requests: Visit["requests"][number][] = [];
    const requestStatus = new WeakMap<object, number>();
    page.on("request", (request) => {
      requests.push({ url: request.url(), status: () => requestStatus.get(request) });
    });
    page.on("response", (response) => requestStatus.set(response.request(), response.status()));
    await page.goto(url);
    return { page, context, problems, requests };
  }

  /** WordPress's iframe and the widget inside it, once the widget has applied its options. */
  async function embedded(page: Page): Promise<{ iframe: Locator; frame: Frame }> {
    const iframe = page.locator(".wp-block-post-content iframe.wp-embedded-content");
    const frame = await (await iframe.elementHandle())?.contentFrame();
    if (!frame) throw new Error(`No embed in the post:\n${wordpress?.log()}`);
    await frame.waitForSelector("#ecp[data-state=ready]");
    return { iframe, frame };
  }

  /** The first `count` titles of the calendar's published events (of a category) that have not ended at `now`. */
  function upcomingTitles(now: string, count = 5, category = ""): string[] {
    const json = JSON.parse(
      readFileSync(join(site?.dir ?? "", paths.apiEvents(CALENDAR)), "utf8"),
    ) as {
      events: { title: string; start: string; end: string; categories: { id: string }[] }[];
    };
    const at = Date.parse(now);
    return json.events
      .filter((e) => Math.max(Date.parse(e.start), Date.parse(e.end)) >= at)
      .filter((e) => !category || e.categories.some((c) => c.id === category))
      .slice(0, count)
      .map((e) => e.title);
  }

  const titlesIn = (frame: Frame) =>
    frame.$$eval(".ecp-event .ecp-name", (names) => names.map((n) => n.textContent));

  it("should embed the calendar from its pasted address, in WordPress's sandbox, exactly as tall as its content", async () => {
    const { page, problems } = await visitPost(NOW);
    const served = await (await fetch(postUrl)).text();
    // WordPress kept our answer its way: the link first, then the sandboxed iframe at the answer's size.
    const blockquote = page.locator(".wp-block-post-content blockquote.wp-embedded-content");
    expect(await blockquote.locator("a").getAttribute("href")).toBe(
      `${widget.origin}${paths.calendar(CALENDAR)}`,
    );
    const { iframe, frame } = await embedded(page);
    const secret = await iframe.getAttribute("data-secret");
    expect(secret).toMatch(/^[A-Za-z0-9]{10}$/);
    expect(await iframe.getAttribute("sandbox")).toBe("allow-scripts");
    expect(await iframe.getAttribute("src")).toBe(
      `${widget.origin}${paths.embed(CALENDAR)}#?secret=${secret}`,
    );
    // WordPress asked the endpoint for at most its content width: the answer
    // and its iframe are narrower than the static answer's.
    const size = /<iframe [^>]*data-secret="[A-Za-z0-9]{10}" width="(\d+)" height="(\d+)"/.exec(
      served,
    );
    expect(Number(size?.[1])).toBeLessThan(OEMBED_WIDTH);
    expect(Number(size?.[2])).toBe(WIDGET_INITIAL_HEIGHT);
    // WordPress keeps no attribute of the blockquote (our `hidden` is for other consumers).
    expect(served).toMatch(
      /<blockquote class="wp-embedded-content" data-secret="[A-Za-z0-9]{10}">/,
    );
    // An opaque origin: no cookies, no storage, no same-origin requests for the widget.
    expect(await frame.evaluate(() => window.origin)).toBe("null");

    expect(await titlesIn(frame)).toEqual(upcomingTitles(NOW));
    expect(await frame.locator(".ecp-event").first().isVisible()).toBe(true);

    // The widget reported its height: WordPress showed the iframe, hid the
    // link, and sized the frame to the content (its 600 px default otherwise).
    const content = () =>
      frame.evaluate(() => Math.ceil(document.documentElement.getBoundingClientRect().height));
    const framed = async () => (await iframe.boundingBox())?.height ?? 0;
    await expect
      .poll(async () => Math.abs((await framed()) - (await content())))
      .toBeLessThanOrEqual(2);
    const height = await content();
    expect(height).not.toBe(WIDGET_INITIAL_HEIGHT);
    expect(await iframe.getAttribute("height")).toBe(String(height));
    if (process.env.ECP_MEASURE)
      console.info(`measure: content ${height} px, iframe ${await framed()} px`);
    expect(await iframe.getAttribute("style")).toBeNull();
    expect(await blockquote.isHidden()).toBe(true);
    expect(problems).toEqual([]);
  });

  it("should re-read the events in the sandbox and open an event in the top window when clicked", async () => {
    // An hour after the first listed event ended, the build's list is out of
    // date: the widget fetches the events JSON from an opaque origin (CORS).
    const built = readFileSync(join(site?.dir ?? "", paths.embed(CALENDAR), "index.html"), "utf8");
    const freshUntil = /data-fresh-until="([^"]+)"/.exec(built)?.[1];
    if (!freshUntil) throw new Error("The embed page names no fresh-until instant");
    const later = new Date(Date.parse(freshUntil) + 3_600_000).toISOString();
    const { page, problems, requests } = await visitPost(later);
    const { frame } = await embedded(page);
    expect(await titlesIn(frame)).toEqual(upcomingTitles(later));
    const json = requests.filter((r) => r.url === `${widget.origin}${paths.apiEvents(CALENDAR)}`);
    expect(json.map((r) => r.status())).toEqual([200]);

    // A click on an event: the sandbox allows no new tab, so the widget asks
    // WordPress (a "link" message) to open the event's page in the top window.
    const link = frame.locator(".ecp-link").first();
    const href = await link.evaluate((a) => (a as HTMLAnchorElement).href);
    const title = await link.locator(".ecp-name").textContent();
    expect(href.startsWith(`${widget.origin}/calendars/${CALENDAR}/events/`)).toBe(true);
    // So no link tells a screen reader it opens a new tab.
    expect(await frame.getByRole("link", { name: /new tab/i }).count()).toBe(0);
    await link.click();
    await page.waitForURL(href);
    expect(await page.locator("h1").first().textContent()).toContain(title ?? "");
    expect(problems).toEqual([]);
  });
  it("should show a calendar's events with options through the plugin's shortcode, as tall as their content", async () => {
    if (!wordpress) throw new Error("no WordPress");
    const url = await wordpress.publishPost(
      "Music this month",
      `[event_calendar calendar="${CALENDAR}" category="music" count="3"]`,
    );
    const { page, problems } = await visitPost(NOW, url);
    // The one-line embed: embed.js put the widget's iframe where its fallback link was.
    const iframe = page.locator(".wp-block-post-content iframe");
    const frame = await (await iframe.elementHandle())?.contentFrame();
    if (!frame) throw new Error(`No widget in the post:\n${wordpress.log()}`);
    await frame.waitForSelector("#ecp[data-state=ready]");
    expect(await page.locator("a[data-ecp-fallback]").count()).toBe(0);
    expect(await iframe.getAttribute("sandbox")).toBeNull();
    const titles = upcomingTitles(NOW, 3, "music");
    expect(titles.length).toBe(3);
    expect(await titlesIn(frame)).toEqual(titles);
    const content = () =>
      frame.evaluate(() => Math.ceil(document.documentElement.getBoundingClientRect().height));
    await expect
      .poll(async () => Math.abs(((await iframe.boundingBox())?.height ?? 0) - (await content())))
      .toBeLessThanOrEqual(1);
    expect(problems).toEqual([]);
  });
  it("should write only escaped attributes from a shortcode, and nothing for an address it cannot use", async () => {
    if (!wordpress) throw new Error("no WordPress");
    const hostile = '"><img src=x onerror=alert(1)>';
    const escaped = await (
      await fetch(
        await wordpress.publishPost(
          "Escaped",
          `[event_calendar calendar="${CALENDAR}" category='${hostile}' title='<b>Agenda</b>']`,
        ),
      )
    ).text();
    // WordPress itself rewrites the tag inside the attribute when it saves the
    // post; what reaches the page is text in the attribute, never an element.
    const category = new RegExp(
      `<script src="[^"]+/embed\\.js" data-calendar="${CALENDAR}" data-category="([^"<>]*)" async></script>`,
    ).exec(escaped)?.[1];
    expect(category).toContain("&lt;img");
    expect(escaped).toContain("data-ecp-fallback>&lt;b&gt;Agenda&lt;/b&gt;</a>");
    expect(escaped).not.toMatch(/<img[^>]*src="?x/);
    for (const shortcode of [
      `[event_calendar calendar="../api"]`,
      `[event_calendar calendar="${CALENDAR}" site="javascript:alert(1)"]`,
    ]) {
      const html = await (await fetch(await wordpress.publishPost("Nothing", shortcode))).text();
      expect(html, shortcode).not.toContain("embed.js");
      expect(html, shortcode).not.toContain("event_calendar");
    }
  });
});
