import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { paths } from "../../src/model/url-scheme.ts";
import { NOW } from "../helpers/clock.ts";
import { describeEngines, type EnginePage, type Surface } from "../helpers/engines.ts";
import { useServedWidgetSite } from "../helpers/served-widget-site.ts";
import { useHostServer } from "../helpers/static-server.ts";

/*
 * The embed page's side of WordPress's embed protocol (src/widget/browser/frame.ts),
 * without WordPress: a host page frames the widget the way WordPress does for
 * an oEmbed provider it does not know (`sandbox="allow-scripts"`, an opaque
 * origin, and `#?secret=` in the address) and records what the frame posts.
 * test/integration/wordpress.browser.test.ts runs the same against a real
 * WordPress and its wp-embed script. In each engine: WebKit is the one that
 * matches the embed pages' 'self' against the frame's opaque origin
 * (src/hosts/embed-policy.ts).
 */

const SECRET = "Ab12Cd34Ef";

type Posted = {
  message?: string;
  value?: unknown;
  secret?: string;
  type?: string;
  height?: number;
};

// One build and one host for the file, used by every engine's block.
const widget = useServedWidgetSite();
const host = useHostServer();

describeEngines("the widget in WordPress's sandbox", (engine) => {
  /** A host page with one iframe, recording every message its frame posts (in `window.posted`). */
  async function openFrame(
    iframeAttributes: string,
  ): Promise<{ page: EnginePage; frame: Surface }> {
    // The recorder is registered before the iframe exists, so it sees the first message.
    const html =
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>Post</title>` +
      `<script>window.posted=[];addEventListener("message",function(e){var f=document.querySelector("iframe");if(f&&e.source===f.contentWindow)window.posted.push(e.data);});</script>` +
      `</head><body><main><h1>A post</h1><iframe ${iframeAttributes} title="Events" width="500" height="600" frameborder="0" scrolling="no"></iframe></main></body></html>`;
    const page = await engine.open(host.add(html), { viewport: { width: 800, height: 900 } });
    const frame = await page.frame("iframe");
    await frame.waitFor(() => document.querySelector("#ecp[data-state=ready]") !== null);
    return { page, frame };
  }

  const posted = (page: EnginePage) =>
    page.evaluate(() => (window as unknown as { posted: Posted[] }).posted);
  const contentHeight = (frame: Surface) =>
    frame.evaluate(() => Math.ceil(document.documentElement.getBoundingClientRect().height));
  const links = (frame: Surface) =>
    frame.evaluate(() =>
      [...document.querySelectorAll("a[href]")].map((a) => ({
        href: (a as HTMLAnchorElement).href,
        // The "opens in a new tab" a link announces, unless the stylesheet drops it.
        newTab: [...a.querySelectorAll(".ecp-newtab")].some(
          (note) => getComputedStyle(note).display !== "none",
        ),
      })),
    );

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

  it("should load its own files, read its events and report its height to WordPress from an opaque origin", async () => {
    const { page, frame } = await openFrame(wordpressFrame.replace("EMBED", embedUrl()));
    expect(await frame.evaluate(() => window.origin)).toBe("null");
    // Its stylesheet applies: the embed pages' policy admits the site's own files in this frame too.
    expect(
      await frame.evaluate(() => {
        const item = document.querySelector(".ecp-event");
        return item ? getComputedStyle(item).borderLeftStyle : null;
      }),
    ).toBe("solid");
    // Seven events are more than the build wrote: they came from the events JSON, over CORS.
    expect(
      await frame.evaluate(() =>
        [...document.querySelectorAll(".ecp-event .ecp-name")].map((n) => n.textContent),
      ),
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
    expect(page.problems).toEqual([]);
  });

  it("should report its height again when WordPress says it is ready, and only then", async () => {
    const { page } = await openFrame(wordpressFrame.replace("EMBED", embedUrl()));
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
    expect(page.problems).toEqual([]);
  });

  it("should ask WordPress to open event and calendar links, which the sandbox would block", async () => {
    const { page, frame } = await openFrame(wordpressFrame.replace("EMBED", embedUrl()));
    const asked = async () => (await posted(page)).filter((m) => m.message === "link");
    const eventHref = (await frame.evaluate(
      () => (document.querySelector(".ecp-link") as HTMLAnchorElement | null)?.href,
    )) as string;
    // They open in WordPress's window, so no link says it opens a new tab.
    const all = await links(frame);
    expect(all.length).toBeGreaterThan(1);
    expect(all.filter((link) => link.newTab)).toEqual([]);
    expect(eventHref.startsWith(`${widget.origin}${paths.calendar("culture")}events/`)).toBe(true);
    await frame.click(".ecp-link");
    await expect.poll(asked).toEqual([{ message: "link", value: eventHref, secret: SECRET }]);
    // The "all events" link at the foot: the calendar's page.
    await frame.click(".ecp-foot a");
    await expect
      .poll(async () => (await asked()).map((m) => m.value))
      .toEqual([eventHref, `${widget.origin}${paths.calendar("culture")}`]);
    // Nothing tried to open a tab (the sandbox would have blocked a popup).
    expect(await page.popups()).toBe(0);
    expect(page.problems).toEqual([]);
  });

  it("should speak only its own protocol without WordPress's secret", async () => {
    const { page, frame } = await openFrame(`src="${embedUrl()}?id=ecp-abc"`);
    const height = await contentHeight(frame);
    await expect
      .poll(async () => (await posted(page)).at(-1))
      .toEqual({ type: "ecp:resize", height, id: "ecp-abc" });
    // Links keep opening a new tab, as on any other site, and say so.
    expect((await links(frame)).filter((link) => link.newTab).length).toBeGreaterThan(1);
    await frame.click(".ecp-link");
    await expect.poll(() => page.popups()).toBe(1);
    expect((await posted(page)).filter((m) => m.message !== undefined)).toEqual([]);
    expect(page.problems).toEqual([]);
  });
});
