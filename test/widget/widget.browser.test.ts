import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import type { Frame, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { embedSnippets } from "../../src/widget/snippets.ts";
import { fixtureSnapshot } from "../fixtures/snapshot.ts";
import { axeCheck, useBrowser } from "../helpers/browser.ts";
import {
  describeEngines,
  type EnginePage,
  type Surface,
  type VisitOptions,
} from "../helpers/engines.ts";
import { useServedWidgetSite } from "../helpers/served-widget-site.ts";
import { hostPage, useHostServer } from "../helpers/static-server.ts";
import { hasChromium } from "../helpers/system-packages.ts";
import { visibleEdges } from "../helpers/visible-edges.ts";

/*
 * The widget as another site uses it: the built output is served from one
 * loopback origin with the deploy headers, a host page from another, and
 * each engine embeds it with each method, its clock at the fixture's "now".
 * What only Chromium's tools check (axe-core, the requests a page makes, its
 * cookies, the keyboard) is checked in Chromium alone, at the end.
 */

const culture = fixtureSnapshot.calendars.find((c) => c.id === "culture");
const community = fixtureSnapshot.calendars.find((c) => c.id === "community");
if (!culture || !community) throw new Error("fixture calendars missing");

const CULTURE_UPCOMING = [
  "Online Lecture: City Archives",
  "Harbour Concert",
  "Poetry Night",
  '<script>alert("x")</script> & "Quotes" \u2028',
  "Open Studios Weekend",
];

// One build and one host for the file, used by every engine's block.
const widget = useServedWidgetSite();
const host = useHostServer();

const iframeHtml = (query = "", calendar = culture) =>
  embedSnippets(calendar, widget.site).iframe.replace(/src="([^"]+)"/, `src="$1${query}"`);
const scriptHtml = (attributes = "", calendar = community) =>
  embedSnippets(calendar, widget.site).script.replace(" async>", ` ${attributes} async>`);

const ready = () => document.querySelector("#ecp[data-state=ready]") !== null;
const eventTitles = (frame: Surface) =>
  frame.evaluate(() => [...document.querySelectorAll(".ecp-name")].map((n) => n.textContent));
/** The height of the widget's content, in whole pixels. */
const contentHeight = (frame: Surface) =>
  frame.evaluate(() =>
    Math.ceil(document.getElementById("ecp")?.getBoundingClientRect().height ?? 0),
  );

/**
 * A date the browser wrote, without a comma after its weekday: WebKitGTK's
 * ICU (Debian's system library, older CLDR data than the ICU Node, Chromium
 * and Firefox bundle) writes en-GB's short weekday, day and month as "Sun, 5
 * Apr" where the others, and the build, write "Sun 5 Apr".
 */
const weekdayAsBuilt = (text: string | null | undefined) =>
  text?.replace(/(\p{L}+), (\d{1,2} \p{L})/gu, "$1 $2");

