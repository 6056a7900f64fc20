import type { Frame } from "playwright-core";
import { describe, expect, it } from "vitest";
import type { PortalSnapshot } from "../../src/model/types.ts";
import { fixtureSnapshot } from "../fixtures/snapshot.ts";
import { useBrowser } from "../helpers/browser.ts";
import { withNewDate } from "../helpers/events.ts";
import { useServedWidgetSite } from "../helpers/served-widget-site.ts";
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
    event.id === "e-online" ? withNewDate(event, "2026-04-01T12:00:00-04:00") : event,
  ),
};

describe.skipIf(!hasChromium())("widget New date badge in a browser", () => {
  const chromium = useBrowser();
  const server = useServedWidgetSite(() => ({ snapshot }));

  /** The widget page itself, opened at `query`, once its script is done. */
  async function widget(query: string): Promise<{ frame: Frame; problems: string[] }> {
    const { page, problems } = await chromium.open(`${server.origin}/embed/culture/${query}`, {
      timezoneId: "Europe/Amsterdam",
    });
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
