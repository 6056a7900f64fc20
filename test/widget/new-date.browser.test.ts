import { expect, it } from "vitest";
import type { PortalSnapshot } from "../../src/model/types.ts";
import { fixtureSnapshot } from "../fixtures/snapshot.ts";
import { describeEngines, type EnginePage } from "../helpers/engines.ts";
import { withNewDate } from "../helpers/events.ts";
import { useServedWidgetSite } from "../helpers/served-widget-site.ts";

/*
 * The "New date" badge in the widget: rendered by the build for the default
 * list, and by the browser script from the public JSON (`newDate`) when the
 * options change what is shown, in both languages and the month view; in
 * each engine, as the script's rendering is the engine's.
 */

const MOVED = "Online Lecture: City Archives";

/** The fixture with one event that got a new date at the fixture's "now". */
const snapshot: PortalSnapshot = {
  ...fixtureSnapshot,
  events: fixtureSnapshot.events.map((event) =>
    event.id === "e-online" ? withNewDate(event, "2026-04-01T12:00:00-04:00") : event,
  ),
};

// One build for the file, read by every engine's block.
const server = useServedWidgetSite(() => ({ snapshot }));

describeEngines("widget New date badge", (engine) => {
  /** The widget page itself, opened at `query`, once its script is done. */
  async function widget(query: string): Promise<EnginePage> {
    const page = await engine.open(`${server.origin}/embed/culture/${query}`);
    await page.waitFor(() => document.querySelector("#ecp[data-state=ready]") !== null);
    return page;
  }

  /** Badge texts per event title. */
  const badges = async (page: EnginePage): Promise<Map<string, (string | null)[]>> =>
    new Map(
      await page.evaluate(() =>
        [...document.querySelectorAll(".ecp-link, .ecp-daylink")].map(
          (link): [string, (string | null)[]] => [
            link.querySelector(".ecp-name")?.textContent ?? "",
            [...link.querySelectorAll(".ecp-badge")].map((badge) => badge.textContent),
          ],
        ),
      ),
    );

  it("should show the badge on the moved event only, as built and as rendered from the JSON", async () => {
    for (const query of ["", "?count=10"]) {
      const page = await widget(query);
      const found = await badges(page);
      expect(found.get(MOVED), query).toEqual(["New date"]);
      expect(found.get("Harbour Concert"), query).toEqual(["Cancelled"]);
      expect(found.get("Poetry Night"), query).not.toContain("New date");
      expect(page.problems, query).toEqual([]);
    }
  });

  it("should show it in Dutch and in the month view", async () => {
    const dutch = await widget("?lang=nl&count=10");
    expect((await badges(dutch)).get(MOVED)).toEqual(["Nieuwe datum"]);
    const month = await widget("?view=month");
    // It opens on March; the lecture is on 2 April.
    await month.click('.ecp-navbutton[aria-label="Next month"]');
    await month.waitFor(
      () => document.querySelector(".ecp-monthname")?.textContent === "April 2026",
    );
    expect((await badges(month)).get(MOVED)).toEqual(["New date"]);
    expect([...dutch.problems, ...month.problems]).toEqual([]);
  });
});
