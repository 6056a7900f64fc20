import type { BrowserContext, Frame } from "playwright-core";
import { launchBrowser, PAGE_WAIT_MS, watchPage } from "./browser.ts";
import { NOW } from "./clock.ts";
import {
  DEFAULT_ZONE,
  type Engine,
  elementReads,
  type Surface,
  scrollFrameIntoView,
} from "./engines.ts";

/** Chromium through playwright-core (helpers/browser.ts): each visitor's clock fixed, in any zone. */
export async function openChromium(): Promise<Engine> {
  const { browser, close } = await launchBrowser();
  const contexts: BrowserContext[] = [];
  return {
    name: "chromium",
    async open(url, { timezoneId = DEFAULT_ZONE, viewport, at = NOW } = {}) {
      const context = await browser.newContext({ timezoneId, viewport });
      contexts.push(context);
      context.setDefaultTimeout(PAGE_WAIT_MS);
      await context.clock.setFixedTime(new Date(at));
      const page = await context.newPage();
      let popups = 0;
      context.on("page", () => {
        popups++;
      });
      const { problems } = watchPage(page);
      await page.goto(url);
      return {
        ...surface(page.mainFrame()),
        problems,
        url: async () => page.url(),
        popups: async () => popups,
        close: () => context.close(),
      };
    },
    async close() {
      for (const context of contexts.splice(0)) await context.close().catch(() => {});
      await close();
    },
  };
}

function surface(frame: Frame): Surface {
  const evaluate: Surface["evaluate"] = (fn, arg) =>
    frame.evaluate(fn as (arg: unknown) => never, arg);
  return {
    evaluate,
    ...elementReads(evaluate),
    async waitFor(fn, arg) {
      const handle = await frame.waitForFunction(fn as (arg: unknown) => never, arg);
      return (await handle.jsonValue()) as never;
    },
    click: (selector) => frame.click(selector),
    async frame(selector, index = 0) {
      const element = await frame.locator(selector).nth(index).elementHandle();
      await scrollFrameIntoView(evaluate, selector, index);
      const inner = await element?.contentFrame();
      if (!inner) throw new Error(`${selector} (${index}) holds no frame`);
      return surface(inner);
    },
  };
}
