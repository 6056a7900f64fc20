import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { EMPTY_FIELD_MAP } from "../../src/model/field-map.ts";
import { normalizeEvent } from "../../src/model/normalize-event.ts";
import { paths } from "../../src/model/url-scheme.ts";
import type { WireRecord } from "../../src/model/wire.ts";
import { buildSite, removeBuild } from "../helpers/demo-build.ts";
import { listFilesSync } from "../helpers/files.ts";
import {
  checkProperty,
  hostileDetails,
  hostileValue,
  publishableEvent,
} from "../helpers/hostile-records.ts";
import { type HtmlElement, htmlElements } from "../helpers/html-elements.ts";
import { type RawCalendar, serveRawPortal } from "../helpers/raw-portal.ts";

/*
 * Random hostile records (test/helpers/hostile-records.ts) through a real
 * build: a portal serving them as they are (test/helpers/raw-portal.ts),
 * `npm run build`'s entry point, and the written site read back. Whatever
 * the records hold, the build succeeds, publishes every event it can read,
 * no page runs anything the site did not write, and each event adds a
 * bounded number of files and bytes. Seeded: a failure prints its seed and
 * path, and runs again the same with them.
 */

const CALENDAR: WireRecord = { id: "c", name: "Calendar", timeZone: "Europe/Amsterdam" };
const EVENTS_PER_BUILD = 6;

/**
 * What one event may add to the site, whatever it sends (docs/configuration.md,
 * "Limits per record"): a record with every field at its limit, in
 * four-byte characters, adds 345 files and 42 MB (most of it its
 * description, in the feeds and calendar of each of its 30 categories, and
 * of each calendar x category pair). Share cards are off here: with them an
 * event has up to four more files, each of a fixed size.
 */
const FILES_PER_EVENT = 360;
const BYTES_PER_EVENT = 45_000_000;

interface Output {
  readonly files: number;
  readonly bytes: number;
}

/** Builds the site of `calendars` and reads what it wrote; the build is removed after `check`. */
async function build(
  calendars: readonly RawCalendar[],
  check: (dir: string, files: readonly string[]) => void = () => {},
): Promise<Output> {
  const portal = await serveRawPortal(calendars);
  const site = await buildSite({
    EVENT_API_URL: `${portal.origin}/v1`,
    EVENT_API_TOKEN: "hostile-records-token",
    SHARE_CARDS: "off",
  });
  try {
    expect(site.status, site.log).toBe(0);
    const files = listFilesSync(site.dir);
    check(site.dir, files);
    const bytes = files.reduce((sum, file) => sum + statSync(join(site.dir, file)).size, 0);
    return { files: files.length, bytes };
  } finally {
    await portal.close();
    removeBuild(site);
  }
}

const URL_ATTRIBUTES = ["href", "src", "action", "formaction", "poster", "cite", "data", "srcset"];

/** What a browser would run or follow into script in one element, if anything. */
function activeContent(element: HtmlElement): string[] {
  const problems: string[] = [];
  const name = element.tagName;
  for (const [attribute, value] of element.attributes) {
    if (attribute.startsWith("on")) problems.push(`<${name} ${attribute}>`);
    // Browsers ignore whitespace and control characters inside a scheme.
    // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping them is the point
    const scheme = value.replace(/[\u0000-\u0020]/g, "").toLowerCase();
    if (URL_ATTRIBUTES.includes(attribute) && /^(javascript|vbscript|data:text\/html)/.test(scheme))
      problems.push(`<${name} ${attribute}="${value}">`);
  }
  const src = element.attributes.get("src") ?? element.attributes.get("data");
  const ownSite = (url: string) => url.startsWith("/") && !url.startsWith("//");
  if (name === "script") {
    if (element.attributes.get("type") === "application/ld+json") {
      try {
        JSON.parse(element.text);
      } catch {
        problems.push("<script type=application/ld+json> that is not JSON");
      }
    } else if (src === undefined || !ownSite(src) || element.text.trim() !== "") {
      problems.push(`<script> the site did not write: ${src ?? element.text.slice(0, 80)}`);
    }
  }
  if (["iframe", "object", "embed", "frame"].includes(name) && !ownSite(src ?? ""))
    problems.push(`<${name} src="${src}">`);
  return problems;
}

/** The events a build publishes from `calendar`, as the build's own normalizer reads them. */
function publishedIds(calendar: RawCalendar): string[] {
  const options = { fieldMap: EMPTY_FIELD_MAP, defaultTimeZone: "Europe/Amsterdam" };
  const zone = { id: "c", timeZone: "Europe/Amsterdam" };
  return calendar.events.flatMap(({ listed, details }) => {
    const result = normalizeEvent(listed, details, zone, options);
    return result.ok ? [result.value.id] : [];
  });
}

/** Readable events with hostile fields, and records the build cannot read at all. */
const hostileCalendar: fc.Arbitrary<RawCalendar> = fc
  .tuple(
    fc.tuple(...Array.from({ length: EVENTS_PER_BUILD }, (_, i) => publishableEvent(`e${i}`))),
    fc.array(fc.tuple(hostileValue, hostileDetails), { maxLength: 3 }),
  )
  .map(([readable, unreadable]) => ({
    record: CALENDAR,
    events: [
      ...readable,
      ...unreadable.map(([id, fields]) => ({
        listed: { ...fields, id },
        details: { ...fields, id },
      })),
    ],
  }));

describe("a build of random hostile records", () => {
  let empty: Output;

  beforeAll(async () => {
    empty = await build([{ record: CALENDAR, events: [] }]);
  }, 120_000);

  it("should succeed, publish every event it can read, run nothing the site did not write, and stay within its bounds per event", async () => {
    await checkProperty(
      fc.asyncProperty(hostileCalendar, async (calendar) => {
        const published = publishedIds(calendar);
        const output = await build([calendar], (dir, files) => {
          for (const id of published)
            expect(files).toContain(`${paths.event("c", id).slice(1)}index.html`);
          for (const file of files.filter((name) => name.endsWith(".html"))) {
            const html = readFileSync(join(dir, file), "utf8");
            expect(htmlElements(html).flatMap(activeContent), file).toEqual([]);
          }
        });
        const events = Math.max(1, published.length);
        expect(output.files - empty.files).toBeLessThanOrEqual(events * FILES_PER_EVENT);
        expect(output.bytes - empty.bytes).toBeLessThanOrEqual(events * BYTES_PER_EVENT);
      }),
      { seed: 20260320, numRuns: 3 },
    );
  }, 240_000);
});
