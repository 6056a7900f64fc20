import { readFileSync } from "node:fs";
import { mf2 } from "microformats-parser";
import { beforeAll, describe, expect, it } from "vitest";
import {
  type RichResults,
  richResultsLines,
  richResultsOf,
} from "../../src/outputs/rich-results.ts";
import { DEMO_SITE_URL } from "../helpers/demo-build.ts";
import { demoEvents, eventUrl } from "../helpers/demo-expectations.ts";
import { builtDemoSite } from "../helpers/demo-site.ts";
import { listFilesSync } from "../helpers/files.ts";

/*
 * The demo site as IndieWeb readers and fediverse bridges read it: a real
 * microformats2 parser (microformats-parser) finds an h-event on every event
 * page and list row, with the same facts as the page's JSON-LD and the
 * portal's data. And the build report's rich results block says what the
 * event pages' JSON-LD carries.
 */

type Properties = Record<string, unknown[]>;
interface Item {
  readonly type: string[];
  readonly properties: Properties;
  readonly value?: string;
}

const first = (item: Item | undefined, name: string): unknown => item?.properties[name]?.[0];

describe("microformats and the rich results report of the demo build", () => {
  let dir: string;
  let log: string;
  let eventPages: string[];

  beforeAll(async () => {
    const site = await builtDemoSite();
    dir = site.dir;
    log = site.stdout;
    eventPages = listFilesSync(dir).filter((file) =>
      /^calendars\/[^/]+\/events\/[^/]+\/index\.html$/.test(file),
    );
  });

  const parse = (file: string): Item[] => {
    const html = readFileSync(`${dir}/${file}`, "utf8");
    const base = `${DEMO_SITE_URL}/${file.replace(/index\.html$/, "")}`;
    return mf2(html, { baseUrl: base }).items as Item[];
  };
  const jsonLdOf = (file: string): Record<string, unknown> | null => {
    const html = readFileSync(`${dir}/${file}`, "utf8");
    const block = /<script type="application\/ld\+json">([^<]*)<\/script>/.exec(html)?.[1];
    return block ? (JSON.parse(block) as Record<string, unknown>) : null;
  };

  it("should give every event page one h-event with the facts of its JSON-LD and the portal", () => {
    const byUrl = new Map(demoEvents().map((event) => [eventUrl(event), event]));
    let checked = 0;
    for (const file of eventPages) {
      const ld = jsonLdOf(file);
      const events = parse(file).filter((item) => item.type.includes("h-event"));
      // A moved event's page points to its new one: no event there, in either form.
      if (!ld) {
        expect(events, file).toEqual([]);
        continue;
      }
      expect(events, file).toHaveLength(1);
      const event = events[0];
      const url = String(ld.url);
      expect(first(event, "name"), file).toBe(ld.name);
      expect(first(event, "url"), file).toBe(url);
      expect(first(event, "start"), file).toBe(ld.startDate);
      if (ld.endDate !== ld.startDate) expect(first(event, "end"), file).toBe(ld.endDate);
      const source = byUrl.get(url);
      expect(source, file).toBeDefined();
      expect(event?.properties.category ?? [], file).toEqual(
        source?.categories.map((c) => c.name) ?? [],
      );
      if (ld.description && source?.summary)
        expect(first(event, "summary"), file).toBe(source.summary);

      const places = (Array.isArray(ld.location) ? ld.location : [ld.location]).filter(
        (l): l is Record<string, unknown> => Boolean(l) && l["@type"] === "Place",
      );
      const place = places[0];
      const location = first(event, "location");
      if (place?.address) {
        // A place with an address is an h-card with an h-adr, part for part.
        const card = location as Item;
        expect(card.type, file).toEqual(["h-card"]);
        if (place.name) expect(first(card, "name"), file).toBe(place.name);
        const adr = first(card, "adr") as Item;
        const address = place.address as Record<string, string | undefined>;
        for (const [mf, ldName] of [
          ["street-address", "streetAddress"],
          ["locality", "addressLocality"],
          ["postal-code", "postalCode"],
          ["country-name", "addressCountry"],
        ] as const) {
          if (address[ldName]) expect(first(adr, mf), `${file} ${mf}`).toBe(address[ldName]);
        }
      } else if (place?.name) {
        expect(location, file).toBe(place.name);
      }

      const organizer = ld.organizer as Record<string, string> | undefined;
      if (organizer) {
        const card = first(event, "organizer") as Item;
        expect(card.type, file).toEqual(["h-card"]);
        expect(first(card, "name"), file).toBe(organizer.name);
        if (organizer.url) expect(first(card, "url"), file).toBe(organizer.url);
      } else {
        expect(event?.properties.organizer, file).toBeUndefined();
      }
      checked += 1;
    }
    expect(checked).toBeGreaterThan(100);
  });

  it("should make every list row an h-event with its name, page and start", () => {
    for (const file of ["index.html", "events/index.html", "calendars/culture/index.html"]) {
      const html = readFileSync(`${dir}/${file}`, "utf8");
      const rows = html.match(/<li class="event-row/g)?.length ?? 0;
      const events = parse(file).filter((item) => item.type.includes("h-event"));
      expect(events.length, file).toBe(rows);
      expect(rows, file).toBeGreaterThan(0);
      for (const event of events) {
        const url = String(first(event, "url"));
        const page = `${url.slice(DEMO_SITE_URL.length + 1)}index.html`;
        const ld = jsonLdOf(page);
        expect(first(event, "name"), url).toBe(ld?.name);
        // All-day rows give their date, timed rows their instant.
        expect(String(ld?.startDate).startsWith(String(first(event, "start"))), url).toBe(true);
      }
    }
  });

  it("should report the rich results shares the event pages' JSON-LD carries", () => {
    const emitted = eventPages.flatMap((file): Record<string, unknown>[] => {
      const ld = jsonLdOf(file);
      return ld ? [ld] : [];
    });
    const counted: RichResults = richResultsOf(emitted);
    expect(counted.events).toBe(emitted.length);
    for (const line of richResultsLines(counted)) expect(log).toContain(line);
    // The demo portal has no prices or performers: the report says which keys would fill them.
    expect(log).toMatch(/to fill {5}map .*`offers\.price`.*`performer`/);
  });
});
