import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { builtDemoSite } from "../helpers/demo-site.ts";
import { htmlElements } from "../helpers/html-elements.ts";

/*
 * What the built demo offers to subscribe with, read as a browser parses the
 * pages: every way (docs/followers.md, "Phones and calendar apps"), each
 * link's address taken apart and checked against the calendar file it is for.
 */

let root = "";
beforeAll(async () => {
  root = (await builtDemoSite()).dir;
});

const page = (path: string) => readFileSync(join(root, path, "index.html"), "utf8");

/** One set of subscribe choices: each link by its `data-choice`, and the address to copy. */
interface Choices {
  readonly links: ReadonlyMap<string, URL>;
  readonly copy: URL;
}

/** The page's sets of choices, in order: each ends with its address field. */
function choiceSets(html: string): Choices[] {
  const sets: Choices[] = [];
  let links = new Map<string, URL>();
  for (const element of htmlElements(html)) {
    const choice = element.attributes.get("data-choice");
    if (!choice) continue;
    if (element.tagName === "input") {
      expect(element.attributes.has("readonly")).toBe(true);
      sets.push({ links, copy: new URL(element.attributes.get("value") ?? "") });
      links = new Map();
    } else {
      links.set(choice, new URL(element.attributes.get("href") ?? ""));
    }
  }
  return sets;
}

/** The choices for the calendar file at `icsPath`, checked one by one. */
function expectEveryChoice(sets: readonly Choices[], icsPath: string): void {
  const found = sets.find((set) => set.copy.pathname === icsPath);
  expect(found, icsPath).toBeDefined();
  if (!found) return;
  const { links, copy } = found;
  // The address to copy is the published file, over http(s).
  expect(copy.protocol).toMatch(/^https?:$/);
  expect(existsSync(join(root, copy.pathname))).toBe(true);
  const webcal = `webcal://${copy.host}${copy.pathname}`;
  expect([...links.keys()].sort()).toEqual(
    ["apple", "google", "icsx5", "office365", "outlook", "yahoo"].sort(),
  );
  // Apple and ICSx5 open webcal:, the same file.
  expect(links.get("apple")?.href).toBe(webcal);
  expect(links.get("icsx5")?.href).toBe(webcal);
  // Google's page that adds a calendar by its address.
  const google = links.get("google");
  expect(google?.host).toBe("calendar.google.com");
  expect(google?.pathname).toBe("/calendar/render");
  expect(google?.searchParams.get("cid")).toBe(webcal);
  // Outlook on the web subscribes to http(s) addresses only.
  for (const [choice, host] of [
    ["outlook", "outlook.live.com"],
    ["office365", "outlook.office.com"],
  ] as const) {
    const outlook = links.get(choice);
    expect(outlook?.host, choice).toBe(host);
    expect(outlook?.pathname).toBe("/calendar/0/addfromweb");
    expect(outlook?.searchParams.get("url")).toBe(copy.href);
    expect(outlook?.searchParams.get("name")).not.toBe("");
  }
  // Yahoo has no link that subscribes: its calendar, where the copied address is pasted.
  expect(links.get("yahoo")?.origin).toBe("https://calendar.yahoo.com");
}

describe("ics-subscribe", () => {
  it("should offer every way to subscribe to a calendar, a category, a place and a series on /subscribe/", () => {
    const sets = choiceSets(page("subscribe"));
    const category = readdirSync(join(root, "categories")).find((name) =>
      existsSync(join(root, "categories", name, "calendar.ics")),
    );
    const place = readdirSync(join(root, "places")).find((name) =>
      name.startsWith("community-centre-de-pijp-"),
    );
    const series = readdirSync(join(root, "calendars/community/series")).find((name) =>
      name.startsWith("repair-cafe-"),
    );
    expect([category, place, series]).not.toContain(undefined);
    for (const icsPath of [
      "/calendar.ics",
      "/calendars/culture/calendar.ics",
      `/categories/${category}/calendar.ics`,
      `/places/${place}/calendar.ics`,
      `/calendars/community/series/${series}/calendar.ics`,
    ]) {
      expectEveryChoice(sets, icsPath);
    }
  });

  it("should offer every way on a place's and a series' own page", () => {
    const place = readdirSync(join(root, "places")).find((name) => name.startsWith("amstel"));
    expectEveryChoice(choiceSets(page(`places/${place}`)), `/places/${place}/calendar.ics`);
  });

  it("should offer an event's one-off copies and its series' subscription in Add to calendar", () => {
    const series = readdirSync(join(root, "calendars/community/series")).find((name) =>
      name.startsWith("repair-cafe-"),
    );
    const seriesPage = page(`calendars/community/series/${series}`);
    const eventPath = seriesPage.match(/href="(\/calendars\/community\/events\/[^"]+\/)"/)?.[1];
    expect(eventPath).toBeDefined();
    const html = page(eventPath ?? "");
    const section = html.slice(html.indexOf('<section class="add-to-calendar"'));
    const added = new Map(
      htmlElements(section.slice(0, section.indexOf("</section>")))
        .filter((element) => element.attributes.has("data-add"))
        .map((element) => [
          element.attributes.get("data-add"),
          new URL(element.attributes.get("href") ?? "", "http://localhost:8080/"),
        ]),
    );
    expect([...added.keys()].sort()).toEqual(
      ["download", "google", "office365", "outlook", "yahoo"].sort(),
    );
    expect(added.get("google")?.searchParams.get("action")).toBe("TEMPLATE");
    const yahoo = added.get("yahoo");
    expect(yahoo?.origin).toBe("https://calendar.yahoo.com");
    expect(yahoo?.searchParams.get("v")).toBe("60");
    expect(yahoo?.searchParams.get("title")).toMatch(/Repair/);
    expect(yahoo?.searchParams.get("st")).toMatch(/^\d{8}(T\d{6}Z)?$/);
    // Following the event: its series' calendar, with every way to subscribe.
    expectEveryChoice(
      choiceSets(section.slice(0, section.indexOf("</section>"))),
      `/calendars/community/series/${series}/calendar.ics`,
    );
  });

  it("should keep /subscribe/ bounded: the busiest places and series, each folded", () => {
    const html = page("subscribe");
    const folded = htmlElements(html).filter(
      (element) => element.tagName === "details" && element.attributes.has("data-scope-kind"),
    );
    expect(folded.length).toBeGreaterThan(0);
    expect(folded.length).toBeLessThanOrEqual(60);
    // Opening one needs no script: <details> without `open`.
    expect(folded.every((element) => !element.attributes.has("open"))).toBe(true);
  });
});
