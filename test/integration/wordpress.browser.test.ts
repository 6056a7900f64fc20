import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { paths } from "../../src/model/url-scheme.ts";
import { WIDGET_INITIAL_HEIGHT } from "../../src/widget/options.ts";
import { OEMBED_WIDTH } from "../../src/widget/snippets.ts";
import { useBrowser, watchPage } from "../helpers/browser.ts";
import { NOW } from "../helpers/clock.ts";
import { type BuiltSite, buildSite, removeBuild } from "../helpers/demo-build.ts";
import { startingBetween, useDemoPartPortal } from "../helpers/demo-parts.ts";
import { describeEngines, type EnginePage, type Surface } from "../helpers/engines.ts";
import { type RunningServer, startStaticServer } from "../helpers/static-server.ts";
import { hasChromium, hasWordPress } from "../helpers/system-packages.ts";
import { startWordPress, type WordPressSite } from "../helpers/wordpress.ts";

/*
 * The widget in a real WordPress (Debian's wordpress package, PHP, MariaDB;
 * test/helpers/wordpress.ts): an editor publishes a post whose content is
 * only a calendar page's address, WordPress discovers our oEmbed endpoint on
 * that page and embeds the answer its way (a blockquote, then the iframe in
 * `sandbox="allow-scripts"` with `#?secret=`), and each engine shows the post
 * (what only Chromium's request interception sees, in Chromium alone).
 * The project's plugin (wordpress-plugin/) is active too, for its shortcode.
 * The demo site is built for, and served (with the production headers and
 * the endpoint) by, a loopback server of this test; the browser reaches
 * nothing else.
 */

const CALENDAR = "culture";

/** The project's WordPress plugin (wordpress-plugin/), installed and activated in the test's WordPress. */
const PLUGIN = resolve(import.meta.dirname, "../../wordpress-plugin/event-calendar-publisher");

