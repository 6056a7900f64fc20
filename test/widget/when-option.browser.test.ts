import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { paths } from "../../src/model/url-scheme.ts";
import { NOW_MS } from "../helpers/clock.ts";
import { useServedDemo } from "../helpers/demo-site.ts";
import { describeEngines, type Surface } from "../helpers/engines.ts";
import { hostPage, useHostServer } from "../helpers/static-server.ts";

/*
 * The widget's `when` option (docs/widget.md) on the demo build, in each
 * engine: the events of a calendar's "when" range at the visitor's clock
 * (the engine's own date arithmetic picks the range), the empty state with
 * the next event, and embed.js's data-when.
 */

const HOUR = 3_600_000;
const KEYS = ["today", "tomorrow", "weekend", "week", "next-week", "month"] as const;

interface WhenJson {
  readonly ranges: readonly { readonly events: readonly number[]; readonly next: number | null }[];
  readonly events: readonly { readonly title: string; readonly url: string }[];
}

const ready = () => document.querySelector("#ecp[data-state=ready]") !== null;

const demo = useServedDemo();
const host = useHostServer();

describeEngines("the widget's when option", (engine) => {
  const whenJson = (calendarId: string, key: string) =>
    JSON.parse(
      readFileSync(join(demo.dir, paths.apiCalendarWhen(calendarId, key).slice(1)), "utf8"),
    ) as WhenJson;
  /** The titles the widget must list for a range: the JSON's, at most `count` (5 by default). */
  const titlesOf = (json: WhenJson, view: number, count = 5) =>
    (json.ranges[view]?.events ?? []).slice(0, count).map((i) => json.events[i]?.title ?? "");

  /** The widget page itself at `query`, at the visitor's clock `at`, once its script is done. */
  async function openWidget(query: string, at = NOW_MS) {
    const page = await engine.open(`${demo.origin}/embed/${query}`, { at });
    await page.waitFor(ready);
    return page;
  }

  const titles = (surface: Surface) =>
    surface.evaluate(() =>
      [...document.querySelectorAll(".ecp-list .ecp-name")].map((n) => n.textContent ?? ""),
    );

  it("should list the calendar's events on the range's days", async () => {
    const json = whenJson("community", "tomorrow");
    const expected = titlesOf(json, 0);
    expect(expected.length).toBeGreaterThan(0);
    const page = await openWidget("community/?when=tomorrow");
    expect(await titles(page)).toEqual(expected);
    expect(await page.text("#ecp-upcoming")).toBe("Tomorrow");
    expect(page.problems).toEqual([]);
  });

  it("should follow the visitor's clock into the next day", async () => {
    // Nothing of the community calendar on Friday 20 March; the Repair Café on Saturday.
    const json = whenJson("community", "today");
    expect(titlesOf(json, 0)).toEqual([]);
    expect(titlesOf(json, 1).length).toBeGreaterThan(0);
    const friday = await openWidget("community/?when=today");
    expect(await titles(friday)).toEqual([]);
    const saturday = await openWidget("community/?when=today", NOW_MS + 24 * HOUR);
    expect(await titles(saturday)).toEqual(titlesOf(json, 1));
    expect(await saturday.attribute(".ecp-list time", "datetime")).toMatch(/^2026-03-21T/);
    expect([...friday.problems, ...saturday.problems]).toEqual([]);
  });

  it("should say what is next when the range has nothing", async () => {
    // A calendar and range of the demo that are empty at the build's clock, with a next event.
    const empty = ["city", "community", "culture", "sport"]
      .flatMap((calendarId) =>
        KEYS.map((key) => ({ calendarId, key, json: whenJson(calendarId, key) })),
      )
      .find(({ json }) => json.ranges[0]?.events.length === 0 && json.ranges[0].next !== null);
    expect(empty).toBeDefined();
    if (!empty) return;
    const next = empty.json.events[empty.json.ranges[0]?.next ?? -1];
    const page = await openWidget(`${empty.calendarId}/?when=${empty.key}`);
    const text = (await page.text(".ecp-empty")) ?? "";
    expect(text).toMatch(/^Nothing on .*\. Next: /);
    expect(text).toContain(next?.title ?? "?");
    expect(await page.attribute(".ecp-empty a", "href")).toBe(next?.url);
    expect(await page.attribute(".ecp-empty time", "datetime")).toBeTruthy();
  });

  it("should show the upcoming events when the range's days are past, and ignore unknown values", async () => {
    const stale = await openWidget("community/?when=today", NOW_MS + 4 * 24 * HOUR);
    expect(await stale.text("#ecp-upcoming")).toBe("Upcoming events");
    const unknown = await openWidget("community/?when=yesterday");
    expect(await unknown.text("#ecp-upcoming")).toBe("Upcoming events");
  });

  it("should pass data-when from the one-line embed", async () => {
    const json = whenJson("community", "weekend");
    const page = await engine.open(
      host.add(
        hostPage(
          `<a href="${demo.origin}/calendars/community/" data-ecp-fallback>Events</a>` +
            `<script src="${demo.origin}/embed.js" data-calendar="community" data-when="weekend" async></script>`,
        ),
      ),
    );
    const frame = await page.frame("iframe");
    // Once the widget is ready, the frame has left about:blank for the embed page.
    await frame.waitFor(ready);
    expect(await frame.evaluate(() => new URL(location.href).searchParams.get("when"))).toBe(
      "weekend",
    );
    expect(await titles(frame)).toEqual(titlesOf(json, 0));
    expect(page.problems).toEqual([]);
  });
});
