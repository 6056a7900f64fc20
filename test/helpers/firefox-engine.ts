import puppeteer, { type Frame, type Page } from "puppeteer-core";
import { PAGE_WAIT_MS } from "./browser.ts";
import { NOW_MS } from "./clock.ts";
import {
  DEFAULT_ZONE,
  type Engine,
  elementReads,
  type Surface,
  scrollFrameIntoView,
} from "./engines.ts";
import { FIREFOX_PATH } from "./system-packages.ts";

/**
 * Debian's Firefox ESR through puppeteer-core over WebDriver BiDi (never a
 * downloaded browser: puppeteer-core fetches none). Each visitor gets a page
 * whose zone is emulated and whose clock reads NOW (or the visitor's instant): a script that runs before
 * the page's own in every frame (BiDi's preload scripts) fixes `Date`, as
 * Playwright's setFixedTime does for Chromium; timers keep running.
 */
export async function openFirefox(): Promise<Engine> {
  const browser = await puppeteer.launch({
    browser: "firefox",
    executablePath: FIREFOX_PATH,
    headless: true,
    timeout: PAGE_WAIT_MS,
    // A new profile per launch (puppeteer's); no updates, telemetry or other calls out.
    extraPrefsFirefox: {
      "app.update.enabled": false,
      "datareporting.policy.dataSubmissionEnabled": false,
      "network.captive-portal-service.enabled": false,
      "network.connectivity-service.enabled": false,
    },
  });
  const pages: Page[] = [];
  return {
    name: "firefox",
    async open(url, { timezoneId = DEFAULT_ZONE, viewport, at = NOW_MS } = {}) {
      const page = await browser.newPage();
      pages.push(page);
      page.setDefaultTimeout(PAGE_WAIT_MS);
      await page.emulateTimezone(timezoneId);
      if (viewport) await page.setViewport(viewport);
      await page.evaluateOnNewDocument(fixClock(new Date(at).getTime()));
      const problems: string[] = [];
      page.on("console", (message) => {
        if (message.type() === "error") problems.push(`console: ${message.text()}`);
      });
      page.on("pageerror", (error) => problems.push(`pageerror: ${String(error)}`));
      const before = (await browser.pages()).length;
      const response = await page.goto(url);
      if (response && !response.ok() && response.status() !== 304)
        throw new Error(`${url}: HTTP ${response.status()}`);
      return {
        ...surface(page.mainFrame()),
        problems,
        url: async () => page.url(),
        popups: async () => (await browser.pages()).length - before,
        close: () => page.close(),
      };
    },
    async close() {
      for (const page of pages.splice(0)) await page.close().catch(() => {});
      await browser.close();
    },
  };
}

/**
 * Runs in each document before its scripts: `Date` reads `now` unless given a
 * time. Written as source text so that nothing the test runner adds to a
 * compiled function reaches the page.
 */
const fixClock = (now: number) => `(() => {
  const Real = Date, now = ${now};
  const Fixed = function (...args) {
    if (!new.target) return new Real(now).toString();
    return args.length === 0 ? new Real(now) : new Real(...args);
  };
  Fixed.prototype = Real.prototype;
  Fixed.now = () => now;
  Fixed.parse = Real.parse;
  Fixed.UTC = Real.UTC;
  Object.defineProperty(globalThis, "Date", { value: Fixed, configurable: true, writable: true });
})();`;

function surface(frame: Frame): Surface {
  const evaluate: Surface["evaluate"] = (fn, arg) =>
    frame.evaluate(fn as (arg: unknown) => never, arg) as never;
  return {
    evaluate,
    ...elementReads(evaluate),
    async waitFor(fn, arg) {
      const handle = await frame.waitForFunction(fn as (arg: unknown) => unknown, {}, arg);
      return (await handle.jsonValue()) as never;
    },
    click: (selector) => frame.click(selector),
    async frame(selector, index = 0) {
      await frame.waitForFunction(
        (s: string, i: number) => document.querySelectorAll(s)[i] !== undefined,
        {},
        selector,
        index,
      );
      await scrollFrameIntoView(evaluate, selector, index);
      const elements = await frame.$$(selector);
      const inner = await elements[index]?.contentFrame();
      if (!inner) throw new Error(`${selector} (${index}) holds no frame`);
      return surface(inner);
    },
  };
}