describeEngines("widget in a browser", (engine) => {
  /** A page of another site with `body`, as a visitor (in Amsterdam unless told) sees it. */
  const openHost = (body: string, options: VisitOptions = {}) =>
    engine.open(host.add(hostPage(body)), { viewport: { width: 800, height: 900 }, ...options });

  async function widgetFrame(page: EnginePage, index = 0): Promise<Surface> {
    const frame = await page.frame("iframe", index);
    await frame.waitFor(ready);
    return frame;
  }

  it("should show the calendar's next events through the plain iframe snippet", async () => {
    // Served as the CDN serves it: frameable by any site, scripts and styles from itself only.
    const csp = (await fetch(`${widget.origin}/embed/culture/`)).headers.get(
      "content-security-policy",
    );
    expect(csp).toContain("frame-ancestors *");
    expect(csp).toContain("script-src 'self'");
    const page = await openHost(iframeHtml());
    const frame = await widgetFrame(page);
    expect(await eventTitles(frame)).toEqual(CULTURE_UPCOMING);
    const links = await frame.evaluate(() =>
      [...document.querySelectorAll(".ecp-link")].map((a) => ({
        href: (a as HTMLAnchorElement).href,
        target: a.getAttribute("target"),
        rel: a.getAttribute("rel"),
      })),
    );
    expect(links[1]).toEqual({
      href: `${widget.origin}/calendars/culture/events/e-cancelled/`,
      target: "_blank",
      rel: "noopener",
    });
    const cancelled = await frame.text(".ecp-event--cancelled");
    expect(cancelled).toContain("Harbour Concert");
    expect(cancelled).toContain("Cancelled");
    const times = await frame.evaluate(() =>
      [...document.querySelectorAll(".ecp-event:nth-child(2) time")].map((t) => [
        t.getAttribute("datetime"),
        t.textContent,
      ]),
    );
    expect(times).toEqual([
      ["2026-04-04T20:00:00+02:00", "Sat 4 Apr, 20:00"],
      ["2026-04-04T22:00:00+02:00", "22:00"],
    ]);
    // The calendar's colour is the default accent.
    expect(
      await frame.evaluate(() => {
        const item = document.querySelector(".ecp-event");
        return item ? getComputedStyle(item).borderLeftColor : null;
      }),
    ).toBe("rgb(134, 46, 156)"); // #862e9c
    expect(page.problems).toEqual([]);
  });

  it("should insert the iframe where the script stands, replace the fallback link and fit its content", async () => {
    const page = await openHost(`<section id="spot">${scriptHtml()}</section>`);
    await page.waitFor(() => document.querySelector("#spot > iframe") !== null);
    expect(
      await page.evaluate(() => document.querySelectorAll("#spot > a[data-ecp-fallback]").length),
    ).toBe(0);
    expect(await page.attribute("#spot > iframe", "title")).toBe("Events: Community");
    expect(await page.attribute("#spot > iframe", "loading")).toBe("lazy");
    const frame = await widgetFrame(page);
    await page.waitFor(() => document.querySelector("iframe")?.height !== "600");
    const content = await contentHeight(frame);
    await expect
      .poll(async () => Number(await page.attribute("#spot > iframe", "height")))
      .toBe(content);
    expect(
      await page.evaluate(() =>
        Math.round(document.querySelector("#spot > iframe")?.getBoundingClientRect().height ?? 0),
      ),
    ).toBe(content);
    // No inner scrollbar: the document fits the frame.
    const fits = await frame.evaluate(
      () => document.documentElement.scrollHeight <= document.documentElement.clientHeight,
    );
    expect(fits).toBe(true);
    expect(page.problems).toEqual([]);
  });

  it("should keep two embeds on one page independent", async () => {
    const page = await openHost(
      `<div id="a">${scriptHtml('data-count="1"', community)}</div><div id="b">${scriptHtml('data-count="5" data-theme="dark"', culture)}</div>`,
    );
    await page.waitFor(() => document.querySelector("#b > iframe") !== null);
    const first = await widgetFrame(page, 0);
    const second = await widgetFrame(page, 1);
    expect(await eventTitles(first)).toEqual(["Night Walk Across the Clock Change"]);
    expect(await eventTitles(second)).toEqual(CULTURE_UPCOMING);
    expect(await second.attribute("#ecp", "class")).toContain("ecp--dark");
    expect(await first.attribute("#ecp", "class")).not.toContain("ecp--dark");
    await page.waitFor(() =>
      [...document.querySelectorAll("iframe")].every((f) => f.height !== "600"),
    );
    // The first is re-rendered from the events JSON (one event) and reports its height again.
    const contents = [await contentHeight(first), await contentHeight(second)];
    await expect
      .poll(() =>
        page.evaluate(() => [...document.querySelectorAll("iframe")].map((f) => Number(f.height))),
      )
      .toEqual(contents);
    const [a, b] = contents;
    expect(a).toBeLessThan(b ?? 0);
    expect(page.problems).toEqual([]);
  });

  it("should ignore resize messages that do not come from its own frame", async () => {
    const page = await openHost(
      `<div id="a">${scriptHtml("", community)}</div><div id="b">${scriptHtml("", culture)}</div><iframe id="other" title="Another frame" srcdoc="<p>other</p>"></iframe>`,
    );
    await page.waitFor(() =>
      [...document.querySelectorAll("#a > iframe, #b > iframe")].every(
        (f) => f.getAttribute("height") !== "600",
      ),
    );
    // Its height follows its own reports, which may still come as its content settles
    // (WebKit lays out a lazy frame late): a spoofed height, under 100, must never apply.
    const heightOfFirst = async () => Number(await page.attribute("#a > iframe", "height"));
    const id = new URL((await page.attribute("#a > iframe", "src")) ?? "").searchParams.get("id");
    expect(id).toMatch(/^ecp-/);
    // The host page records each spoof; listeners of one message run in the
    // same dispatch, so once it saw the message embed.js has handled it too.
    await page.evaluate(() => {
      const w = window as unknown as { seen: number[] };
      w.seen = [];
      window.addEventListener("message", (e) => {
        if (
          e.data?.type === "ecp:resize" &&
          typeof e.data.height === "number" &&
          e.data.height < 100
        ) {
          w.seen.push(e.data.height);
        }
      });
    });
    const spoof = { type: "ecp:resize", height: 0, id };
    const seen = (count: number) =>
      page.waitFor(
        (n: number) => (window as unknown as { seen: number[] }).seen.length === n,
        count,
      );
    // 1. The host page itself (wrong origin, wrong source).
    await page.evaluate((m) => window.postMessage({ ...m, height: 41 }, "*"), spoof);
    // 2. Another frame of the host origin.
    const other = await page.frame("#other");
    await other.evaluate((m) => window.parent.postMessage({ ...m, height: 42 }, "*"), spoof);
    // 3. The other widget: right origin, wrong source.
    const second = await widgetFrame(page, 1);
    await second.evaluate((m) => window.parent.postMessage({ ...m, height: 43 }, "*"), spoof);
    await seen(3);
    expect(await heightOfFirst()).toBeGreaterThanOrEqual(100);
    // 4. Its own frame with another frame's id is ignored too.
    const own = await widgetFrame(page, 0);
    await own.evaluate(() =>
      window.parent.postMessage({ type: "ecp:resize", height: 44, id: "ecp-other" }, "*"),
    );
    await seen(4);
    expect(await heightOfFirst()).toBeGreaterThanOrEqual(100);
    expect(page.problems).toEqual([]);
  });

  it("should apply count, category, theme, accent, compact and showTitle options", async () => {
    const page = await openHost(
      [
        iframeHtml("?count=2"),
        iframeHtml("?category=markets", community),
        iframeHtml("?theme=dark&accent=%23c2255c&compact=1&showTitle=false"),
        iframeHtml("?count=50"),
      ].join(""),
    );
    const two = await widgetFrame(page, 0);
    await two.waitFor(() => document.querySelectorAll(".ecp-event").length === 2);
    expect(await eventTitles(two)).toEqual(CULTURE_UPCOMING.slice(0, 2));

    const markets = await widgetFrame(page, 1);
    expect(await eventTitles(markets)).toEqual(["King's Day"]);

    const styled = await widgetFrame(page, 2);
    const look = await styled.evaluate(() => {
      const root = document.getElementById("ecp") as HTMLElement;
      const item = document.querySelector(".ecp-event") as HTMLElement;
      return {
        classes: [...root.classList],
        background: getComputedStyle(root).backgroundColor,
        accent: getComputedStyle(root).getPropertyValue("--ecp-accent").trim(),
        bar: getComputedStyle(item).borderLeftColor,
        headHidden: (document.querySelector(".ecp-head") as HTMLElement).hidden,
        whereShown: [...document.querySelectorAll(".ecp-where")].some(
          (p) => getComputedStyle(p).display !== "none",
        ),
      };
    });
    expect(look.classes).toEqual(expect.arrayContaining(["ecp--dark", "ecp--compact"]));
    expect(look.classes).not.toContain("ecp--light");
    expect(look.background).toBe("rgb(22, 25, 29)");
    expect(look.accent).toBe("#c2255c");
    expect(look.bar).toBe("rgb(194, 37, 92)");
    expect(look.headHidden).toBe(true);
    expect(look.whereShown).toBe(false);

    const all = await widgetFrame(page, 3);
    expect(await eventTitles(all)).toEqual(CULTURE_UPCOMING);
    expect(page.problems).toEqual([]);
  });

  it("should show only events with every word of q, combined with category, through both embed methods", async () => {
    const page = await openHost(
      [
        iframeHtml("?q=POETRY"),
        iframeHtml("?q=concert%20harbour"),
        iframeHtml("?category=markets&q=king", community),
        iframeHtml("?category=markets&q=walk", community),
        scriptHtml('data-q="lecture archives"', culture),
      ].join(""),
    );
    expect(await eventTitles(await widgetFrame(page, 0))).toEqual(["Poetry Night"]);
    expect(await eventTitles(await widgetFrame(page, 1))).toEqual(["Harbour Concert"]);
    expect(await eventTitles(await widgetFrame(page, 2))).toEqual(["King's Day"]);
    const none = await widgetFrame(page, 3);
    expect(await eventTitles(none)).toEqual([]);
    expect(await none.evaluate(() => document.querySelectorAll(".ecp-empty").length)).toBe(1);
    expect(await eventTitles(await widgetFrame(page, 4))).toEqual([
      "Online Lecture: City Archives",
    ]);
    expect(page.problems).toEqual([]);
  });

  it("should show a month grid as a table with headers and move to the next month", async () => {
    const page = await openHost(iframeHtml("?view=month", community));
    const frame = await widgetFrame(page);
    expect(await frame.text(".ecp-monthname")).toBe("March 2026");
    expect(
      await frame.evaluate(() => document.querySelectorAll(".ecp-grid thead th[scope=col]").length),
    ).toBe(7);
    expect(await frame.text(".ecp-grid caption")).toBe("March 2026");
    expect(await frame.text("td[aria-current=date] .ecp-daynum")).toBe("20");
    const dayLinks = () =>
      frame.evaluate(() =>
        [...document.querySelectorAll(".ecp-daylink")].map((a) => a.textContent),
      );
    expect(await dayLinks()).toEqual([
      "10:00 Winter Market (opens in a new tab)",
      "01:30 Night Walk Across the Clock Change (opens in a new tab)",
    ]);
    // The walk sits on Sunday 29 March, in the last column.
    const walkColumn = await frame.evaluate(
      () => document.querySelector(".ecp-daylink[href*=e-dst]")?.closest("td")?.cellIndex ?? null,
    );
    expect(walkColumn).toBe(6);
    await frame.click("button[aria-label='Next month']");
    await frame.waitFor(
      () => document.querySelector(".ecp-monthname")?.textContent === "April 2026",
    );
    expect(await dayLinks()).toEqual(["King's Day (opens in a new tab)"]);
    // The grid ends where the data ends.
    expect(await frame.attribute("button[aria-label='Next month']", "aria-disabled")).toBe("true");
    expect(page.problems).toEqual([]);
  });

  it("should start the month view's weeks on the language's first day: Saturday in Arabic, Sunday in Japanese", async () => {
    // Sunday 29 March (the night walk) stands in the second column of a Saturday week, the first of a Sunday one.
    for (const [lang, column] of [
      ["ar", 1],
      ["ja", 0],
      ["de", 6],
    ] as const) {
      const page = await openHost(iframeHtml(`?view=month&lang=${lang}`, community));
      const frame = await widgetFrame(page);
      const walkColumn = await frame.evaluate(
        () => document.querySelector(".ecp-daylink[href*=e-dst]")?.closest("td")?.cellIndex ?? null,
      );
      expect(walkColumn, lang).toBe(column);
      // The first day of March 2026 was a Sunday: after it, the rest of its first week.
      const firstRow = await frame.evaluate(() =>
        [...document.querySelectorAll(".ecp-grid tbody tr:first-child td")].map((td) =>
          td.classList.contains("ecp-pad"),
        ),
      );
      expect(firstRow.indexOf(false), lang).toBe(column);
      expect(page.problems).toEqual([]);
    }
  });

  it("should switch labels and dates to Dutch with lang=nl", async () => {
    const page = await openHost(iframeHtml("?lang=nl"));
    const frame = await widgetFrame(page);
    await frame.waitFor(() => document.documentElement.lang === "nl-NL");
    expect(await frame.text(".ecp-foot a")).toBe("Alle activiteiten (opent in een nieuw tabblad)");
    expect(await frame.text(".ecp-badge--cancelled")).toBe("Geannuleerd");
    expect(await frame.text(".ecp-event:nth-child(2) time")).toBe("za 4 apr, 20:00");
    expect(await frame.text("#ecp-upcoming")).toBe("Komende activiteiten");
    expect(page.problems).toEqual([]);
  });

  it("should show times in the viewer's zone with tz=local and in the event's zone by default", async () => {
    const tokyo = { timezoneId: "Asia/Tokyo" };
    const local = await openHost(iframeHtml("?tz=local"), tokyo);
    const frame = await widgetFrame(local);
    await frame.waitFor(() => document.querySelector(".ecp-note") !== null);
    const concert = (
      await frame.evaluate(() =>
        [...document.querySelectorAll(".ecp-event:nth-child(2) time")].map((t) => t.textContent),
      )
    ).map(weekdayAsBuilt);
    expect(concert).toEqual(["Sun 5 Apr, 03:00", "05:00"]);
    expect(await frame.text(".ecp-note")).toBe("Times are shown in your time zone.");
    // The all-day weekend stays on its own dates everywhere.
    expect(weekdayAsBuilt(await frame.text(".ecp-event:nth-child(5) .ecp-when"))).toBe(
      "Fri 15 May – Sun 17 May",
    );

    const own = await openHost(iframeHtml("?tz=event"), tokyo);
    const ownFrame = await widgetFrame(own);
    expect(await ownFrame.text(".ecp-event:nth-child(2) time")).toBe("Sat 4 Apr, 20:00");
    expect(await ownFrame.evaluate(() => document.querySelectorAll(".ecp-local").length)).toBe(0);
    expect([...local.problems, ...own.problems]).toEqual([]);
  });

  it("should add the visitor's own time by default, only where their clock reads it differently", async () => {
    const tokyo = await openHost(iframeHtml(), { timezoneId: "Asia/Tokyo" });
    const frame = await widgetFrame(tokyo);
    // The build-time list stays in the event's zone, with Tokyo's time below it.
    expect(await frame.text(".ecp-event:nth-child(2) time")).toBe("Sat 4 Apr, 20:00");
    expect(await frame.text(".ecp-event:nth-child(2) .ecp-when")).toBe(
      "Sat 4 Apr, 20:00 – 22:00 in Amsterdam",
    );
    await frame.waitFor(
      () => document.querySelector(".ecp-event:nth-child(2) .ecp-local") !== null,
    );
    expect(weekdayAsBuilt(await frame.text(".ecp-event:nth-child(2) .ecp-local"))).toBe(
      "Sun 5 Apr, 03:00 – 05:00 your time (Tokyo)",
    );
    // The all-day weekend keeps its dates, with nothing added.
    expect(await frame.text(".ecp-event:nth-child(5) .ecp-local")).toBeNull();
    // Re-rendered from the events JSON (another language), the same.
    const dutch = await openHost(iframeHtml("?lang=nl"), { timezoneId: "Asia/Tokyo" });
    const dutchFrame = await widgetFrame(dutch);
    await dutchFrame.waitFor(() => document.documentElement.lang === "nl-NL");
    expect(weekdayAsBuilt(await dutchFrame.text(".ecp-event:nth-child(2) .ecp-local"))).toBe(
      "zo 5 apr, 03:00 – 05:00 jouw tijd (Tokyo)",
    );

    for (const zone of ["Europe/Amsterdam", "Europe/Berlin"]) {
      const home = await openHost(iframeHtml(), { timezoneId: zone });
      const homeFrame = await widgetFrame(home);
      // Amsterdam's events get nothing; one elsewhere (the online lecture) still does.
      const added = await homeFrame.evaluate(() =>
        [...document.querySelectorAll(".ecp-when[data-zone]")].map((when) => [
          when.getAttribute("data-zone"),
          when.nextElementSibling?.classList.contains("ecp-local") ?? false,
        ]),
      );
      expect(added.length, zone).toBeGreaterThan(2);
      for (const [eventZone, local] of added)
        expect(local, `${zone}: ${eventZone}`).toBe(eventZone !== "Europe/Amsterdam");
      expect(await homeFrame.text(".ecp-event:nth-child(2) .ecp-when"), zone).toBe(
        "Sat 4 Apr, 20:00 – 22:00",
      );
      expect(home.problems, zone).toEqual([]);
    }
    expect([...tokyo.problems, ...dutch.problems]).toEqual([]);
  });

  it("should ignore invalid and hostile option values and fall back to the defaults", async () => {
    const hostile = new URLSearchParams({
      accent: "red;}</style><script>alert(1)</script>",
      count: "-5",
      view: "<img src=x onerror=alert(2)>",
      theme: "<b>dark</b>",
      lang: "xx",
      tz: "mars",
      compact: "<i>",
      showTitle: "maybe",
      category: "<img src=x onerror=alert(3)>",
      id: '"><script>alert(4)</script>',
    });
    const page = await openHost(
      `${iframeHtml(`?${hostile}`)}${scriptHtml('data-calendar-x="1" data-view="&lt;svg onload=alert(5)&gt;" data-accent="url(javascript:alert(6))"', culture)}`,
    );
    for (const index of [0, 1]) {
      const frame = await widgetFrame(page, index);
      expect(await eventTitles(frame)).toEqual(CULTURE_UPCOMING);
      const state = await frame.evaluate(() => {
        const root = document.getElementById("ecp") as HTMLElement;
        return {
          classes: [...root.classList].sort(),
          accent: root.style.getPropertyValue("--ecp-accent"),
          lang: document.documentElement.lang,
          scripts: document.scripts.length,
          images: document.images.length,
          table: document.querySelectorAll("table").length,
          headHidden: (document.querySelector(".ecp-head") as HTMLElement).hidden,
        };
      });
      expect(state).toEqual({
        classes: ["ecp", "ecp--light"],
        accent: "#862e9c",
        lang: "en-GB",
        // frame.js and widget.js: nothing from the options became a script.
        scripts: 2,
        images: 0,
        table: 0,
        headHidden: false,
      });
    }
    expect(page.problems).toEqual([]);
  });

  it("should not insert an iframe for a calendar value that is not a path segment", async () => {
    const page = await openHost(
      `<a href="https://example.org/" data-ecp-fallback>Events</a><script src="${widget.origin}/embed.js" data-calendar="../api" async></script><span id="done"></span>`,
    );
    await page.waitFor(() => document.querySelector("script[data-ecp-mounted]") !== null);
    expect(await page.evaluate(() => document.querySelectorAll("iframe").length)).toBe(0);
    expect(
      await page.evaluate(() => document.querySelectorAll("a[data-ecp-fallback]").length),
    ).toBe(1);
    expect(page.problems).toEqual([]);
  });

  it("should render a hostile event title as text, both from the build and from the JSON", async () => {
    const page = await openHost(`${iframeHtml()}${iframeHtml("?count=10")}`);
    for (const index of [0, 1]) {
      const frame = await widgetFrame(page, index);
      expect(await frame.text(".ecp-link[href*=_57656972642f49443f3c783e] .ecp-name")).toBe(
        '<script>alert("x")</script> & "Quotes" \u2028',
      );
      // frame.js and widget.js only.
      expect(await frame.evaluate(() => document.scripts.length)).toBe(2);
    }
    expect(page.problems).toEqual([]);
  });
});

