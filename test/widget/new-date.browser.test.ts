import type { Browser, Frame } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PortalSnapshot } from "../../src/model/types.ts";
import { fixtureSnapshot } from "../fixtures/snapshot.ts";
import { launchBrowser } from "../helpers/browser.ts";
import { NOW } from "../helpers/clock.ts";
import { type BuiltWidgetSite, buildWidgetSite } from "../helpers/plugin-site.ts";
import { type RunningServer, startStaticServer } from "../helpers/static-server.ts";
import { hasChromium } from "../helpers/system-packages.ts";

/*
 * The "New date" badge in the widget: rendered by the build for the default
 * list, and by the browser script from the public JSON (`newDate`) when the
 * options change what is shown, in both languages and the month view.
 */

const MOVED = "Online Lecture: City Archives";

/** The fixture with one event that got a new date at the fixture's "now". */
const snapshot: PortalSnapshot = {
  ...fixtureSnapshot,
  events: fixtureSnapshot.events.map((event) =>
    event.id === "e-online"
      ? {
          ...event,
          history: {
            uid: null,
            previousStarts: ["2026-04-01T12:00:00-04:00"],
            rescheduledAt: NOW,
            newDate: true,
            removed: null,
          },
        }
      : event,
  ),
};

describe.skipIf(!hasChromium())("widget New date badge in a browser", () => {
  let server: RunningServer;
  let built: BuiltWidgetSite;
  let browser: Browser;
  let closeBrowser: () => Promise<void>;

  beforeAll(async () => {
    server = await startStaticServer();
    built = await buildWidgetSite(server.origin, { snapshot });
    server.setRoot(built.outputDir);
    ({ browser, close: closeBrowser } = await launchBrowser());
  });

  afterAll(async () => {
    await closeBrowser?.();
    await server?.close();
    built?.remove();
  });

  /** The widget page itself, opened at `query`, once its script is done. */
  async function widget(query: string): Promise<{ frame: Frame; problems: string[] }> {
    const context = await browser.newContext({ timezoneId: "Europe/Amsterdam" });
    await context.clock.setFixedTime(new Date(NOW));
    const page = await context.newPage();
    const problems: string[] = [];
    page.on("pageerror", (error) => problems.push(error.message));
    page.on("console", (message) => {
      if (message.type() === "error") problems.push(message.text());
    });
    await page.goto(`${server.origin}/embed/culture/${query}`);
    await page.waitForSelector("#ecp[data-state=ready]");
    return { frame: page.mainFrame(), problems };
  }

  /** Badge texts per event title. */
  const badges = async (frame: Frame): Promise<Map<string, (string | null)[]>> =>
    new Map(
      await frame.$$eval(".ecp-link, .ecp-daylink", (links) =>
        links.map((link): [string, (string | null)[]] => [
          link.querySelector(".ecp-name")?.textContent ?? "",
          [...link.querySelectorAll(".ecp-badge")].map((badge) => badge.textContent),
        ]),
      ),
    );

  it("should show the badge on the moved event only, as built and as rendered from the JSON", async () => {
    for (const query of ["", "?count=10"]) {
      const { frame, problems } = await widget(query);
      const found = await badges(frame);
      expect(found.get(MOVED), query).toEqual(["New date"]);
      expect(found.get("Harbour Concert"), query).toEqual(["Cancelled"]);
      expect(found.get("Poetry Night"), query).not.toContain("New date");
      expect(problems, query).toEqual([]);
    }
  });

  it("should show it in Dutch and in the month view", async () => {
    const dutch = await widget("?lang=nl&count=10");
    expect((await badges(dutch.frame)).get(MOVED)).toEqual(["Nieuwe datum"]);
    const month = await widget("?view=month");
    // It opens on March; the lecture is on 2 April.
    await month.frame.click('.ecp-navbutton[aria-label="Next month"]');
    expect((await badges(month.frame)).get(MOVED)).toEqual(["New date"]);
    expect([...dutch.problems, ...month.problems]).toEqual([]);
  });
});
