import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import type { BrowserContext, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import type { CalendarEvent, PortalSnapshot } from "../../src/model/types.ts";
import { cardHeight, eventEmbedSnippets } from "../../src/widget/event-card/event-card-snippets.ts";
import { fixtureSnapshot } from "../fixtures/snapshot.ts";
import { axeCheck, useBrowser, watchPage } from "../helpers/browser.ts";
import {
  describeEngines,
  type EnginePage,
  type Surface,
  type VisitOptions,
} from "../helpers/engines.ts";
import { withNewDate } from "../helpers/events.ts";
import { useServedWidgetSite } from "../helpers/served-widget-site.ts";
import { hostPage, useHostServer } from "../helpers/static-server.ts";
import { hasChromium } from "../helpers/system-packages.ts";

/*
 * The event card, the widget of several calendars and <event-calendar> as
 * another site uses them: the built output served from one loopback origin
 * with the deploy headers, host pages from another, in each engine with its
 * clock at the fixture's "now". What only Chromium's tools see (the requests
 * a page makes, a request made to fail, a page without JavaScript, axe-core)
 * is checked in Chromium alone, at the end.
 */

const HOSTILE_TITLE = '<script>alert("x")</script> & "Quotes" \u2028';
const HOSTILE_SEGMENT = "_57656972642f49443f3c783e";
const COMMUNITY = "rgb(11, 114, 133)"; // #0b7285
const CULTURE = "rgb(134, 46, 156)"; // #862e9c

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

// One build and one host for the file, used by every engine's block.
const server = useServedWidgetSite((origin) => ({
  snapshot: snapshotAt(origin),
  files: { "media/walk.svg": WALK_SVG },
}));
const host = useHostServer();

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
  eventEmbedSnippets(event(eventId), calendar(calendarId), server.site);

const ready = () => document.querySelector("#ecp[data-state=ready]") !== null;
const titles = (frame: Surface) =>
  frame.evaluate(() => [...document.querySelectorAll(".ecp-name")].map((n) => n.textContent));
/** Each listed event's title, calendar name and left bar colour. */
const markers = (frame: Surface) =>
  frame.evaluate(() =>
    [...document.querySelectorAll(".ecp-list > .ecp-event")].map((li) => [
      li.querySelector(".ecp-name")?.textContent,
      li.querySelector(".ecp-cal")?.textContent,
      getComputedStyle(li).borderLeftColor,
    ]),
  );
const loopbackOnly = (requests: readonly string[]) =>
  requests.filter((url) => !/^https?:\/\/(127\.\d+\.\d+\.\d+|\[::1\])(:\d+)?\//.test(url));

describeEngines("event card, several calendars and <event-calendar>", (engine) => {
  /** A page of another site with `body`, as a visitor (in Amsterdam unless told) sees it. */
  const openHost = (body: string, options: VisitOptions = {}) =>
    engine.open(host.add(hostPage(body)), { viewport: { width: 800, height: 900 }, ...options });

  /** A widget page opened on its own (not framed), once its script is done. */
  async function openWidget(path: string): Promise<EnginePage> {
    const page = await engine.open(server.origin + path, { viewport: { width: 800, height: 900 } });
    await page.waitFor(ready);
    return page;
  }

  async function frameOf(page: EnginePage, selector: string): Promise<Surface> {
    const frame = await page.frame(selector);
    await frame.waitFor(ready);
    return frame;
  }

  /**
   * The iframe's height and its content's, once embed.js has sized it to the
   * content: a widget re-rendered from the events JSON reports its height
   * again, so an earlier message's height may stand a moment before.
   */
  async function sized(page: EnginePage, selector: string): Promise<[number, number]> {
    const frame = await frameOf(page, selector);
    const measure = async (): Promise<[number, number]> => [
      await page.evaluate((s: string) => {
        const iframe = document.querySelector(s);
        return iframe instanceof HTMLIFrameElement && iframe.style.height !== ""
          ? Math.round(iframe.getBoundingClientRect().height)
          : -1;
      }, selector),
      await frame.evaluate(() =>
        Math.ceil(document.getElementById("ecp")?.getBoundingClientRect().height ?? 0),
      ),
    ];
    let last = await measure();
    await expect
      .poll(
        async () => {
          last = await measure();
          return last[0] === last[1];
        },
        { message: `${selector} sized to its content` },
      )
      .toBe(true);
    return last;
  }

  const count = (surface: Surface, selector: string) =>
    surface.evaluate((s: string) => document.querySelectorAll(s).length, selector);

  describe("an event card", () => {
    it("should show title, time in the event's zone, place, badges and Add to calendar, through the iframe snippet", async () => {
      // The viewer is in Tokyo: the lecture stays at noon in New York.
      const page = await openHost(cardSnippets("e-online", "culture").iframe, {
        timezoneId: "Asia/Tokyo",
      });
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
      expect(page.problems).toEqual([]);
    });

    it("should name both zones of a night across the clock change, and show its image from its own origin", async () => {
      const page = await openWidget("/embed/community/events/e-dst/");
      expect(await page.text(".ecp-when")).toBe(
        "Sunday, 29 March 2026 at 01:30 CET – Sunday, 29 March 2026 at 04:00 CEST",
      );
      expect(await page.text(".ecp-where")).toBe("Vondelpark fountain, Amsterdam");
      const image = await page.waitFor(() => {
        const img = document.querySelector<HTMLImageElement>(".ecp-card-image");
        return img?.complete
          ? { src: img.currentSrc, alt: img.getAttribute("alt"), loaded: img.naturalWidth > 0 }
          : null;
      });
      expect(image).toEqual({
        src: `${server.origin}/media/walk.svg`,
        alt: "Lanterns in the park",
        loaded: true,
      });
      expect(page.problems).toEqual([]);
    });

    it("should mark a cancelled event and offer no Add to calendar for it, and a postponed one", async () => {
      const badges = (page: EnginePage) =>
        page.evaluate(() => [...document.querySelectorAll(".ecp-badge")].map((b) => b.textContent));
      const cancelled = await openWidget("/embed/culture/events/e-cancelled/");
      expect(await badges(cancelled)).toEqual(["Cancelled"]);
      expect(await count(cancelled, ".ecp-button")).toBe(0);
      const style = await cancelled.evaluate(() => {
        const name = document.querySelector(".ecp-name");
        return name ? getComputedStyle(name).textDecorationLine : null;
      });
      expect(style).toContain("line-through");
      const postponed = await openWidget("/embed/culture/events/e-postponed/");
      expect(await badges(postponed)).toEqual(["Postponed"]);
      expect(await count(postponed, ".ecp-button")).toBe(1);
      expect([...cancelled.problems, ...postponed.problems]).toEqual([]);
    });

    it("should render a hostile title as text", async () => {
      const page = await openWidget(`/embed/culture/events/${HOSTILE_SEGMENT}/`);
      expect(await page.text(".ecp-name")).toBe(HOSTILE_TITLE);
      expect(await page.evaluate(() => document.title)).toBe(`${HOSTILE_TITLE} · Events`);
      // Only the page's own two (frame.js, widget.js): the title added none.
      expect(await page.evaluate(() => document.scripts.length)).toBe(2);
      expect(page.problems).toEqual([]);
    });

    it("should size its iframe to the card through the one-line script, with theme and accent", async () => {
      const snippet = cardSnippets("e-dst", "community").script.replace(
        " async>",
        ' data-theme="dark" data-accent="#c2255c" async>',
      );
      const page = await openHost(`<div id="card">${snippet}</div>`);
      await page.waitFor(() => document.querySelector("#card > iframe") !== null);
      const [height, content] = await sized(page, "#card > iframe");
      expect(height).toBe(content);
      expect(content).toBeGreaterThan(300);
      const frame = await frameOf(page, "#card > iframe");
      const look = await frame.evaluate(() => {
        const root = document.getElementById("ecp") as HTMLElement;
        return { classes: [...root.classList], rule: getComputedStyle(root).borderTopColor };
      });
      expect(look.classes).toContain("ecp--dark");
      expect(look.rule).toBe("rgb(194, 37, 92)");
      expect(await page.attribute("#card > iframe", "title")).toBe(
        "Night Walk Across the Clock Change",
      );
      expect(page.problems).toEqual([]);
    });

    it("should fit every card in the height its iframe snippet reserves, in frames from 320 to 800 px wide", async () => {
      const cards = snapshotAt(server.origin).events.map((e) => ({
        id: e.id,
        reserved: cardHeight(e),
        url: eventEmbedSnippets(e, calendar(e.calendarId), server.site).previewUrl,
      }));
      expect(cards.length).toBe(8);
      for (const width of [320, 480, 800]) {
        // Each card in a frame of that width, taller than any card, so the frame's height bounds nothing.
        const page = await openHost(
          cards
            .map(
              ({ id, url }) =>
                `<iframe title="${id}" src="${new URL(url, server.origin).href}" style="display:block;border:0;width:${width}px;height:1200px"></iframe>`,
            )
            .join(""),
          { viewport: { width: 900, height: 900 } },
        );
        for (const [index, card] of cards.entries()) {
          const frame = await page.frame("iframe", index);
          await frame.waitFor(ready);
          const height = await frame.evaluate(() =>
            Math.ceil(document.getElementById("ecp")?.getBoundingClientRect().height ?? 0),
          );
          expect(height, `${card.id} at ${width} px`).toBeGreaterThan(0);
          expect(height, `${card.id} at ${width} px`).toBeLessThanOrEqual(card.reserved);
        }
        expect(page.problems, `${width} px`).toEqual([]);
        await page.close();
      }
    });
  });

  describe("a widget of several calendars", () => {
    it("should merge the calendars' next events in start order, each marked with its calendar, as built and from the JSON", async () => {
      const built = await openWidget("/embed/_all/");
      const expectedFive = [
        ["Night Walk Across the Clock Change", "Community", COMMUNITY],
        ["Online Lecture: City Archives", "Culture", CULTURE],
        ["Harbour Concert", "Culture", CULTURE],
        ["Poetry Night", "Culture", CULTURE],
        [HOSTILE_TITLE, "Culture", CULTURE],
      ];
      expect(await markers(built)).toEqual(expectedFive);

      const all = await openWidget("/embed/_all/?count=10");
      expect(await markers(all)).toEqual([
        ...expectedFive,
        ["King's Day", "Community", COMMUNITY],
        ["Open Studios Weekend", "Culture", CULTURE],
      ]);
      expect(
        await all.evaluate(() =>
          [...document.querySelectorAll(".ecp-legend li")].map((x) => x.textContent),
        ),
      ).toEqual(["Community", "Culture"]);
      // The calendars' heading survives the re-render, in the widget's language.
      expect(await all.text("#ecp-calendars")).toBe("Calendars");
      const dutch = await openWidget("/embed/_all/?lang=nl");
      expect(await dutch.text("#ecp-calendars")).toBe("Agenda's");
      expect(await dutch.text(".ecp-title .ecp-sr")).toBe(" (opent in een nieuw tabblad)");
      expect([...built.problems, ...all.problems, ...dutch.problems]).toEqual([]);
    });

    it("should show only the chosen calendars", async () => {
      const page = await openWidget("/embed/_all/?calendars=community");
      expect(await titles(page)).toEqual(["Night Walk Across the Clock Change", "King's Day"]);
      const legend = await page.evaluate(() =>
        [...document.querySelectorAll<HTMLElement>(".ecp-legend li")].map((li) => [
          li.textContent,
          li.hidden,
        ]),
      );
      expect(legend).toEqual([
        ["Community", false],
        ["Culture", true],
      ]);
      expect(page.problems).toEqual([]);
    });

    it("should filter a category across calendars, alone and with words", async () => {
      const markets = await openWidget("/embed/_all/?category=markets");
      expect(await markers(markets)).toEqual([
        ["King's Day", "Community", COMMUNITY],
        ["Open Studios Weekend", "Culture", CULTURE],
      ]);
      const words = await openWidget("/embed/_all/?category=markets&q=studios");
      expect(await titles(words)).toEqual(["Open Studios Weekend"]);
      expect([...markets.problems, ...words.problems]).toEqual([]);
    });

    it("should ignore unknown calendars, unknown categories and hostile values", async () => {
      const cases = [
        "?calendars=nope,..%2Fapi,%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E",
        "?calendars=community,nope&category=nope",
        "?calendars=&count=-1&view=%3Cb%3E&theme=x&lang=xx",
      ];
      const every = await titles(await openWidget("/embed/_all/"));
      // Nothing known: every calendar, the default list.
      const expected = [every, ["Night Walk Across the Clock Change", "King's Day"], every];
      for (const [index, query] of cases.entries()) {
        const page = await openWidget(`/embed/_all/${query}`);
        expect(await titles(page), query).toEqual(expected[index]);
        expect(await page.evaluate(() => document.scripts.length), query).toBe(2);
        expect(await page.evaluate(() => document.images.length), query).toBe(0);
        expect(page.problems, query).toEqual([]);
      }
    });

    it("should show the month view with each event's calendar colour and name", async () => {
      const page = await openWidget("/embed/_all/?view=month");
      expect(await page.text(".ecp-monthname")).toBe("March 2026");
      const walk = await page.evaluate(() => {
        const a = document.querySelector(".ecp-daylink[href*=e-dst]");
        return a ? { text: a.textContent, bar: getComputedStyle(a).borderLeftColor } : null;
      });
      expect(walk).toEqual({
        text: "01:30 Night Walk Across the Clock Change (Community) (opens in a new tab)",
        bar: COMMUNITY,
      });
      await page.click('.ecp-navbutton[aria-label="Next month"]');
      await page.waitFor(
        () => document.querySelector(".ecp-monthname")?.textContent === "April 2026",
      );
      const april = await page.evaluate(() =>
        [...document.querySelectorAll<HTMLElement>(".ecp-dayevents > li")].map(
          (li) => li.dataset.calendar,
        ),
      );
      expect(april).toEqual(["culture", "culture", "culture", "culture", "community"]);
      expect(page.problems).toEqual([]);
    });

    it("should be embedded by data-calendars and by data-category on the script, and size to its content", async () => {
      const script = `<script src="${server.origin}/embed.js"`;
      const page = await openHost(
        `<div id="a"><a href="${server.origin}/events/" data-ecp-fallback>Events</a>${script} data-calendars="culture,community" data-count="3" async></script></div>` +
          `<div id="b">${script} data-category="markets" async></script></div>`,
      );
      await page.waitFor(() => document.querySelector("#b > iframe") !== null);
      const first = await frameOf(page, "#a > iframe");
      expect(await titles(first)).toEqual([
        "Night Walk Across the Clock Change",
        "Online Lecture: City Archives",
        "Harbour Concert",
      ]);
      expect(await first.evaluate(() => location.pathname)).toBe("/embed/_all/");
      const second = await frameOf(page, "#b > iframe");
      expect(await titles(second)).toEqual(["King's Day", "Open Studios Weekend"]);
      for (const selector of ["#a > iframe", "#b > iframe"]) {
        const [height, content] = await sized(page, selector);
        expect(height, selector).toBe(content);
      }
      expect(page.problems).toEqual([]);
    });
  });

  describe("<event-calendar>", () => {
    it("should render two elements on one page, by src and by attributes, each sized to its content", async () => {
      const page = await openHost(
        `<event-calendar id="one" src="${server.origin}/embed/culture/?count=3"><a href="${server.origin}/calendars/culture/">Events: Culture</a></event-calendar>` +
          `<event-calendar id="two" calendar="community" show-title="false" theme="dark"><a href="${server.origin}/calendars/community/">Events: Community</a></event-calendar>` +
          `<script src="${server.origin}/embed.js" async></script>`,
      );
      await page.waitFor(() => document.querySelector("#two > iframe") !== null);
      const one = await frameOf(page, "#one > iframe");
      const two = await frameOf(page, "#two > iframe");
      await one.waitFor(() => document.querySelectorAll(".ecp-event").length === 3);
      expect(await titles(one)).toEqual([
        "Online Lecture: City Archives",
        "Harbour Concert",
        "Poetry Night",
      ]);
      expect(await titles(two)).toEqual(["Night Walk Across the Clock Change", "King's Day"]);
      expect(
        await two.evaluate(() => document.querySelector<HTMLElement>(".ecp-head")?.hidden),
      ).toBe(true);
      expect(await two.attribute("#ecp", "class")).toContain("ecp--dark");
      const sizes = [await sized(page, "#one > iframe"), await sized(page, "#two > iframe")];
      for (const [height, content] of sizes) expect(height).toBe(content);
      expect(sizes[0]?.[0]).not.toBe(sizes[1]?.[0]);
      // The fallback links made way for the iframes; the titles come from them.
      expect(await count(page, "event-calendar > a")).toBe(0);
      expect(await page.attribute("#one > iframe", "title")).toBe("Events: Culture");
      expect(page.problems).toEqual([]);
    });

    it("should embed an event's card and several calendars by attributes", async () => {
      const page = await openHost(
        `<script src="${server.origin}/embed.js"></script>` +
          `<event-calendar id="card" calendar="community" event="e-dst"><a href="${server.origin}/calendars/community/events/e-dst/">Night walk</a></event-calendar>` +
          `<event-calendar id="several" calendars="community" category="markets"><a href="${server.origin}/events/">Markets</a></event-calendar>`,
      );
      const card = await frameOf(page, "#card > iframe");
      expect(await card.text(".ecp-card-title .ecp-name")).toBe(
        "Night Walk Across the Clock Change",
      );
      const [height, content] = await sized(page, "#card > iframe");
      expect(height).toBe(content);
      const several = await frameOf(page, "#several > iframe");
      expect(await titles(several)).toEqual(["King's Day"]);
      expect(page.problems).toEqual([]);
    });

    it("should keep its fallback link for a src that is not this site's embed page", async () => {
      const page = await openHost(
        `<event-calendar id="elsewhere" src="${host.origin}/embed/culture/"><a href="${host.origin}/">Elsewhere</a></event-calendar>` +
          `<event-calendar id="page" src="${server.origin}/calendars/culture/"><a href="${server.origin}/calendars/culture/">A page</a></event-calendar>` +
          `<event-calendar id="odd" calendar="../api"><a href="${server.origin}/">Odd</a></event-calendar>` +
          `<event-calendar id="fine" calendar="culture"><a href="${server.origin}/calendars/culture/">Culture</a></event-calendar>` +
          `<script src="${server.origin}/embed.js" async></script>`,
      );
      await page.waitFor(() => document.querySelector("#fine > iframe") !== null);
      expect(await count(page, "iframe")).toBe(1);
      for (const id of ["elsewhere", "page", "odd"]) {
        expect(await count(page, `#${id} > a`), id).toBe(1);
      }
      expect(page.problems).toEqual([]);
    });
  });
});

describe.skipIf(!hasChromium())(
  "event card, several calendars and <event-calendar> in Chromium: requests, no JavaScript, accessibility",
  () => {
    const chromium = useBrowser();

    /** A visitor's context in Amsterdam. */
    const newContext = (javaScriptEnabled = true): Promise<BrowserContext> =>
      chromium.visitor({
        timezoneId: "Europe/Amsterdam",
        viewport: { width: 800, height: 900 },
        javaScriptEnabled,
      });

    /** A page at `url`, watched from the start. */
    async function visit(url: string, javaScriptEnabled = true) {
      const page = await (await newContext(javaScriptEnabled)).newPage();
      const watched = watchPage(page);
      await page.goto(url);
      return { page, ...watched };
    }

    async function frameOf(page: Page, selector: string, state = "[data-state=ready]") {
      const frame = await (await page.locator(selector).elementHandle())?.contentFrame();
      if (!frame) throw new Error(`${selector} has no frame`);
      await frame.waitForSelector(`#ecp${state}`);
      return frame;
    }

    const apiPaths = (requests: readonly string[]) =>
      requests.filter((url) => url.includes("/api/")).map((url) => new URL(url).pathname);

    it("should request nothing beyond the loopback through the card, the one-line script and <event-calendar>", async () => {
      const { page, problems, requests } = await visit(
        host.add(
          hostPage(
            `<div id="card">${cardSnippets("e-online", "culture").iframe}</div>` +
              `<div id="script">${cardSnippets("e-dst", "community").script}</div>` +
              `<event-calendar id="element" calendar="culture"><a href="${server.origin}/calendars/culture/">Culture</a></event-calendar>`,
          ),
        ),
      );
      await frameOf(page, "#card > iframe");
      await frameOf(page, "#element > iframe");
      // The walk's card has its image, from the widget's own origin.
      const walk = await frameOf(page, "#script > iframe");
      await walk.waitForFunction(
        () => document.querySelector<HTMLImageElement>(".ecp-card-image")?.complete,
      );
      expect(requests.some((url) => url === `${server.origin}/media/walk.svg`)).toBe(true);
      expect(loopbackOnly(requests)).toEqual([]);
      expect(problems).toEqual([]);
    });

    it("should read only the events files of the calendars it shows, and none for the built list", async () => {
      const built = await visit(`${server.origin}/embed/_all/`);
      await built.page.waitForSelector("#ecp[data-state=ready]");
      expect(apiPaths(built.requests)).toEqual([]);
      const all = await visit(`${server.origin}/embed/_all/?count=10`);
      await all.page.waitForSelector("#ecp[data-state=ready]");
      expect(apiPaths(all.requests)).toEqual([
        "/api/calendars/community/events.json",
        "/api/calendars/culture/events.json",
      ]);
      const chosen = await visit(`${server.origin}/embed/_all/?calendars=community`);
      await chosen.page.waitForSelector("#ecp[data-state=ready]");
      expect(apiPaths(chosen.requests)).toEqual(["/api/calendars/community/events.json"]);
      expect([...built.problems, ...all.problems, ...chosen.problems]).toEqual([]);
    });

    it("should keep the build's list, without the calendars left out, when an events file cannot be read", async () => {
      const context = await newContext();
      // Bounded: one route, answered at once.
      await context.route("**/api/calendars/culture/events.json", (route) => route.abort());
      const page = await context.newPage();
      const { problems } = watchPage(page);
      await page.goto(`${server.origin}/embed/_all/?calendars=culture`);
      await page.waitForSelector("#ecp[data-state=ready]");
      const listed = await page.$$eval(".ecp-list > .ecp-event", (items) =>
        items.map((li) => [
          li.querySelector(".ecp-name")?.textContent,
          li.querySelector(".ecp-cal")?.textContent,
          getComputedStyle(li).borderLeftColor,
        ]),
      );
      expect(listed).toEqual([
        ["Online Lecture: City Archives", "Culture", CULTURE],
        ["Harbour Concert", "Culture", CULTURE],
        ["Poetry Night", "Culture", CULTURE],
        [HOSTILE_TITLE, "Culture", CULTURE],
      ]);
      // The aborted request is the only error the page reports.
      expect(problems.filter((p) => !p.includes("ERR_FAILED"))).toEqual([]);
    });

    it("should show a card complete without JavaScript inside the iframe", async () => {
      const { page, problems } = await visit(
        host.add(hostPage(cardSnippets("e-dst", "community").iframe)),
        false,
      );
      const frame = await frameOf(page, "iframe", "");
      await frame.waitForSelector(".ecp-card");
      expect(await frame.textContent(".ecp-name")).toBe("Night Walk Across the Clock Change");
      expect(await frame.textContent(".ecp-button")).toBe("Add to calendar");
      expect(await frame.getAttribute("#ecp", "data-state")).toBeNull();
      expect(problems).toEqual([]);
    });

    it("should keep <event-calendar>'s fallback link without JavaScript", async () => {
      const { page, problems } = await visit(
        host.add(
          hostPage(
            `<event-calendar id="off" src="${server.origin}/embed/culture/"><a href="${server.origin}/calendars/culture/">Events: Culture</a></event-calendar>` +
              `<script src="${server.origin}/embed.js" async></script>`,
          ),
        ),
        false,
      );
      expect(await page.locator("#off > a").textContent()).toBe("Events: Culture");
      expect(await page.locator("iframe").count()).toBe(0);
      expect(problems).toEqual([]);
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
        const { page, problems } = await visit(server.origin + path);
        await page.waitForSelector("#ecp[data-state=ready]");
        const result = await axeCheck(page.mainFrame());
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
