import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import type { BrowserContext, Frame, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import type { CalendarEvent, PortalSnapshot } from "../../src/model/types.ts";
import { cardHeight, eventEmbedSnippets } from "../../src/widget/event-card/event-card-snippets.ts";
import { fixtureSnapshot } from "../fixtures/snapshot.ts";
import { axeCheck, useBrowser, watchPage } from "../helpers/browser.ts";
import { withNewDate } from "../helpers/events.ts";
import { useServedWidgetSite } from "../helpers/served-widget-site.ts";
import { hostPage, useHostServer } from "../helpers/static-server.ts";
import { hasChromium } from "../helpers/system-packages.ts";

/*
 * The event card, the widget of several calendars and <event-calendar> as
 * another site uses them: the built output served from one loopback origin
 * with the deploy headers, host pages from another, in Debian's Chromium
 * with its clock at the fixture's "now".
 */

const HOSTILE_TITLE = '<script>alert("x")</script> & "Quotes" \u2028';
const HOSTILE_SEGMENT = "_57656972642f49443f3c783e";

/**
 * The fixture, with: the walk's image on the widget's own origin (as the
 * build copies images into the site), the online lecture moved to a new
 * date, and the studios weekend in the community's "markets" category too,
 * so a category spans both calendars.
 */
function snapshotAt(origin: string): PortalSnapshot {
  const events = fixtureSnapshot.events.map((event): CalendarEvent => {
    if (event.id === "e-dst" && event.image) {
      return { ...event, image: { ...event.image, url: `${origin}/media/walk.svg` } };
    }
    if (event.id === "e-online") return withNewDate(event, "2026-04-01T12:00:00-04:00");
    if (event.id === "e-multiday") {
      return { ...event, categories: [{ id: "markets", name: "Markets" }] };
    }
    return event;
  });
  return { ...fixtureSnapshot, events };
}

const WALK_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="630" viewBox="0 0 1200 630"><rect width="1200" height="630" fill="#234"/></svg>\n`;

interface Opened {
  readonly page: Page;
  readonly context: BrowserContext;
  readonly problems: string[];
  readonly requests: string[];
}

describe.skipIf(!hasChromium())(
  "event card, several calendars and <event-calendar> in a browser",
  () => {
    const chromium = useBrowser();
    const server = useServedWidgetSite((origin) => ({
      snapshot: snapshotAt(origin),
      files: { "media/walk.svg": WALK_SVG },
    }));
    const host = useHostServer();

    /** A visitor's context, in `timezoneId` (Amsterdam by default). */
    const newContext = (
      options: { timezoneId?: string; javaScriptEnabled?: boolean; width?: number } = {},
    ): Promise<BrowserContext> =>
      chromium.visitor({
        timezoneId: options.timezoneId ?? "Europe/Amsterdam",
        viewport: { width: options.width ?? 800, height: 900 },
        javaScriptEnabled: options.javaScriptEnabled ?? true,
      });

    /** A page of another site with `body`, as such a visitor sees it. */
    async function openHost(
      body: string,
      options: { timezoneId?: string; javaScriptEnabled?: boolean } = {},
    ): Promise<Opened> {
      const context = await newContext(options);
      const page = await context.newPage();
      const { problems, requests } = watchPage(page);
      await page.goto(host.add(hostPage(body)));
      return { page, context, problems, requests };
    }

    /** A widget page opened on its own (not framed), once its script is done. */
    async function openWidget(path: string): Promise<Opened & { frame: Frame }> {
      const context = await newContext();
      const page = await context.newPage();
      const { problems, requests } = watchPage(page);
      await page.goto(server.origin + path);
      await page.waitForSelector("#ecp[data-state=ready]");
      return { page, context, problems, requests, frame: page.mainFrame() };
    }

    async function frameOf(page: Page, selector: string): Promise<Frame> {
      const handle = await page.locator(selector).elementHandle();
      const frame = await handle?.contentFrame();
      if (!frame) throw new Error(`${selector} has no frame`);
      await frame.waitForSelector("#ecp[data-state=ready]");
      return frame;
    }

    /** Waits until embed.js sized the iframe, and gives its height and its content's. */
    async function sized(page: Page, selector: string): Promise<[number, number]> {
      const frame = await frameOf(page, selector);
      await page.waitForFunction((s) => {
        const iframe = document.querySelector(s);
        return iframe instanceof HTMLIFrameElement && iframe.style.height !== "";
      }, selector);
      const content = await frame.evaluate(() =>
        Math.ceil(document.getElementById("ecp")?.getBoundingClientRect().height ?? 0),
      );
      const box = await page.locator(selector).boundingBox();
      return [Math.round(box?.height ?? 0), content];
    }

    const titles = (frame: Frame) =>
      frame.$$eval(".ecp-name", (nodes) => nodes.map((n) => n.textContent));
    const markers = (frame: Frame) =>
      frame.$$eval(".ecp-list > .ecp-event", (items) =>
        items.map((li) => [
          li.querySelector(".ecp-name")?.textContent,
          li.querySelector(".ecp-cal")?.textContent,
          getComputedStyle(li).borderLeftColor,
        ]),
      );
    const loopbackOnly = (requests: readonly string[]) =>
      requests.filter((url) => !/^https?:\/\/(127\.\d+\.\d+\.\d+|\[::1\])(:\d+)?\//.test(url));

    const site = () => server.site;
    const event = (id: string) => {
      const found = snapshotAt(server.origin).events.find((e) => e.id === id);
      if (!found) throw new Error(id);
      return found;
    };
    const calendar = (id: string) => {
      const found = fixtureSnapshot.calendars.find((c) => c.id === id);
      if (!found) throw new Error(id);
      return found;
    };
    const cardSnippets = (eventId: string, calendarId: string) =>
      eventEmbedSnippets(event(eventId), calendar(calendarId), site());

    describe("an event card", () => {
      it("should show title, time in the event's zone, place, badges and Add to calendar, through the iframe snippet", async () => {
        // The viewer is in Tokyo: the lecture stays at noon in New York.
        const { page, problems, requests } = await openHost(
          cardSnippets("e-online", "culture").iframe,
          { timezoneId: "Asia/Tokyo" },
        );
        const frame = await frameOf(page, "iframe");
        const card = await frame.evaluate(() => ({
          title: document.querySelector(".ecp-card-title .ecp-name")?.textContent,
          link: document.querySelector<HTMLAnchorElement>(".ecp-card-title a")?.href,
          target: document.querySelector(".ecp-card-title a")?.getAttribute("target"),
          badges: [...document.querySelectorAll(".ecp-badge")].map((b) => b.textContent),
          calendar: document.querySelector(".ecp-cal")?.textContent,
          when: document.querySelector(".ecp-when time")?.textContent,
          datetime: document.querySelector(".ecp-when time")?.getAttribute("datetime"),
          where: document.querySelector(".ecp-where")?.textContent,
          ics: document.querySelector<HTMLAnchorElement>(".ecp-button")?.href,
          download: document.querySelector(".ecp-button")?.hasAttribute("download"),
          button: document.querySelector(".ecp-button")?.textContent,
        }));
        expect(card).toEqual({
          title: "Online Lecture: City Archives",
          link: `${server.origin}/calendars/culture/events/e-online/`,
          target: "_blank",
          badges: ["New date"],
          calendar: "Culture",
          when: "Thursday, 2 April 2026, 12:00–13:00 GMT-4",
          datetime: "2026-04-02T12:00:00-04:00",
          where: "Online",
          ics: `${server.origin}/calendars/culture/events/e-online/event.ics`,
          download: true,
          button: "Add to calendar",
        });
        // The link gives the event's own calendar file, served as a download.
        const ics = await fetch(card.ics ?? "");
        expect(ics.headers.get("content-type")).toBe("text/calendar; charset=utf-8");
        expect(ics.headers.get("content-disposition")).toContain("attachment");
        const text = await ics.text();
        expect(text).toContain("SUMMARY:Online Lecture: City Archives");
        expect(text).toContain("DTSTART;TZID=America/New_York:20260402T120000");
        expect(problems).toEqual([]);
        expect(loopbackOnly(requests)).toEqual([]);
      });

      it("should name both zones of a night across the clock change, and show its image from its own origin", async () => {
        const { page, frame, problems, requests } = await openWidget(
          "/embed/community/events/e-dst/",
        );
        await page.waitForLoadState("load");
        expect(await frame.textContent(".ecp-when")).toBe(
          "Sunday, 29 March 2026 at 01:30 CET – Sunday, 29 March 2026 at 04:00 CEST",
        );
        expect(await frame.textContent(".ecp-where")).toBe("Vondelpark fountain, Amsterdam");
        const image = await frame.$eval(".ecp-card-image", (img) => ({
          src: (img as HTMLImageElement).currentSrc,
          alt: img.getAttribute("alt"),
          loaded: (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0,
        }));
        expect(image).toEqual({
          src: `${server.origin}/media/walk.svg`,
          alt: "Lanterns in the park",
          loaded: true,
        });
        expect(problems).toEqual([]);
        expect(loopbackOnly(requests)).toEqual([]);
      });

      it("should mark a cancelled event and offer no Add to calendar for it, and a postponed one", async () => {
        const cancelled = await openWidget("/embed/culture/events/e-cancelled/");
        expect(
          await cancelled.frame.$$eval(".ecp-badge", (b) => b.map((x) => x.textContent)),
        ).toEqual(["Cancelled"]);
        expect(await cancelled.frame.locator(".ecp-button").count()).toBe(0);
        const style = await cancelled.frame.$eval(
          ".ecp-name",
          (n) => getComputedStyle(n).textDecorationLine,
        );
        expect(style).toContain("line-through");
        const postponed = await openWidget("/embed/culture/events/e-postponed/");
        expect(
          await postponed.frame.$$eval(".ecp-badge", (b) => b.map((x) => x.textContent)),
        ).toEqual(["Postponed"]);
        expect(await postponed.frame.locator(".ecp-button").count()).toBe(1);
        expect([...cancelled.problems, ...postponed.problems]).toEqual([]);
      });

      it("should render a hostile title as text", async () => {
        const { frame, problems } = await openWidget(`/embed/culture/events/${HOSTILE_SEGMENT}/`);
        expect(await frame.textContent(".ecp-name")).toBe(HOSTILE_TITLE);
        expect(await frame.evaluate(() => document.title)).toBe(`${HOSTILE_TITLE} · Events`);
        // Only the page's own two (frame.js, widget.js): the title added none.
        expect(await frame.evaluate(() => document.scripts.length)).toBe(2);
        expect(problems).toEqual([]);
      });

      it("should be complete without JavaScript inside the iframe", async () => {
        const { page, problems } = await openHost(cardSnippets("e-dst", "community").iframe, {
          javaScriptEnabled: false,
        });
        const handle = await page.locator("iframe").elementHandle();
        const frame = await handle?.contentFrame();
        if (!frame) throw new Error("no frame");
        await frame.waitForSelector(".ecp-card");
        expect(await frame.textContent(".ecp-name")).toBe("Night Walk Across the Clock Change");
        expect(await frame.textContent(".ecp-button")).toBe("Add to calendar");
        expect(await frame.getAttribute("#ecp", "data-state")).toBeNull();
        expect(problems).toEqual([]);
      });

      it("should size its iframe to the card through the one-line script, with theme and accent", async () => {
        const snippet = cardSnippets("e-dst", "community").script.replace(
          " async>",
          ' data-theme="dark" data-accent="#c2255c" async>',
        );
        const { page, problems, requests } = await openHost(`<div id="card">${snippet}</div>`);
        await page.waitForSelector("#card > iframe");
        const [height, content] = await sized(page, "#card > iframe");
        expect(height).toBe(content);
        expect(content).toBeGreaterThan(300);
        const frame = await frameOf(page, "#card > iframe");
        const look = await frame.$eval("#ecp", (root) => ({
          classes: [...root.classList],
          rule: getComputedStyle(root).borderTopColor,
        }));
        expect(look.classes).toContain("ecp--dark");
        expect(look.rule).toBe("rgb(194, 37, 92)");
        expect(await page.getAttribute("#card > iframe", "title")).toBe(
          "Night Walk Across the Clock Change",
        );
        expect(problems).toEqual([]);
        expect(loopbackOnly(requests)).toEqual([]);
      });

      it("should fit every card in the height its iframe snippet reserves, from 320 to 800 px wide", async () => {
        const cards = snapshotAt(server.origin).events.map((e) => ({
          event: e,
          path: new URL(
            eventEmbedSnippets(e, calendar(e.calendarId), site()).previewUrl,
            server.origin,
          ).pathname,
        }));
        expect(cards.length).toBe(8);
        for (const width of [320, 480, 800]) {
          const context = await newContext({ width });
          const page = await context.newPage();
          for (const card of cards) {
            await page.goto(server.origin + card.path);
            await page.waitForSelector("#ecp[data-state=ready]");
            const height = await page.evaluate(() =>
              Math.ceil(document.getElementById("ecp")?.getBoundingClientRect().height ?? 0),
            );
            expect(height, `${card.event.id} at ${width} px`).toBeLessThanOrEqual(
              cardHeight(card.event),
            );
          }
        }
      });
    });

    describe("a widget of several calendars", () => {
      const COMMUNITY = "rgb(11, 114, 133)"; // #0b7285
      const CULTURE = "rgb(134, 46, 156)"; // #862e9c

      it("should merge the calendars' next events in start order, each marked with its calendar, as built and from the JSON", async () => {
        const built = await openWidget("/embed/_all/");
        const expectedFive = [
          ["Night Walk Across the Clock Change", "Community", COMMUNITY],
          ["Online Lecture: City Archives", "Culture", CULTURE],
          ["Harbour Concert", "Culture", CULTURE],
          ["Poetry Night", "Culture", CULTURE],
          [HOSTILE_TITLE, "Culture", CULTURE],
        ];
        expect(await markers(built.frame)).toEqual(expectedFive);
        // The default list is the build's: no events file is read.
        expect(built.requests.filter((url) => url.includes("/api/"))).toEqual([]);

        const all = await openWidget("/embed/_all/?count=10");
        expect(await markers(all.frame)).toEqual([
          ...expectedFive,
          ["King's Day", "Community", COMMUNITY],
          ["Open Studios Weekend", "Culture", CULTURE],
        ]);
        expect(
          all.requests.filter((url) => url.includes("/api/")).map((url) => new URL(url).pathname),
        ).toEqual(["/api/calendars/community/events.json", "/api/calendars/culture/events.json"]);
        expect(
          await all.frame.$$eval(".ecp-legend li", (l) => l.map((x) => x.textContent)),
        ).toEqual(["Community", "Culture"]);
        // The calendars' heading survives the re-render, in the widget's language.
        expect(await all.frame.textContent("#ecp-calendars")).toBe("Calendars");
        const dutch = await openWidget("/embed/_all/?lang=nl");
        expect(await dutch.frame.textContent("#ecp-calendars")).toBe("Agenda's");
        expect(await dutch.frame.textContent(".ecp-title .ecp-sr")).toBe(
          " (opent in een nieuw tabblad)",
        );
        expect([...built.problems, ...all.problems, ...dutch.problems]).toEqual([]);
      });

      it("should show only the chosen calendars, reading only their events", async () => {
        const { frame, problems, requests } = await openWidget("/embed/_all/?calendars=community");
        expect(await titles(frame)).toEqual(["Night Walk Across the Clock Change", "King's Day"]);
        const legend = await frame.$$eval(".ecp-legend li", (items) =>
          items.map((li) => [li.textContent, (li as HTMLElement).hidden]),
        );
        expect(legend).toEqual([
          ["Community", false],
          ["Culture", true],
        ]);
        expect(
          requests.filter((url) => url.includes("/api/")).map((u) => new URL(u).pathname),
        ).toEqual(["/api/calendars/community/events.json"]);
        expect(problems).toEqual([]);
      });

      it("should keep the build's list, without the calendars left out, when an events file cannot be read", async () => {
        const context = await newContext();
        // Bounded: one route, answered at once.
        await context.route("**/api/calendars/culture/events.json", (route) => route.abort());
        const page = await context.newPage();
        const { problems } = watchPage(page);
        await page.goto(`${server.origin}/embed/_all/?calendars=culture`);
        await page.waitForSelector("#ecp[data-state=ready]");
        expect(await markers(page.mainFrame())).toEqual([
          ["Online Lecture: City Archives", "Culture", CULTURE],
          ["Harbour Concert", "Culture", CULTURE],
          ["Poetry Night", "Culture", CULTURE],
          [HOSTILE_TITLE, "Culture", CULTURE],
        ]);
        // The aborted request is the only error the page reports.
        expect(problems.filter((p) => !p.includes("ERR_FAILED"))).toEqual([]);
      });

      it("should filter a category across calendars, alone and with words", async () => {
        const markets = await openWidget("/embed/_all/?category=markets");
        expect(await markers(markets.frame)).toEqual([
          ["King's Day", "Community", COMMUNITY],
          ["Open Studios Weekend", "Culture", CULTURE],
        ]);
        const words = await openWidget("/embed/_all/?category=markets&q=studios");
        expect(await titles(words.frame)).toEqual(["Open Studios Weekend"]);
        expect([...markets.problems, ...words.problems]).toEqual([]);
      });

      it("should ignore unknown calendars, unknown categories and hostile values", async () => {
        const cases = [
          "?calendars=nope,..%2Fapi,%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E",
          "?calendars=community,nope&category=nope",
          "?calendars=&count=-1&view=%3Cb%3E&theme=x&lang=xx",
        ];
        const expected = [
          // Nothing known: every calendar, the default list.
          await titles((await openWidget("/embed/_all/")).frame),
          ["Night Walk Across the Clock Change", "King's Day"],
          await titles((await openWidget("/embed/_all/")).frame),
        ];
        for (const [index, query] of cases.entries()) {
          const { frame, problems } = await openWidget(`/embed/_all/${query}`);
          expect(await titles(frame), query).toEqual(expected[index]);
          expect(await frame.evaluate(() => document.scripts.length), query).toBe(2);
          expect(await frame.evaluate(() => document.images.length), query).toBe(0);
          expect(problems, query).toEqual([]);
        }
      });

      it("should show the month view with each event's calendar colour and name", async () => {
        const { frame, problems } = await openWidget("/embed/_all/?view=month");
        expect(await frame.textContent(".ecp-monthname")).toBe("March 2026");
        const walk = await frame.$eval(".ecp-daylink[href*=e-dst]", (a) => ({
          text: a.textContent,
          bar: getComputedStyle(a).borderLeftColor,
        }));
        expect(walk).toEqual({
          text: "01:30 Night Walk Across the Clock Change (Community) (opens in a new tab)",
          bar: COMMUNITY,
        });
        await frame.click('.ecp-navbutton[aria-label="Next month"]');
        await frame.waitForFunction(
          () => document.querySelector(".ecp-monthname")?.textContent === "April 2026",
        );
        const april = await frame.$$eval(".ecp-dayevents > li", (items) =>
          items.map((li) => (li as HTMLElement).dataset.calendar),
        );
        expect(april).toEqual(["culture", "culture", "culture", "culture", "community"]);
        expect(problems).toEqual([]);
      });

      it("should be embedded by data-calendars and by data-category on the script, and size to its content", async () => {
        const script = `<script src="${server.origin}/embed.js"`;
        const { page, problems, requests } = await openHost(
          `<div id="a"><a href="${server.origin}/events/" data-ecp-fallback>Events</a>${script} data-calendars="culture,community" data-count="3" async></script></div>` +
            `<div id="b">${script} data-category="markets" async></script></div>`,
        );
        await page.waitForSelector("#b > iframe");
        const first = await frameOf(page, "#a > iframe");
        expect(await titles(first)).toEqual([
          "Night Walk Across the Clock Change",
          "Online Lecture: City Archives",
          "Harbour Concert",
        ]);
        expect(new URL(first.url()).pathname).toBe("/embed/_all/");
        const second = await frameOf(page, "#b > iframe");
        expect(await titles(second)).toEqual(["King's Day", "Open Studios Weekend"]);
        for (const selector of ["#a > iframe", "#b > iframe"]) {
          const [height, content] = await sized(page, selector);
          expect(height, selector).toBe(content);
        }
        expect(problems).toEqual([]);
        expect(loopbackOnly(requests)).toEqual([]);
      });
    });

    describe("<event-calendar>", () => {
      it("should render two elements on one page, by src and by attributes, each sized to its content", async () => {
        const { page, problems, requests } = await openHost(
          `<event-calendar id="one" src="${server.origin}/embed/culture/?count=3"><a href="${server.origin}/calendars/culture/">Events: Culture</a></event-calendar>` +
            `<event-calendar id="two" calendar="community" show-title="false" theme="dark"><a href="${server.origin}/calendars/community/">Events: Community</a></event-calendar>` +
            `<script src="${server.origin}/embed.js" async></script>`,
        );
        await page.waitForSelector("#two > iframe");
        const one = await frameOf(page, "#one > iframe");
        const two = await frameOf(page, "#two > iframe");
        await one.waitForFunction(() => document.querySelectorAll(".ecp-event").length === 3);
        expect(await titles(one)).toEqual([
          "Online Lecture: City Archives",
          "Harbour Concert",
          "Poetry Night",
        ]);
        expect(await titles(two)).toEqual(["Night Walk Across the Clock Change", "King's Day"]);
        expect(
          await two.evaluate(() => document.querySelector<HTMLElement>(".ecp-head")?.hidden),
        ).toBe(true);
        expect(await two.getAttribute("#ecp", "class")).toContain("ecp--dark");
        const sizes = [await sized(page, "#one > iframe"), await sized(page, "#two > iframe")];
        for (const [height, content] of sizes) expect(height).toBe(content);
        expect(sizes[0]?.[0]).not.toBe(sizes[1]?.[0]);
        // The fallback links made way for the iframes; the titles come from them.
        expect(await page.locator("event-calendar > a").count()).toBe(0);
        expect(await page.getAttribute("#one > iframe", "title")).toBe("Events: Culture");
        expect(problems).toEqual([]);
        expect(loopbackOnly(requests)).toEqual([]);
      });

      it("should embed an event's card and several calendars by attributes", async () => {
        const { page, problems } = await openHost(
          `<script src="${server.origin}/embed.js"></script>` +
            `<event-calendar id="card" calendar="community" event="e-dst"><a href="${server.origin}/calendars/community/events/e-dst/">Night walk</a></event-calendar>` +
            `<event-calendar id="several" calendars="community" category="markets"><a href="${server.origin}/events/">Markets</a></event-calendar>`,
        );
        const card = await frameOf(page, "#card > iframe");
        expect(await card.textContent(".ecp-card-title .ecp-name")).toBe(
          "Night Walk Across the Clock Change",
        );
        const [height, content] = await sized(page, "#card > iframe");
        expect(height).toBe(content);
        const several = await frameOf(page, "#several > iframe");
        expect(await titles(several)).toEqual(["King's Day"]);
        expect(problems).toEqual([]);
      });

      it("should keep its fallback link without JavaScript, and for a src that is not this site's embed page", async () => {
        const body =
          `<event-calendar id="off" src="${server.origin}/embed/culture/"><a href="${server.origin}/calendars/culture/">Events: Culture</a></event-calendar>` +
          `<script src="${server.origin}/embed.js" async></script>`;
        const noScript = await openHost(body, { javaScriptEnabled: false });
        expect(await noScript.page.locator("#off > a").textContent()).toBe("Events: Culture");
        expect(await noScript.page.locator("iframe").count()).toBe(0);

        const foreign = await openHost(
          `<event-calendar id="elsewhere" src="${host.origin}/embed/culture/"><a href="${host.origin}/">Elsewhere</a></event-calendar>` +
            `<event-calendar id="page" src="${server.origin}/calendars/culture/"><a href="${server.origin}/calendars/culture/">A page</a></event-calendar>` +
            `<event-calendar id="odd" calendar="../api"><a href="${server.origin}/">Odd</a></event-calendar>` +
            `<event-calendar id="fine" calendar="culture"><a href="${server.origin}/calendars/culture/">Culture</a></event-calendar>` +
            `<script src="${server.origin}/embed.js" async></script>`,
        );
        await foreign.page.waitForSelector("#fine > iframe");
        expect(await foreign.page.locator("iframe").count()).toBe(1);
        for (const id of ["elsewhere", "page", "odd"]) {
          expect(await foreign.page.locator(`#${id} > a`).count(), id).toBe(1);
        }
        expect([...noScript.problems, ...foreign.problems]).toEqual([]);
      });
    });

    it("should have no serious or critical axe-core violations on cards and the widget of several calendars", async () => {
      const paths = [
        "/embed/community/events/e-dst/",
        "/embed/culture/events/e-cancelled/?theme=dark",
        "/embed/culture/events/e-online/?compact=1&accent=%23c2255c",
        "/embed/_all/",
        "/embed/_all/?view=month&theme=dark",
        "/embed/_all/?calendars=community&lang=nl",
      ];
      for (const path of paths) {
        const { frame, problems } = await openWidget(path);
        const result = await axeCheck(frame);
        expect(result.passes, path).toBeGreaterThan(10);
        expect({ path, serious: result.serious }).toEqual({ path, serious: [] });
        expect(problems, path).toEqual([]);
      }
    });

    it("should keep a card with its stylesheet and script, and embed.js, under 30 KB gzip", () => {
      const files = [
        "embed/community/events/e-dst/index.html",
        "embed/widget.css",
        "embed/widget.js",
        "embed.js",
      ];
      const total = files
        .map((f) => gzipSync(readFileSync(join(server.outputDir, f))).length)
        .reduce((a, b) => a + b, 0);
      expect(total).toBeLessThan(30 * 1024);
    });
  },
);