describe.skipIf(!hasChromium())("widget in Chromium: keyboard, accessibility, requests", () => {
  const chromium = useBrowser();

  async function openHost(body: string) {
    return chromium.open(host.add(hostPage(body)), {
      timezoneId: "Europe/Amsterdam",
      viewport: { width: 800, height: 900 },
    });
  }

  async function widgetFrame(page: Page, index = 0): Promise<Frame> {
    const handle = await page.locator("iframe").nth(index).elementHandle();
    const frame = await handle?.contentFrame();
    if (!frame) throw new Error("iframe has no frame");
    await frame.waitForSelector("#ecp[data-state=ready]");
    return frame;
  }

  it("should keep today, status badges and the month's buttons visible in forced colours", async () => {
    const { page, problems } = await openHost(iframeHtml("?view=month", community) + iframeHtml());
    await page.emulateMedia({ forcedColors: "active" });
    const month = await widgetFrame(page, 0);
    expect(await month.evaluate(() => matchMedia("(forced-colors: active)").matches)).toBe(true);
    expect(await visibleEdges(month, "td[aria-current=date]")).toMatchObject({ outline: true });
    expect(await visibleEdges(month, ".ecp-navbutton")).toMatchObject({ border: true, text: true });
    const list = await widgetFrame(page, 1);
    expect(await visibleEdges(list, ".ecp-badge--cancelled")).toMatchObject({
      border: true,
      text: true,
    });
    expect(problems).toEqual([]);
  });

  it("should move the month grid by keyboard, focus staying on its button", async () => {
    const { page, problems } = await openHost(iframeHtml("?view=month", community));
    const frame = await widgetFrame(page);
    await frame.focus("button[aria-label='Next month']");
    await page.keyboard.press("Enter");
    await frame.waitForFunction(
      () => document.querySelector(".ecp-monthname")?.textContent === "April 2026",
    );
    expect(await frame.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe(
      "Next month",
    );
    expect(problems).toEqual([]);
  });

  it("should let the keyboard reach every event link, with a visible focus ring", async () => {
    const { page, problems } = await openHost(iframeHtml());
    const frame = await widgetFrame(page);
    const expected = await frame.$$eval(".ecp-link", (as) => as.map((a) => a.getAttribute("href")));
    const reached = new Set<string>();
    let outlined = 0;
    // Bounded: the page has the host heading, the widget's title, 5 events and a footer link.
    for (let i = 0; i < 20 && reached.size < expected.length; i++) {
      await page.keyboard.press("Tab");
      const focused = await frame.evaluate(() => {
        const a = document.activeElement;
        if (!(a instanceof HTMLAnchorElement) || !a.classList.contains("ecp-link")) return null;
        return { href: a.getAttribute("href"), outline: getComputedStyle(a).outlineStyle };
      });
      if (focused?.href) {
        reached.add(focused.href);
        if (focused.outline !== "none") outlined++;
      }
    }
    expect([...reached]).toEqual(expected);
    expect(outlined).toBe(expected.length);
    expect(problems).toEqual([]);
  });

  it("should have no serious or critical axe-core violations in list, month and dark views and the guide", async () => {
    const { page, problems } = await openHost(
      [
        iframeHtml(),
        iframeHtml("?view=month", community),
        iframeHtml("?theme=dark&lang=nl&compact=1"),
      ].join(""),
    );
    const targets: Frame[] = [];
    for (const index of [0, 1, 2]) targets.push(await widgetFrame(page, index));
    const guide = await page.context().newPage();
    await guide.goto(`${widget.origin}/embed/`);
    targets.push(guide.mainFrame());
    for (const frame of targets) {
      const violations = await axeCheck(frame);
      expect(violations.passes).toBeGreaterThan(10);
      expect({ url: frame.url(), serious: violations.serious }).toEqual({
        url: frame.url(),
        serious: [],
      });
    }
    expect(problems).toEqual([]);
  });

  it("should load only its own files from its own origin, set no cookies and use no storage", async () => {
    const { page, context, requests, problems } = await openHost(
      `${iframeHtml()}${scriptHtml('data-view="month"', community)}`,
    );
    await widgetFrame(page, 0);
    const month = await widgetFrame(page, 1);
    await month.waitForSelector(".ecp-grid");
    const widgetRequests = requests.filter((url) => !url.startsWith(host.origin));
    expect(widgetRequests.length).toBeGreaterThan(0);
    for (const url of widgetRequests) expect(new URL(url).origin).toBe(widget.origin);
    // The default list needs no data request: page, stylesheet, scripts.
    const paths = [...new Set(widgetRequests.map((url) => new URL(url).pathname))].sort();
    expect(paths).toEqual([
      "/api/calendars/community/events.json",
      "/embed.js",
      "/embed/community/",
      "/embed/culture/",
      "/embed/frame.js",
      "/embed/widget.css",
      "/embed/widget.js",
    ]);
    expect(await context.cookies()).toEqual([]);
    expect(await month.evaluate(() => localStorage.length + sessionStorage.length)).toBe(0);
    expect(problems).toEqual([]);
  });

  it("should keep an embed page with its stylesheet and scripts under 30 KB gzip", () => {
    const files = [
      "embed/culture/index.html",
      "embed/widget.css",
      "embed/frame.js",
      "embed/widget.js",
    ];
    const sizes = files.map((f) => gzipSync(readFileSync(join(widget.outputDir, f))).length);
    const total = sizes.reduce((a, b) => a + b, 0);
    expect(total).toBeLessThan(30 * 1024);
    const loader = gzipSync(readFileSync(join(widget.outputDir, "embed.js"))).length;
    expect(total + loader).toBeLessThan(30 * 1024);
  });
});
