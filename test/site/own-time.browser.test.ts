import { DateTime } from "luxon";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { axeCheck, useBrowser } from "../helpers/browser.ts";
import { useServedDemo } from "../helpers/demo-site.ts";
import { hasChromium } from "../helpers/system-packages.ts";

/*
 * The visitor's own time, as visitors elsewhere see the demo site in Debian's
 * Chromium (a browser context per visitor zone), under the production CSP:
 * added beside an event's time only where the visitor's clock reads it
 * differently, and month grids placed on the visitor's days when asked.
 */

/** An evening concert in Amsterdam (CET, 20:30–23:00). */
const JAZZ = "/calendars/culture/events/jazz-boathouse-20260327/";
/** Thursday evenings in Amsterdam: after midnight in Tokyo. */
const MAY = "/calendars/culture/2026/05/";
const DESKTOP = { width: 1200, height: 900 };

describe.runIf(hasChromium())("your own time", () => {
  const chromium = useBrowser();
  const demo = useServedDemo();

  /** A page of the demo, loaded, as a visitor in `timezoneId` sees it on a desktop screen. */
  const open = (path: string, timezoneId: string, { javaScript = true } = {}) =>
    chromium.open(demo.origin + path, {
      timezoneId,
      viewport: DESKTOP,
      javaScriptEnabled: javaScript,
    });

  /** What a clock in `zone` reads at the instant: "15:30". */
  const clock = (iso: string, zone: string) =>
    DateTime.fromISO(iso, { setZone: true }).setZone(zone).toFormat("HH:mm");

  it("should add the visitor's own time to an event page only where their clock reads it differently", async () => {
    const newYork = await open(JAZZ, "America/New_York");
    const added = newYork.page.locator(".event-facts .local-time");
    await expect.poll(() => added.count()).toBe(1);
    const text = (await added.textContent()) ?? "";
    expect(text).toContain(clock("2026-03-27T20:30:00+01:00", "America/New_York"));
    expect(text).toContain(clock("2026-03-27T23:00:00+01:00", "America/New_York"));
    expect(text).toContain("your time (New York)");
    expect(newYork.problems).toEqual([]);

    // Amsterdam's own visitors, and Berlin's (same clock), see the page as built, without scripts too.
    const built = await open(JAZZ, "Europe/Amsterdam", { javaScript: false });
    const asBuilt = await built.page.locator(".event-facts dl").innerHTML();
    for (const zone of ["Europe/Amsterdam", "Europe/Berlin"]) {
      const { page, problems } = await open(JAZZ, zone);
      await page.waitForFunction(() => document.readyState === "complete");
      expect(await page.locator(".local-time, .event-zone").count(), zone).toBe(0);
      expect(await page.locator(".event-facts dl").innerHTML(), zone).toBe(asBuilt);
      expect(problems, zone).toEqual([]);
    }
  });

  it("should add it to every timed list row, with the day when it is another one, and name the event's zone", async () => {
    const { page, problems } = await open("/calendars/culture/", "Asia/Tokyo");
    await expect
      .poll(() => page.locator(".event-row .local-time").count())
      .toBe(await page.locator(".event-row time[data-zone]").count());
    const rows = await page.$$eval(".event-row", (items) =>
      items.map((item) => ({
        href: item.querySelector(".event-title a")?.getAttribute("href") ?? "",
        start: item.querySelector("time[data-zone]")?.getAttribute("datetime") ?? "",
        zone: item.querySelector(".event-zone")?.textContent ?? "",
        local: item.querySelector(".local-time")?.textContent ?? "",
      })),
    );
    const allDay = rows.filter((row) => !row.start);
    expect(allDay.length).toBeGreaterThan(0);
    for (const row of allDay) expect(row.local, row.href).toBe("");
    const timed = rows.filter((row) => row.start);
    expect(timed.length).toBeGreaterThan(0);
    for (const row of timed) {
      expect(row.zone, row.href).toBe(" in Amsterdam");
      expect(row.local, row.href).toContain(clock(row.start, "Asia/Tokyo"));
      expect(row.local, row.href).toContain("your time (Tokyo)");
    }
    // 19:30 on Thursday 2 April in Amsterdam is 02:30 on Friday 3 April in Tokyo.
    const studio = rows.find((row) => row.href.endsWith("/open-studio-20260402/"));
    expect(studio?.local).toContain("Fri 3 Apr, 02:30");
    expect(problems).toEqual([]);
  });

  /** Each day cell of the month's grid: its date and the event pages it links, in order. */
  const placements = (page: Page) =>
    page.$$eval("table.month-grid td", (cells) =>
      cells.flatMap((cell) => {
        const day = cell.querySelector(".day-number time")?.getAttribute("datetime");
        return day
          ? [[day, [...cell.querySelectorAll("li a")].map((a) => a.getAttribute("href") ?? "")]]
          : [];
      }),
    ) as Promise<[string, string[]][]>;

  it("should offer the month in the visitor's zone only where it changes something", async () => {
    for (const zone of ["Europe/Amsterdam", "Europe/Berlin"]) {
      const { page, problems } = await open(MAY, zone);
      await page.waitForFunction(() => document.readyState === "complete");
      expect(await page.locator("[data-month-tz]").isHidden(), zone).toBe(true);
      expect(problems, zone).toEqual([]);
    }
  });

  it("should place events on the visitor's days when asked, remembered in the URL only", async () => {
    const { page, problems } = await open(MAY, "Asia/Tokyo");
    const toggle = page.getByRole("button", { name: "Show in my time zone" });
    await toggle.waitFor();
    expect(await toggle.getAttribute("aria-pressed")).toBe("false");
    const built = await placements(page);

    // What the page carries: each timed event's instants (the grid's and those of the
    // days around the month), and each all-day event's days as built.
    const items = await page.$$eval("table.month-grid li, [data-month-nearby] li", (lis) =>
      lis.map((li) => {
        const time = li.querySelector("time[data-zone]");
        return {
          href: li.querySelector("a")?.getAttribute("href") ?? "",
          start: time?.getAttribute("datetime") ?? "",
          end: time?.getAttribute("data-end") ?? "",
        };
      }),
    );
    const expected = new Map<string, Set<string>>(built.map(([day]) => [day, new Set()]));
    for (const [day, hrefs] of built) {
      for (const href of hrefs) {
        if (!items.some((item) => item.href === href && item.start)) expected.get(day)?.add(href);
      }
    }
    for (const item of items.filter((i) => i.start)) {
      const start = DateTime.fromISO(item.start).setZone("Asia/Tokyo");
      const end = DateTime.fromISO(item.end).setZone("Asia/Tokyo");
      const last = (end > start ? end.minus({ milliseconds: 1 }) : start).startOf("day");
      for (let day = start.startOf("day"); day <= last; day = day.plus({ days: 1 })) {
        expected.get(day.toISODate() ?? "")?.add(item.href);
      }
    }

    // Keyboard: the toggle is a button.
    await toggle.focus();
    await page.keyboard.press("Space");
    await expect.poll(() => toggle.getAttribute("aria-pressed")).toBe("true");
    expect(new URL(page.url()).searchParams.get("tz")).toBe("local");
    const local = await placements(page);
    expect(new Map(local.map(([day, hrefs]) => [day, new Set(hrefs)]))).toEqual(expected);
    expect(local).not.toEqual(built);

    // Thursday 30 April, 19:30 in Amsterdam: Friday 1 May, 02:30 in Tokyo, named so.
    const studio = page.getByRole("link", {
      name: /^02:30–05:00 Open Studio Night ?, Friday,? 1 May 2026$/,
    });
    expect(await studio.count()).toBe(1);
    expect(await page.locator(".month-tz-note").textContent()).toBe(
      "Days and times are in your time zone (Tokyo).",
    );
    // Every event link still names its day.
    const names = await page.$$eval("table.month-grid li a", (links) =>
      links.map((a) => a.textContent ?? ""),
    );
    for (const name of names) expect(name).toMatch(/, \w+day,? \d{1,2} May 2026$/);
    // The month links keep the choice; nothing is stored.
    for (const href of await page.$$eval(".month-nav a", (as) =>
      as.map((a) => a.getAttribute("href") ?? ""),
    ))
      expect(href).toMatch(/\?tz=local$/);
    expect(
      await page.evaluate(
        () => localStorage.length + sessionStorage.length + document.cookie.length,
      ),
    ).toBe(0);

    // A reload (or a shared link) keeps it; pressing again goes back to the calendar's zone.
    await page.reload();
    await expect.poll(() => toggle.getAttribute("aria-pressed")).toBe("true");
    expect(await placements(page)).toEqual(local);
    await toggle.click();
    await expect.poll(() => toggle.getAttribute("aria-pressed")).toBe("false");
    expect(new URL(page.url()).search).toBe("");
    expect(await placements(page)).toEqual(built);
    expect(problems).toEqual([]);
  });

  it("should stay free of serious accessibility violations in the visitor's zone", async () => {
    for (const path of [`${MAY}?tz=local`, JAZZ, "/calendars/culture/"]) {
      const { page } = await open(path, "Asia/Tokyo");
      await page.waitForFunction(() => document.readyState === "complete");
      const violations = (await axeCheck(page)).serious;
      expect(violations, path).toEqual([]);
    }
  });
});