describe.skipIf(!hasWordPress())("the widget in WordPress", () => {
  let widget: RunningServer;
  let site: BuiltSite | undefined;
  let wordpress: WordPressSite | undefined;
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

  /** WordPress's iframe. */
  const EMBED = ".wp-block-post-content iframe.wp-embedded-content";

  /** The widget in WordPress's iframe, once it has applied its options. */
  async function embedded(page: EnginePage): Promise<Surface> {
    const frame = await page.frame(EMBED).catch((error: unknown) => {
      throw new Error(`No embed in the post (${String(error)}):\n${wordpress?.log()}`);
    });
    await frame.waitFor(() => document.querySelector("#ecp[data-state=ready]") !== null);
    return frame;
  }

  /** An hour after the first event of the build's list ended: its list is out of date then. */
  function staleAt(): string {
    const built = readFileSync(join(site?.dir ?? "", paths.embed(CALENDAR), "index.html"), "utf8");
    const freshUntil = /data-fresh-until="([^"]+)"/.exec(built)?.[1];
    if (!freshUntil) throw new Error("The embed page names no fresh-until instant");
    return new Date(Date.parse(freshUntil) + 3_600_000).toISOString();
  }

  /** A post with the plugin's shortcode (published once, by the first test that asks). */
  let shortcodeUrl: Promise<string> | undefined;
  const shortcodePost = (): Promise<string> => {
    if (!wordpress) throw new Error("no WordPress");
    shortcodeUrl ??= wordpress.publishPost(
      "Music this month",
      `[event_calendar calendar="${CALENDAR}" category="music" count="3"]`,
    );
    return shortcodeUrl;
  };

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

  const titlesIn = (frame: Surface) =>
    frame.evaluate(() =>
      [...document.querySelectorAll(".ecp-event .ecp-name")].map((n) => n.textContent),
    );

  describeEngines("a post", (engine) => {
    /** The post, as a new visitor whose clock reads `now` sees it. */
    const openPost = (now: string, url = postUrl) =>
      engine.open(url, { at: now, viewport: { width: 1000, height: 900 } });

    /** The height of a frame's document, in whole pixels. */
    const contentHeight = (frame: Surface) =>
      frame.evaluate(() => Math.ceil(document.documentElement.getBoundingClientRect().height));
    /** How tall the first element matching `selector` is drawn. */
    const drawnHeight = (page: Surface, selector: string) =>
      page.evaluate(
        (s: string) => document.querySelector(s)?.getBoundingClientRect().height ?? 0,
        selector,
      );

    it("should embed the calendar from its pasted address, in WordPress's sandbox, exactly as tall as its content", async () => {
      const page = await openPost(NOW);
      const served = await (await fetch(postUrl)).text();
      // WordPress kept our answer its way: the link first, then the sandboxed iframe at the answer's size.
      const blockquote = ".wp-block-post-content blockquote.wp-embedded-content";
      expect(await page.attribute(`${blockquote} a`, "href")).toBe(
        `${widget.origin}${paths.calendar(CALENDAR)}`,
      );
      const frame = await embedded(page);
      const secret = await page.attribute(EMBED, "data-secret");
      expect(secret).toMatch(/^[A-Za-z0-9]{10}$/);
      expect(await page.attribute(EMBED, "sandbox")).toBe("allow-scripts");
      expect(await page.attribute(EMBED, "src")).toBe(
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
      expect(
        await frame.evaluate(
          () => (document.querySelector(".ecp-event")?.getBoundingClientRect().height ?? 0) > 0,
        ),
      ).toBe(true);

      // The widget reported its height: WordPress showed the iframe, hid the
      // link, and sized the frame to the content (its 600 px default otherwise).
      await expect
        .poll(async () => Math.abs((await drawnHeight(page, EMBED)) - (await contentHeight(frame))))
        .toBeLessThanOrEqual(2);
      const height = await contentHeight(frame);
      expect(height).not.toBe(WIDGET_INITIAL_HEIGHT);
      expect(await page.attribute(EMBED, "height")).toBe(String(height));
      if (process.env.ECP_MEASURE)
        console.info(
          `measure (${engine.name}): content ${height} px, iframe ${await drawnHeight(page, EMBED)} px`,
        );
      expect(await page.attribute(EMBED, "style")).toBeNull();
      expect(await drawnHeight(page, blockquote)).toBe(0);
      // A new browser's first page asks WordPress for /favicon.ico, which it
      // answers 404 (Chromium reports it); the widget's own files show above.
      expect(page.problems.filter((p) => !p.includes("status of 404"))).toEqual([]);
    });

    it("should re-read the events in the sandbox and open an event in the top window when clicked", async () => {
      // An hour after the first listed event ended, the build's list is out of
      // date: the widget fetches the events JSON from an opaque origin (CORS).
      const later = staleAt();
      const page = await openPost(later);
      const frame = await embedded(page);
      expect(await titlesIn(frame)).toEqual(upcomingTitles(later));

      // A click on an event: the sandbox allows no new tab, so the widget asks
      // WordPress (a "link" message) to open the event's page in the top window.
      const link = await frame.evaluate(() => {
        const a = document.querySelector<HTMLAnchorElement>(".ecp-link");
        return { href: a?.href ?? "", title: a?.querySelector(".ecp-name")?.textContent ?? "" };
      });
      expect(link.href.startsWith(`${widget.origin}/calendars/${CALENDAR}/events/`)).toBe(true);
      // So no link tells a screen reader it opens a new tab (the note is there, not shown).
      expect(
        await frame.evaluate(
          () =>
            [...document.querySelectorAll("a .ecp-newtab")].filter(
              (note) => getComputedStyle(note).display !== "none",
            ).length,
        ),
      ).toBe(0);
      await frame.click(".ecp-link");
      await expect.poll(() => page.url()).toBe(link.href);
      await page.waitFor(
        (title: string) => document.querySelector("h1")?.textContent?.includes(title) ?? false,
        link.title,
      );
      expect(page.problems).toEqual([]);
    });

    it("should show a calendar's events with options through the plugin's shortcode, as tall as their content", async () => {
      if (!wordpress) throw new Error("no WordPress");
      const page = await openPost(NOW, await shortcodePost());
      // The one-line embed: embed.js put the widget's iframe where its fallback link was.
      const iframe = ".wp-block-post-content iframe";
      const frame = await page.frame(iframe);
      await frame.waitFor(() => document.querySelector("#ecp[data-state=ready]") !== null);
      expect(
        await page.evaluate(() => document.querySelectorAll("a[data-ecp-fallback]").length),
      ).toBe(0);
      expect(await page.attribute(iframe, "sandbox")).toBeNull();
      const titles = upcomingTitles(NOW, 3, "music");
      expect(titles.length).toBe(3);
      expect(await titlesIn(frame)).toEqual(titles);
      await expect
        .poll(async () =>
          Math.abs((await drawnHeight(page, iframe)) - (await contentHeight(frame))),
        )
        .toBeLessThanOrEqual(1);
      expect(page.problems).toEqual([]);
    });
  });

  describe.runIf(hasChromium())("a post in Chromium", () => {
    const chromium = useBrowser();

    it("should reach nothing off the machine, and read the events JSON once when the build's list is out of date", async () => {
      const context = await chromium.visitor({
        timezoneId: "Europe/Amsterdam",
        viewport: { width: 1000, height: 900 },
        at: staleAt(),
      });
      const page = await context.newPage();
      const { problems } = watchPage(page);
      await context.route("**/*", async (route) => {
        const url = route.request().url();
        if (isLoopback(url)) return route.continue();
        problems.push(`request off the machine: ${url}`);
        return route.abort();
      });
      const json: Promise<number>[] = [];
      page.on("request", (request) => {
        // -1: no answer before the page closed (the next post's widget asks again as the test ends).
        if (request.url() === `${widget.origin}${paths.apiEvents(CALENDAR)}`)
          json.push(
            request.response().then(
              (response) => response?.status() ?? 0,
              () => -1,
            ),
          );
      });
      await page.goto(postUrl);
      const frame = await (await page.locator(EMBED).elementHandle())?.contentFrame();
      await frame?.waitForSelector("#ecp[data-state=ready]");
      expect(await Promise.all(json)).toEqual([200]);
      // The plugin's one-line embed too.
      await page.goto(await shortcodePost());
      await page.locator(".wp-block-post-content iframe").waitFor();
      expect(problems).toEqual([]);
    });
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
