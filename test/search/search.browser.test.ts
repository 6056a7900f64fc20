import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DateTime } from "luxon";
import ical from "node-ical";
import type { BrowserContext, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { createDemoDataset, type DatasetEvent } from "../../src/portal/index.ts";
import { axeCheck, useBrowser, watchPage } from "../helpers/browser.ts";
import { NOW } from "../helpers/clock.ts";
import { DEMO_SITE_URL } from "../helpers/demo-build.ts";
import { demoEvents, eventUrl, inFeedWindow, instants } from "../helpers/demo-expectations.ts";
import { useServedDemo } from "../helpers/demo-site.ts";
import { describeEngines, type Surface } from "../helpers/engines.ts";
import { icalJsEvents } from "../helpers/ics-readers.ts";
import { parseFeeds, parseIcs } from "../helpers/python-readers.ts";
import { searchAnswered } from "../helpers/search-page.ts";
import { hasChromium, hasPythonModule } from "../helpers/system-packages.ts";

/*
 * The search page of a real demo build, served with the production headers
 * (netlify.toml) and driven in Debian's Chromium with its clock pinned to the
 * build's "now". What each search must find is worked out from the reference
 * portal's demo dataset, not from the build's code.
 */

const ZONE = "Europe/Amsterdam";
const TODAY = "2026-03-20"; // NOW (a Friday) in SITE_TIMEZONE
const events = demoEvents();
const calendarNames = new Map(createDemoDataset(NOW).calendars.map((c) => [c.id, c.name]));

/** The local days (SITE_TIMEZONE) an event occupies; ends are exclusive. */
function daysOf(event: DatasetEvent): string[] {
  const { start, end } = instants(event);
  const last = (end > start ? end.minus({ milliseconds: 1 }) : start).setZone(ZONE);
  const days: string[] = [];
  for (let day = start.setZone(ZONE).startOf("day"); day <= last; day = day.plus({ days: 1 })) {
    days.push(day.toISODate() ?? "");
  }
  return days;
}

/** Everything a visitor could search an event by, as plain text. */
function textOf(event: DatasetEvent): string {
  const address = event.location?.address;
  return [
    event.title,
    event.summary,
    event.description.replace(/<[^>]*>/g, " "),
    event.location?.name,
    address && Object.values(address).join(" "),
    event.organizer?.name,
    ...event.categories.map((c) => c.name),
    calendarNames.get(event.calendarId),
  ].join(" ");
}

const isUpcoming = (event: DatasetEvent) => daysOf(event).some((day) => day >= TODAY);
const inDays = (first: string, last: string) => (event: DatasetEvent) =>
  daysOf(event).some((day) => day >= first && day <= last);
const paths = (list: readonly DatasetEvent[]) =>
  list.map((event) => eventUrl(event).slice(DEMO_SITE_URL.length)).sort();

interface Row {
  readonly path: string;
  readonly title: string;
  readonly start: string;
  readonly section: string;
  readonly calendar: string;
  readonly badge: string;
}

interface Opened {
  readonly page: Page;
  readonly context: BrowserContext;
  /** Console errors, page errors, CSP violations and requests to other origins. */
  readonly problems: string[];
  /** The path of every request the page and its worker made (a new visitor's page). */
  readonly requested: string[];
}

describe.runIf(hasChromium())("the search page in a browser", () => {
  const chromium = useBrowser();
  const server = useServedDemo();

  interface VisitorOptions {
    colorScheme?: "light" | "dark";
    javaScript?: boolean;
    width?: number;
    /** Hide window.Worker: Pagefind then runs its WebAssembly on the page itself. */
    noWorker?: boolean;
  }

  /** A visitor in New York, with a screen 900 px high. */
  async function visitor(options: VisitorOptions = {}): Promise<BrowserContext> {
    const context = await chromium.visitor({
      viewport: { width: options.width ?? 1200, height: 900 },
      colorScheme: options.colorScheme ?? "light",
      javaScriptEnabled: options.javaScript ?? true,
      timezoneId: "America/New_York",
    });
    if (options.noWorker) {
      await context.addInitScript(() => {
        Reflect.deleteProperty(window, "Worker");
      });
    }
    return context;
  }

  /**
   * A page of the demo at `path` in a visitor's browser, watched from the
   * start; `requested` gets the path of every request of the visitor's.
   */
  async function openIn(
    context: BrowserContext,
    path: string,
    requested: string[] = [],
  ): Promise<Opened> {
    const page = await context.newPage();
    const { problems } = watchPage(page, { warnings: true, onlyFrom: server.origin });
    const response = await page.goto(server.origin + path);
    expect(response?.status(), path).toBe(200);
    return { page, context, problems, requested };
  }

  /** A new visitor's page at `path`: nothing cached, nothing loaded before. */
  async function open(path: string, options: VisitorOptions = {}): Promise<Opened> {
    const context = await visitor(options);
    const requested: string[] = [];
    context.on("request", (r) => requested.push(new URL(r.url()).pathname));
    return openIn(context, path, requested);
  }

  const settled = searchAnswered;

  async function rowsOnPage(page: Page): Promise<Row[]> {
    return page.$$eval("#search-results .event-row", (items) =>
      items.map((item) => ({
        path: item.querySelector(".event-title a")?.getAttribute("href") ?? "",
        title: item.querySelector(".event-title .p-name")?.textContent ?? "",
        start: item.querySelector("time")?.getAttribute("datetime") ?? "",
        section: item.closest("section")?.querySelector("h2")?.id ?? "",
        calendar: item.querySelector(".calendar-chip")?.textContent ?? "",
        badge: item.querySelector(".badge")?.textContent ?? "",
      })),
    );
  }

  /** Every result, following "More results" with the keyboard-reachable link (20 pages at most). */
  async function allRows(page: Page): Promise<Row[]> {
    await settled(page);
    const rows = [...(await rowsOnPage(page))];
    for (let shown = 1; shown < 20; shown++) {
      const next = page.locator("#search-next");
      if (!(await next.isVisible())) break;
      await next.click();
      await settled(page, shown + 1);
      rows.push(...(await rowsOnPage(page)));
    }
    return rows;
  }

  const countIn = (status: string) => Number(/(\d+) events? found/.exec(status)?.[1] ?? 0);

  it("should find the events a word names, and only those, upcoming first", async () => {
    const { page, problems } = await open("/search/?q=jazz");
    const rows = await allRows(page);
    const expected = events.filter((event) => /\bjazz/i.test(textOf(event)));
    expect(expected.length).toBeGreaterThan(3);
    expect(rows.map((row) => row.path).sort()).toEqual(paths(expected));
    expect(new Set(rows.map((row) => row.title.trim()))).toEqual(
      new Set(["Jazz at the Boathouse"]),
    );

    // Upcoming ones first, soonest first; then past ones, most recent first.
    const upcoming = rows.filter((row) => row.section === "search-upcoming");
    const past = rows.filter((row) => row.section === "search-past");
    expect(upcoming.map((row) => row.path).sort()).toEqual(paths(expected.filter(isUpcoming)));
    expect(rows).toEqual([...upcoming, ...past]);
    const starts = (list: Row[]) => list.map((row) => Date.parse(row.start));
    expect(starts(upcoming)).toEqual([...starts(upcoming)].sort((a, b) => a - b));
    expect(starts(past)).toEqual([...starts(past)].sort((a, b) => b - a));
    expect(problems).toEqual([]);
  });

  it("should search descriptions, places, organizers and categories too", async () => {
    // One visitor searching again and again, each search on a page of its own.
    const context = await visitor();
    for (const [word, pattern] of [
      ["linocut", /\blinocut/i],
      ["westergas", /\bwestergas/i],
      ["buurtwerk", /\bbuurtwerk/i],
      ["literature", /\bliterature/i],
    ] as const) {
      const { page, problems } = await openIn(context, `/search/?q=${word}`);
      const rows = await allRows(page);
      const expected = events.filter((event) => pattern.test(textOf(event)));
      expect(expected.length, word).toBeGreaterThan(0);
      expect(rows.map((row) => row.path).sort(), word).toEqual(paths(expected));
      expect(problems, word).toEqual([]);
      await page.close();
    }
  });

  it("should narrow by each filter, and combine every filter with the query", async () => {
    const weekend = ["2026-03-21", "2026-03-22"];
    const cases: [string, (event: DatasetEvent) => boolean][] = [
      ["calendar=sport", (e) => e.calendarId === "sport"],
      ["category=family", (e) => e.categories.some((c) => c.id === "family")],
      ["place=Amstel+Boathouse", (e) => e.location?.name === "Amstel Boathouse"],
      ["attendance=online", (e) => e.attendanceMode !== "offline"],
      ["attendance=in-person", (e) => e.attendanceMode !== "online"],
      ["cancelled=hide", (e) => e.status !== "cancelled"],
      ["when=today", inDays(TODAY, TODAY)],
      ["when=weekend", inDays(weekend[0] ?? "", weekend[1] ?? "")],
      ["when=week", inDays(TODAY, "2026-03-26")],
      ["when=month", inDays(TODAY, "2026-03-31")],
      ["when=range&from=2026-04-01&to=2026-04-30", inDays("2026-04-01", "2026-04-30")],
      ["when=range&from=2026-02-01&to=2026-02-14", inDays("2026-02-01", "2026-02-14")],
      [
        "q=walk&calendar=sport&cancelled=hide",
        (e) => /\bwalk/i.test(textOf(e)) && e.calendarId === "sport" && e.status !== "cancelled",
      ],
      [
        "q=market&when=range&from=2026-03-01&to=2026-04-15&attendance=in-person",
        (e) =>
          /\bmarket/i.test(textOf(e)) &&
          inDays("2026-03-01", "2026-04-15")(e) &&
          e.attendanceMode !== "online",
      ],
      [
        "calendar=community&category=family&place=Community+Centre+De+Pijp",
        (e) =>
          e.calendarId === "community" &&
          e.categories.some((c) => c.id === "family") &&
          e.location?.name === "Community Centre De Pijp",
      ],
    ];
    let narrower = 0;
    // One visitor searching again and again, each search on a page of its own.
    const context = await visitor();
    for (const [query, keep] of cases) {
      const { page, problems } = await openIn(context, `/search/?${query}`);
      const rows = await allRows(page);
      const expected = events.filter(keep);
      expect(rows.map((row) => row.path).sort(), query).toEqual(paths(expected));
      if (expected.length > 0 && expected.length < events.length) narrower += 1;
      expect(problems, query).toEqual([]);
      await page.close();
    }
    expect(narrower).toBe(cases.length);
  });

  /** The search index's parts (/pagefind/parts.json), as the build listed them. */
  async function indexParts(): Promise<{ key: string; firstDay: string; lastDay: string }[]> {
    const list = (await (await fetch(`${server.origin}/pagefind/parts.json`)).json()) as {
      parts: { key: string; firstDay: string; lastDay: string }[];
    };
    return list.parts;
  }

  /** The site's order (start, then calendar and event id), as one index sorted it. */
  const siteOrder = (a: DatasetEvent, b: DatasetEvent) => {
    const key = (e: DatasetEvent) =>
      `${new Date(instants(e).start.toMillis()).toISOString()} ${e.calendarId} ${e.id}`;
    return key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0;
  };

  /**
   * Every result path in the order one index gave them: events on a day of
   * the window from today on, soonest first, then the others with a day of
   * the window before today, most recent first.
   */
  function expectedOrder(keep: (e: DatasetEvent) => boolean, window?: [string, string]) {
    const inWindow = (day: string) => !window || (day >= window[0] && day <= window[1]);
    const matching = events.filter(keep);
    const upcoming = matching.filter((e) => daysOf(e).some((d) => d >= TODAY && inWindow(d)));
    const past = matching.filter(
      (e) => !upcoming.includes(e) && daysOf(e).some((d) => d < TODAY && inWindow(d)),
    );
    return [...upcoming.sort(siteOrder), ...past.sort(siteOrder).reverse()].map(
      (e) => paths([e])[0],
    );
  }

  it("should give the results of one index, in its order, from an index in parts", async () => {
    const parts = await indexParts();
    expect(parts.length).toBeGreaterThan(3);
    const month = (e: DatasetEvent) =>
      new Date(instants(e).start.toMillis()).toISOString().slice(0, 7);
    const cases: [string, (e: DatasetEvent) => boolean, [string, string]?][] = [
      ["", () => true],
      ["q=walk", (e) => /\bwalk/i.test(textOf(e))],
      ["q=market&cancelled=hide", (e) => /\bmarket/i.test(textOf(e)) && e.status !== "cancelled"],
      ["calendar=community", (e) => e.calendarId === "community"],
      [
        "category=family&attendance=in-person",
        (e) => e.categories.some((c) => c.id === "family") && e.attendanceMode !== "online",
      ],
      ["when=range&from=2026-02-15&to=2026-04-30", () => true, ["2026-02-15", "2026-04-30"]],
    ];
    // One visitor searching again and again, each search on a page of its own.
    const context = await visitor();
    for (const [query, keep, window] of cases) {
      const expected = expectedOrder(keep, window);
      // Results from several parts: their order is the merge's, not one index's.
      const months = new Set(events.filter((e) => expected.includes(paths([e])[0])).map(month));
      expect(months.size, query).toBeGreaterThan(1);
      const { page, problems } = await openIn(context, `/search/?${query}`);
      const rows = await allRows(page);
      expect(
        rows.map((row) => row.path),
        query,
      ).toEqual(expected);
      expect(problems, query).toEqual([]);
      await page.close();
    }
  });

  it("should load Pagefind's WebAssembly once, and only the parts a search's days can reach", async () => {
    const parts = await indexParts();
    const opened = async (query: string) => {
      const { page, context, problems, requested } = await open(`/search/?${query}`);
      const rows = await allRows(page);
      const loaded = new Set(
        requested.flatMap(
          (path) => /^\/pagefind\/([^/]+)\/pagefind-entry\.json$/.exec(path)?.[1] ?? [],
        ),
      );
      const wasm = requested.filter((path) => /^\/pagefind\/.*wasm\./.test(path));
      await context.close();
      return { rows, loaded, wasm, problems };
    };

    const everything = await opened("q=walk");
    expect(everything.loaded).toEqual(new Set(parts.map((part) => part.key)));
    expect(everything.wasm).toEqual(["/pagefind/wasm.en.pagefind"]);
    expect(everything.problems).toEqual([]);

    const today = await opened("when=today");
    const reach = parts.filter((part) => part.firstDay <= TODAY && part.lastDay >= TODAY);
    expect(reach.length).toBeGreaterThan(0);
    expect(reach.length).toBeLessThan(parts.length);
    expect(today.loaded).toEqual(new Set(reach.map((part) => part.key)));
    expect(today.rows.map((row) => row.path)).toEqual(expectedOrder(() => true, [TODAY, TODAY]));
    expect(today.problems).toEqual([]);
  });

  it("should restore its state from the URL, keep the URL in step, and go back", async () => {
    const { page, problems } = await open(
      "/search/?q=walk&calendar=sport&when=range&from=2026-03-01&to=2026-05-31&attendance=in-person&cancelled=hide",
    );
    await settled(page);
    expect(await page.inputValue("#search-q")).toBe("walk");
    expect(await page.inputValue("#search-calendar")).toBe("sport");
    expect(await page.inputValue("#search-when")).toBe("range");
    expect(await page.inputValue("#search-from")).toBe("2026-03-01");
    expect(await page.inputValue("#search-to")).toBe("2026-05-31");
    expect(await page.isChecked('input[name="attendance"][value="in-person"]')).toBe(true);
    expect(await page.isChecked('input[name="cancelled"]')).toBe(true);
    expect(await page.inputValue("#site-search-q")).toBe("walk");
    const restored = (await allRows(page)).map((row) => row.path).sort();
    expect(restored).toEqual(
      paths(
        events.filter(
          (e) =>
            /\bwalk/i.test(textOf(e)) &&
            e.calendarId === "sport" &&
            inDays("2026-03-01", "2026-05-31")(e) &&
            e.attendanceMode !== "online" &&
            e.status !== "cancelled",
        ),
      ),
    );

    const param = (name: string) => new URL(page.url()).searchParams.get(name);
    const steps = () => page.evaluate(() => history.length);
    // A chosen filter is a new history entry.
    const first = await steps();
    await page.selectOption("#search-calendar", "community");
    await expect.poll(() => param("calendar")).toBe("community");
    expect(await steps()).toBe(first + 1);
    // Live results while typing replace the current entry.
    await page.fill("#search-q", "");
    await expect.poll(() => param("q")).toBe(null);
    expect(await steps()).toBe(first + 1);
    await settled(page);
    // A submitted query is a new entry. The words are set without an input
    // event, so no live update can land first, whatever the machine's pace.
    await page.$eval("#search-q", (input) => {
      (input as HTMLInputElement).value = "run";
    });
    await page.press("#search-q", "Enter");
    await expect.poll(() => param("q")).toBe("run");
    expect(await steps()).toBe(first + 2);
    await settled(page);

    await page.goBack();
    await expect.poll(() => page.inputValue("#search-q")).toBe("");
    expect(param("calendar")).toBe("community");
    await page.goBack();
    await expect.poll(() => page.inputValue("#search-q")).toBe("walk");
    expect(param("calendar")).toBe("sport");
    expect(await page.inputValue("#search-calendar")).toBe("sport");
    expect(problems).toEqual([]);
  });

  it("should offer the calendar x category subscription that holds exactly the filtered events", async () => {
    const { page, problems } = await open("/search/?calendar=sport&category=family");
    const rows = await allRows(page);
    const expected = events.filter(
      (e) => e.calendarId === "sport" && e.categories.some((c) => c.id === "family"),
    );
    expect(expected.length).toBeGreaterThan(0);
    expect(rows.map((row) => row.path).sort()).toEqual(paths(expected));

    const panel = page.locator("#search-subscribe");
    await expect.poll(() => panel.getAttribute("data-exact")).toBe("true");
    expect(await panel.isVisible()).toBe(true);
    expect(await page.locator("#search-subscribe-note").isVisible()).toBe(false);
    expect(await page.textContent("#search-subscribe-heading")).toBe("Subscribe to these events");
    const files = await subscribeFiles(page);
    expect(files.ics).toBe(`${DEMO_SITE_URL}/calendars/sport/categories/family/calendar.ics`);
    expect(files.webcal).toBe(
      `webcal://events.example.org/calendars/sport/categories/family/calendar.ics`,
    );
    expect(decodeURIComponent(files.google)).toContain(files.webcal);
    expect(decodeURIComponent(files.outlook)).toContain(files.ics);
    expect(decodeURIComponent(files.office365)).toContain(files.ics);

    // The files exist and hold exactly the filtered events a subscription carries.
    const inSubscription = paths(expected.filter((e) => inFeedWindow(e)));
    expect(inSubscription.length).toBeGreaterThan(0);
    await expectFilesToHold(files, inSubscription);
    expect(problems).toEqual([]);
  });

  it("should offer exact category and calendar subscriptions, and name the nearest one otherwise", async () => {
    const exact = await open("/search/?category=music");
    await settled(exact.page);
    await expect
      .poll(() => exact.page.getAttribute("#search-subscribe", "data-exact"))
      .toBe("true");
    const music = await subscribeFiles(exact.page);
    expect(music.ics).toBe(`${DEMO_SITE_URL}/categories/music/calendar.ics`);
    await expectFilesToHold(
      music,
      paths(events.filter((e) => e.categories.some((c) => c.id === "music") && inFeedWindow(e))),
    );

    // Words, dates, places and hiding cancelled events cannot be subscribed to:
    // the nearest file is the category's, and the page says so.
    const nearest = await open("/search/?q=jazz&category=music&when=month&cancelled=hide");
    await settled(nearest.page);
    await expect
      .poll(() => nearest.page.getAttribute("#search-subscribe", "data-exact"))
      .toBe("false");
    const note = (await nearest.page.textContent("#search-subscribe-note")) ?? "";
    expect(note).toContain("search words");
    expect(note).toContain("a date range");
    expect(note).toContain("hiding cancelled events");
    expect(note).toContain("Music");
    expect(await nearest.page.textContent("#search-subscribe-heading")).toBe("Subscribe to Music");
    expect((await subscribeFiles(nearest.page)).ics).toBe(music.ics);

    // A pair whose events are all older than the subscription window has no
    // files: its calendar is offered instead.
    const old = events.filter(
      (e) => e.calendarId === "city" && e.categories.some((c) => c.id === "literature"),
    );
    expect(old.length).toBeGreaterThan(0);
    expect(old.some((e) => inFeedWindow(e))).toBe(false);
    const missing = await fetch(
      `${server.origin}/calendars/city/categories/literature/calendar.ics`,
    );
    expect(missing.status).toBe(404);
    const pair = await open("/search/?calendar=city&category=literature");
    await settled(pair.page);
    await expect
      .poll(() => pair.page.getAttribute("#search-subscribe", "data-calendar"))
      .toBe("city");
    expect(await pair.page.getAttribute("#search-subscribe", "data-category")).toBe("");
    expect((await subscribeFiles(pair.page)).ics).toBe(
      `${DEMO_SITE_URL}/calendars/city/calendar.ics`,
    );
    expect(await pair.page.isVisible("#search-subscribe-note")).toBe(true);
    for (const opened of [exact, nearest, pair]) expect(opened.problems).toEqual([]);
  });

  interface PanelFiles {
    ics: string;
    webcal: string;
    google: string;
    outlook: string;
    office365: string;
    rss: string;
    atom: string;
    json: string;
    qr: string;
  }

  async function subscribeFiles(page: Page): Promise<PanelFiles> {
    const href = (id: string) => page.getAttribute(`#${id}`, "href").then((v) => v ?? "");
    return {
      ics: await page.inputValue("#search-sub-url"),
      webcal: await href("search-sub-webcal"),
      google: await href("search-sub-google"),
      outlook: await href("search-sub-outlook"),
      office365: await href("search-sub-office365"),
      rss: await href("search-sub-rss"),
      atom: await href("search-sub-atom"),
      json: await href("search-sub-json"),
      qr: (await page.getAttribute("#search-sub-qr", "src")) ?? "",
    };
  }

  /** Fetches the panel's files from the server and parses them with independent parsers. */
  async function expectFilesToHold(files: PanelFiles, expected: readonly string[]) {
    const get = async (path: string) => {
      const response = await fetch(server.origin + path);
      expect(response.status, path).toBe(200);
      return response.text();
    };
    const local = (url: string) => url.slice(DEMO_SITE_URL.length);
    const ics = await get(local(files.ics));
    const viaIcalJs = icalJsEvents(ics).map((event) =>
      local(event.component.getFirstPropertyValue("url") as string),
    );
    const viaNodeIcal = Object.values(ical.sync.parseICS(ics))
      .filter((c): c is ical.VEvent => c?.type === "VEVENT")
      .map((event) => {
        const url = event.url as unknown as string | { val: string };
        return local(typeof url === "string" ? url : url.val);
      });
    expect(viaIcalJs.sort()).toEqual([...expected]);
    expect(viaNodeIcal.sort()).toEqual([...expected]);
    const json = JSON.parse(await get(files.json)) as { items: { url: string }[] };
    expect(json.items.map((item) => local(item.url)).sort()).toEqual([...expected]);
    const qr = await get(files.qr);
    expect(qr).toMatch(/^<svg [^>]*role="img"/);

    if (hasPythonModule("feedparser") && hasPythonModule("icalendar")) {
      const dir = mkdtempSync(join(tmpdir(), "ecp-search-files-"));
      try {
        const written = await Promise.all(
          [
            ["calendar.ics", local(files.ics)],
            ["feed.xml", files.rss],
            ["atom.xml", files.atom],
          ].map(async ([name, path]) => {
            const file = join(dir, name ?? "");
            writeFileSync(file, await get(path ?? ""));
            return file;
          }),
        );
        const [calendar] = parseIcs([written[0] ?? ""]);
        expect(calendar?.errors).toEqual([]);
        expect(calendar?.events.map((e) => local(e.url ?? "")).sort()).toEqual([...expected]);
        const feeds = parseFeeds(written.slice(1));
        for (const feed of feeds) {
          expect(feed.bozo, feed.path).toBe(false);
          expect(feed.entries.map((e) => local(e.link)).sort(), feed.path).toEqual([...expected]);
        }
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
  }

  it("should work under the production CSP, from its own origin only", async () => {
    const csp = (await fetch(`${server.origin}/search/`)).headers.get("content-security-policy");
    expect(csp).toContain("script-src 'self' 'wasm-unsafe-eval';");
    expect(csp).toContain("default-src 'self'");
    const { page, problems } = await open("/search/?q=repair");
    const violations: string[] = [];
    await page.exposeFunction("reportViolation", (text: string) => violations.push(text));
    await page.evaluate(() =>
      document.addEventListener("securitypolicyviolation", (event) =>
        (window as unknown as { reportViolation: (t: string) => void }).reportViolation(
          `${event.violatedDirective} ${event.blockedURI}`,
        ),
      ),
    );
    expect(countIn(await settled(page))).toBeGreaterThan(0);
    await page.selectOption("#search-calendar", "community");
    await settled(page);
    expect(violations).toEqual([]);
    expect(problems).toEqual([]);

    // Where a browser cannot start Pagefind's worker, the WebAssembly is
    // compiled on the page: what 'wasm-unsafe-eval' is there for.
    const onPage = await open("/search/?q=repair", { noWorker: true });
    expect(await onPage.page.evaluate(() => "Worker" in window)).toBe(false);
    expect(countIn(await settled(onPage.page))).toBeGreaterThan(0);
    expect(onPage.problems).toEqual([]);
  });

  it("should have no serious or critical accessibility violations, in light and dark mode", async () => {
    for (const colorScheme of ["light", "dark"] as const) {
      for (const path of [
        "/search/?q=walk&category=nature",
        "/search/?q=nothing-matches-this",
        "/events/",
        "/categories/family/",
        "/subscribe/",
      ]) {
        const { page } = await open(path, { colorScheme });
        if (path.startsWith("/search/")) await settled(page);
        const axe = await axeCheck(page);
        expect(axe.passes, path).toBeGreaterThan(10);
        expect(axe.serious, `${path} (${colorScheme})`).toEqual([]);
        await page.context().close();
      }
    }
  });

  it("should fit a 320 px wide screen without horizontal scrolling", async () => {
    for (const path of ["/search/?q=walk&when=range&from=2026-03-01&to=2026-04-30", "/events/"]) {
      const { page } = await open(path, { width: 320 });
      if (path.startsWith("/search/")) await settled(page);
      const filters = page.locator(".filter-panel summary");
      if ((await filters.count()) > 0) await filters.click();
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - window.innerWidth,
      );
      expect(overflow, path).toBeLessThanOrEqual(0);
      await page.context().close();
    }
  });

  /** Presses Tab until the focused element matches, within a bound. */
  async function tabTo(page: Page, selector: string): Promise<void> {
    for (let presses = 0; presses < 80; presses++) {
      if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return;
      await page.keyboard.press("Tab");
    }
    throw new Error(`Tab never reached ${selector}`);
  }

  it("should be usable with the keyboard alone, from the header field to the next page", async () => {
    const { page, problems } = await open("/");
    await tabTo(page, "#site-search-q");
    await page.keyboard.type("jazz");
    await page.keyboard.press("Enter");
    await page.waitForURL(/\/search\/\?q=jazz$/);
    expect(countIn(await settled(page))).toBe(
      events.filter((e) => /\bjazz/i.test(textOf(e))).length,
    );

    // The category filter by type-ahead on the focused select, then the results update.
    await tabTo(page, "#search-category");
    await page.keyboard.type("Music");
    await expect.poll(() => new URL(page.url()).searchParams.get("category")).toBe("music");
    await settled(page);

    // All events, then "More results" by keyboard; focus lands on the new results.
    await page.goto(`${server.origin}/search/`);
    const total = countIn(await settled(page));
    expect(total).toBe(events.length);
    await tabTo(page, "#search-next");
    await page.keyboard.press("Enter");
    await expect.poll(() => new URL(page.url()).searchParams.get("page")).toBe("2");
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe("search-results");
    expect(await page.textContent("#search-page")).toBe(`Page 2 of ${Math.ceil(total / 20)}`);
    expect(problems).toEqual([]);
  });

  it("should open the search with a list's scope from the list's filter form", async () => {
    const { page, problems } = await open("/calendars/sport/");
    await tabTo(page, ".filter-panel summary");
    await page.keyboard.press("Enter");
    await tabTo(page, "#filter-q");
    await page.keyboard.type("walk");
    await page.keyboard.press("Enter");
    await page.waitForURL(/\/search\//);
    await settled(page);
    const url = new URL(page.url());
    expect(url.searchParams.get("calendar")).toBe("sport");
    expect(url.searchParams.get("q")).toBe("walk");
    // Empty fields of the list's form do not clutter the shared URL.
    expect([...url.searchParams.keys()].sort()).toEqual(["calendar", "q"]);
    const rows = await allRows(page);
    expect(rows.map((row) => row.path).sort()).toEqual(
      paths(events.filter((e) => e.calendarId === "sport" && /\bwalk/i.test(textOf(e)))),
    );
    expect(new Set(rows.map((row) => row.calendar))).toEqual(new Set(["Sport & Outdoors"]));
    expect(problems).toEqual([]);
  });

  it("should send the header field to the search page without JavaScript, which says what to use instead", async () => {
    const { page } = await open("/calendars/sport/", { javaScript: false });
    expect(await page.isVisible(".filter-panel")).toBe(false);
    await page.fill("#site-search-q", "jazz");
    await page.press("#site-search-q", "Enter");
    await page.waitForURL(/\/search\/\?q=jazz$/);
    const text = await page.locator("main").innerText();
    expect(text).toContain("need JavaScript");
    expect(await page.isVisible("#search")).toBe(false);
    for (const href of ["/events/", "/calendars/", "/categories/"]) {
      expect(await page.locator(`main a[href="${href}"]`).isVisible(), href).toBe(true);
    }
  });

  it("should show the results' date, time, place, calendar and status like the lists", async () => {
    const { page, problems } = await open("/search/?q=swim");
    await settled(page);
    const rows = await rowsOnPage(page);
    const swim = events.find((e) => e.title.startsWith("Canal Swim"));
    if (!swim) throw new Error("no canal swim in the demo");
    const row = rows.find((r) => r.path === paths([swim])[0]);
    expect(row?.badge).toBe("Cancelled");
    expect(row?.calendar).toBe("Sport & Outdoors");
    expect(Date.parse(row?.start ?? "")).toBe(
      DateTime.fromISO(swim.start, { zone: swim.timeZone }).toMillis(),
    );
    const listed = await page.locator(".event-row", { hasText: "Canal Swim" }).innerText();
    expect(listed).toContain("Amstel Boathouse");
    expect(listed).toMatch(/09:00\s*–\s*12:00/);
    expect(problems).toEqual([]);
  });
});

/*
 * The search itself in each engine: Pagefind's script, its worker and its
 * WebAssembly under the search page's policy ('wasm-unsafe-eval'), the
 * results and "More results". The cases above are about what the page shows
 * and run in Chromium only; this one is about the engine running it.
 */
describeEngines("the search page's search", (engine) => {
  const server = useServedDemo();

  /** The status line once the page has answered, and its pager's page `shown`. */
  const answered = (page: Surface, shown: number) =>
    page.waitFor((n: number) => {
      const status = document.getElementById("search-status");
      const pager = document.getElementById("search-pager");
      return status?.dataset.state === "answered" && pager?.dataset.page === String(n)
        ? status.textContent
        : null;
    }, shown);

  it("should find the events a word names, and only those, upcoming first, page after page", async () => {
    const page = await engine.open(`${server.origin}/search/?q=jazz`, {
      viewport: { width: 1200, height: 900 },
    });
    const rows: { path: string; section: string }[] = [];
    // Bounded: 20 pages of results at most.
    for (let shown = 1; shown <= 20; shown++) {
      await answered(page, shown);
      rows.push(
        ...(await page.evaluate(() =>
          [...document.querySelectorAll("#search-results .event-row")].map((item) => ({
            path: item.querySelector(".event-title a")?.getAttribute("href") ?? "",
            section: item.closest("section")?.querySelector("h2")?.id ?? "",
          })),
        )),
      );
      const more = await page.evaluate(() => {
        const next = document.getElementById("search-next");
        return next !== null && !next.hidden && getComputedStyle(next).display !== "none";
      });
      if (!more) break;
      await page.click("#search-next");
    }
    const expected = events.filter((event) => /\bjazz/i.test(textOf(event)));
    expect(rows.map((row) => row.path).sort()).toEqual(paths(expected));
    const upcoming = rows.filter((row) => row.section === "search-upcoming");
    expect(upcoming.map((row) => row.path).sort()).toEqual(paths(expected.filter(isUpcoming)));
    expect(rows.slice(0, upcoming.length)).toEqual(upcoming);
    expect(page.problems).toEqual([]);
  });
});
