import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { paths } from "../../src/model/url-scheme.ts";
import { type PortalDataset, type RunningPortal, startPortal } from "../../src/portal/index.ts";
import { endedAtNow, hasCardAtNow, hoursAfterNow, NOW } from "../helpers/clock.ts";
import { runScript } from "../helpers/demo-build.ts";
import { demoPart, startingBetween } from "../helpers/demo-parts.ts";
import { listFilesSync } from "../helpers/files.ts";
import { decodePng, pngSize } from "../helpers/png.ts";
import { forgetPublishedInputs } from "../helpers/published-inputs.ts";
import { tempDir } from "../helpers/temp-dir.ts";

/**
 * Share cards in real builds through the build's entry point, against the
 * reference portal with part of the demo's events (some with images), for a
 * site published in a folder: the meta tags of each kind of page, the
 * structured data's images, the files they name, and the renders a cold, a
 * warm and a changed build do, counted from the build's metrics.
 */

const SITE_URL = "https://example.org/events";

/** The demo's events that start in the two weeks before NOW and the three after it (images among both). */
const smallDemo = (): PortalDataset =>
  demoPart(
    (event) =>
      startingBetween("2026-03-06", "2026-03-19")(event) ||
      startingBetween("2026-03-21", "2026-04-10")(event),
  );

interface Metrics {
  readonly counters: Readonly<Record<string, number>>;
  /** The build's log, with its report. */
  readonly log: string;
}

let portal: RunningPortal;
let dataset: PortalDataset;
const work = tempDir("ecp-share-cards-");
const site = join(work, "site");
let builds = 0;

async function build(
  output: string,
  cacheDir: string,
  env: Record<string, string> = {},
): Promise<Metrics> {
  const metricsFile = join(work, `metrics-${++builds}.json`);
  const run = await runScript("src/cli/build.ts", ["--output", output, "--metrics", metricsFile], {
    EVENT_API_URL: portal.url,
    EVENT_API_TOKEN: portal.token,
    EVENT_API_CACHE_DIR: cacheDir,
    SITE_URL,
    ...env,
  });
  expect(run.status, run.log).toBe(0);
  return { ...JSON.parse(readFileSync(metricsFile, "utf8")), log: run.log } as Metrics;
}

const rendered = (metrics: Metrics) => metrics.counters["cards.rendered"] ?? 0;
const page = (path: string) => readFileSync(join(site, path, "index.html"), "utf8");

function meta(html: string): Record<string, string> {
  const found: Record<string, string> = {};
  for (const match of html.matchAll(/<meta (?:property|name)="([^"]+)" content="([^"]*)">/g)) {
    found[match[1] as string] = match[2] as string;
  }
  return found;
}

/** The file an absolute URL of the site names, in the output folder. */
function fileOf(url: string): string {
  expect(url.startsWith(`${SITE_URL}/`)).toBe(true);
  return join(site, url.slice(SITE_URL.length));
}

function jsonLd(html: string): Record<string, unknown> {
  const match = /<script type="application\/ld\+json">([^<]*)<\/script>/.exec(html);
  if (!match) throw new Error("no JSON-LD");
  return JSON.parse(match[1] as string) as Record<string, unknown>;
}

/** What an event's oEmbed answer names as its thumbnail: URL, width, height. */
function oembedThumbnail(output: string, event: { id: string; calendarId: string }): unknown[] {
  const answer = JSON.parse(
    readFileSync(join(output, paths.oembedEvent(event.calendarId, event.id)), "utf8"),
  ) as Record<string, unknown>;
  return [answer.thumbnail_url, answer.thumbnail_width, answer.thumbnail_height];
}

let cold: Metrics;

beforeAll(async () => {
  dataset = smallDemo();
  portal = await startPortal({ port: 0, now: NOW, dataset });
  cold = await build(site, join(work, "cache"));
});

afterAll(async () => {
  await portal.close();
});

describe("share cards", () => {
  it("should give every kind of page a 1200 x 630 card at an absolute URL in the site's folder", () => {
    const calendar = dataset.calendars[0]?.id as string;
    const event = dataset.events.find((e) => e.calendarId === calendar && !endedAtNow(e)) as {
      id: string;
    };
    const past = dataset.events.find((e) => e.calendarId === calendar && endedAtNow(e)) as {
      id: string;
    };
    const category = readdirSync(join(site, "categories"), { withFileTypes: true }).find((entry) =>
      entry.isDirectory(),
    )?.name as string;
    const month = readdirSync(join(site, "calendars", calendar)).find((name) =>
      /^\d{4}$/.test(name),
    );
    const monthDir = `calendars/${calendar}/${month}/${readdirSync(join(site, "calendars", calendar, month as string))[0]}`;
    const pages = {
      home: "",
      allEvents: "events",
      calendars: "calendars",
      calendar: `calendars/${calendar}`,
      month: monthDir,
      category: `categories/${category}`,
      event: `calendars/${calendar}/events/${event.id}`,
      pastEvent: `calendars/${calendar}/events/${past.id}`,
      search: "search",
      subscribe: "subscribe",
    };
    const cards: Record<string, string> = {};
    for (const [kind, path] of Object.entries(pages)) {
      const tags = meta(page(path));
      expect(tags["og:image:width"], kind).toBe("1200");
      expect(tags["og:image:height"], kind).toBe("630");
      expect(tags["og:image:type"], kind).toBe("image/png");
      expect(tags["twitter:card"], kind).toBe("summary_large_image");
      expect(tags["og:image:alt"], kind).not.toBe("");
      const url = tags["og:image"] as string;
      expect(url, kind).toMatch(/^https:\/\/example\.org\/events\/cards\/[0-9a-f]{32}\.png$/);
      const png = decodePng(readFileSync(fileOf(url)));
      expect([png.width, png.height], kind).toEqual([1200, 630]);
      cards[kind] = url;
    }
    // The site's card on pages of their own kind, each calendar's on its lists and months.
    expect(cards.allEvents).toBe(cards.home);
    expect(cards.search).toBe(cards.home);
    expect(cards.month).toBe(cards.calendar);
    expect(new Set([cards.home, cards.calendar, cards.category, cards.event]).size).toBe(4);
    // An event that has ended shares its calendar's card: none is drawn for it.
    expect(cards.pastEvent).toBe(cards.calendar);
    expect(jsonLd(page(pages.pastEvent)).image ?? []).not.toContain(cards.calendar);
    // The event's card says what the event page says.
    const eventPage = page(pages.event);
    const title = /<h1[^>]*>([^<]*)<\/h1>/.exec(eventPage)?.[1] as string;
    expect(meta(eventPage)["og:image:alt"]).toContain(title);
  });

  it("should name the event's image and cards of 16:9, 4:3 and 1:1 in its structured data", () => {
    const withImage = dataset.events.find((e) => e.image && !endedAtNow(e)) as {
      id: string;
      calendarId: string;
    };
    const data = jsonLd(page(`calendars/${withImage.calendarId}/events/${withImage.id}`));
    const images = data.image as string[];
    expect(Array.isArray(images)).toBe(true);
    // The portal's image first (as copied into the site), then the three cards.
    expect(images[0]).toMatch(/^https:\/\/example\.org\/events\/media\//);
    const ratios = images.slice(1).map((url) => {
      const { width, height } = pngSize(readFileSync(fileOf(url)));
      expect(width * height).toBeGreaterThanOrEqual(50_000);
      return width / height;
    });
    expect(ratios).toHaveLength(3);
    expect(ratios[0]).toBeCloseTo(16 / 9, 2);
    expect(ratios[1]).toBeCloseTo(4 / 3, 2);
    expect(ratios[2]).toBe(1);
  });

  it("should render each card once cold, none warm, and only an edited event's cards after an edit", async () => {
    const cards = listFilesSync(join(site, "cards"));
    const pages = (folder: string, pattern: RegExp) =>
      listFilesSync(join(site, folder)).filter((file) => pattern.test(file)).length;
    const eventPages = listFilesSync(join(site, "calendars")).flatMap((file) => {
      const [, calendarId, id] = /^([^/]+)\/events\/([^/]+)\/index\.html$/.exec(file) ?? [];
      return dataset.events.filter((e) => e.calendarId === calendarId && e.id === id);
    });
    const calendars = pages("calendars", /^[^/]+\/index\.html$/);
    const categories = pages("categories", /^[^/]+\/index\.html$/);
    const ahead = eventPages.filter((event) => !endedAtNow(event)).length;
    expect(ahead).toBeGreaterThan(10);
    expect(ahead).toBeLessThan(eventPages.length - 5);
    // Four per event not ended, one per calendar and category, one for the site: each drawn
    // once, though most were asked for twice (while fetching, then for the pages).
    expect(cards).toHaveLength(4 * ahead + calendars + categories + 1);
    expect(rendered(cold)).toBe(cards.length);
    // The default draws every shape for a site of this size, and the report says why.
    expect(cold.log).toContain(
      `  cards      ${cards.length} files, ${cards.length} drawn; each event of the next 60 days 1200x630 and Google's 16:9, 4:3 and 1:1 (SHARE_CARDS=auto: ${ahead} events, up to 2,500)`,
    );

    // Every output visited (not the site kept whole, as when nothing changed): each card kept by its inputs.
    forgetPublishedInputs(join(work, "cache"));
    const warm = await build(site, join(work, "cache"));
    expect(rendered(warm)).toBe(0);
    expect(warm.log).toContain(`  cards      ${cards.length} files, 0 drawn;`);
    expect(warm.counters["cards.reused"]).toBe(cards.length);
    expect(listFilesSync(join(site, "cards"))).toEqual(cards);

    // An edited event not ended gets its four cards again; one that has ended, none.
    const edited = dataset.events.find((e) => !endedAtNow(e)) as PortalDataset["events"][number];
    const editedPast = dataset.events.find(endedAtNow) as PortalDataset["events"][number];
    portal.updateEvent(edited.calendarId, edited.id, { title: `${edited.title}, moved indoors` });
    portal.updateEvent(editedPast.calendarId, editedPast.id, {
      title: `${editedPast.title}, again`,
    });
    const changed = await build(site, join(work, "cache"));
    expect(rendered(changed)).toBe(4);
    const after = listFilesSync(join(site, "cards"));
    expect(after.filter((file) => !cards.includes(file))).toHaveLength(4);
    // What the cache keeps: the cards this site publishes, no more.
    expect(readdirSync(join(work, "cache", "cards")).sort()).toEqual(
      after.map((file) => file.replace(/^cards\//, "")).sort(),
    );
  });

  it("should draw the same bytes in a build from scratch elsewhere", async () => {
    const other = join(work, "other");
    await build(other, join(work, "other-cache"));
    const names = listFilesSync(join(other, "cards"));
    expect(names).toEqual(listFilesSync(join(site, "cards")));
    for (const name of names) {
      const bytes = readFileSync(join(other, "cards", name));
      expect(bytes.equals(readFileSync(join(site, "cards", name))), name).toBe(true);
    }
  });

  it("should draw the link preview card only with SHARE_CARDS=og, and name it in the structured data", async () => {
    const og = join(work, "og");
    const metrics = await build(og, join(work, "og-cache"), { SHARE_CARDS: "og" });
    const withImage = dataset.events.find((e) => e.image && !endedAtNow(e)) as {
      id: string;
      calendarId: string;
    };
    const html = readFileSync(
      join(og, "calendars", withImage.calendarId, "events", withImage.id, "index.html"),
      "utf8",
    );
    const images = jsonLd(html).image as string[];
    expect(images).toHaveLength(2);
    expect(images[1]).toBe(meta(html)["og:image"]);
    // The oEmbed answer's preview is the same card, which chat apps and forums can show.
    expect(oembedThumbnail(og, withImage)).toEqual([meta(html)["og:image"], 1200, 630]);
    const eventPages = listFilesSync(join(og, "calendars")).filter((file) =>
      /^[^/]+\/events\/[^/]+\/index\.html$/.test(file),
    ).length;
    const cards = listFilesSync(join(og, "cards")).length;
    expect(cards).toBeLessThan(eventPages * 2);
    expect(metrics.log).toContain(
      `  cards      ${cards} files, ${cards} drawn; each event of the next 60 days 1200x630 only (SHARE_CARDS=og)`,
    );
  });

  it("should give an event its card SHARE_CARDS_DAYS days ahead, drawn in the build of that day", async () => {
    const near = join(work, "near");
    const cache = join(work, "near-cache");
    const days = 7;
    const metrics = await build(near, cache, { SHARE_CARDS_DAYS: String(days) });
    const pageOf = (e: { calendarId: string; id: string }) =>
      join(near, "calendars", e.calendarId, "events", e.id, "index.html");
    const htmlOf = (e: { calendarId: string; id: string }) => readFileSync(pageOf(e), "utf8");
    const withPages = dataset.events.filter((e) => existsSync(pageOf(e)));
    const withCards = withPages.filter((e) => hasCardAtNow(e, days));
    const later = withPages.filter((e) => !endedAtNow(e) && !hasCardAtNow(e, days));
    expect(withCards.length).toBeGreaterThan(3);
    expect(later.length).toBeGreaterThan(3);
    const calendarCard = (e: { calendarId: string }) =>
      meta(readFileSync(join(near, "calendars", e.calendarId, "index.html"), "utf8"))["og:image"];
    for (const event of later) {
      // Its calendar's card for now, named in its structured data too, which Google reads.
      const html = htmlOf(event);
      expect(meta(html)["og:image"], event.id).toBe(calendarCard(event));
      expect(jsonLd(html).image, event.id).toContain(calendarCard(event));
    }
    for (const event of withCards)
      expect(meta(htmlOf(event))["og:image"]).not.toBe(calendarCard(event));
    const others = listFilesSync(join(near, "cards")).length - 4 * withCards.length;
    expect(rendered(metrics)).toBe(4 * withCards.length + others);
    expect(metrics.log).toContain(
      `each event of the next 7 days 1200x630 and Google's 16:9, 4:3 and 1:1 (SHARE_CARDS=auto: ${withCards.length} events, up to 2,500)`,
    );

    // A day later, the events of the new seventh day get theirs: only those are drawn.
    const nextDay = await build(near, cache, {
      SHARE_CARDS_DAYS: String(days),
      SITE_NOW: hoursAfterNow(24),
    });
    const entering = later.filter((e) => hasCardAtNow(e, days + 1));
    expect(entering.length).toBeGreaterThan(0);
    expect(rendered(nextDay)).toBe(4 * entering.length);
    for (const event of entering)
      expect(meta(htmlOf(event))["og:image"]).not.toBe(calendarCard(event));
  });

  it("should write no cards with SHARE_CARDS=off, and fall back to the event's own image", async () => {
    const off = join(work, "off");
    const metrics = await build(off, join(work, "off-cache"), { SHARE_CARDS: "off" });
    expect(rendered(metrics)).toBe(0);
    expect(existsSync(join(off, "cards"))).toBe(false);
    expect(metrics.log).not.toMatch(/^ {2}cards /m);
    const withImage = dataset.events.find((e) => e.image) as { id: string; calendarId: string };
    const html = readFileSync(
      join(off, "calendars", withImage.calendarId, "events", withImage.id, "index.html"),
      "utf8",
    );
    expect(meta(html)["og:image"]).toMatch(
      /^https:\/\/example\.org\/events\/media\/[0-9a-f]{32}\.png$/,
    );
    expect(jsonLd(html).image).toEqual([meta(html)["og:image"]]);
    // Without cards, the oEmbed answer's preview is the event's image: the PNG drawn from the portal's SVG.
    const [url, width, height] = oembedThumbnail(off, withImage);
    expect(url).toBe(meta(html)["og:image"]);
    expect(pngSize(readFileSync(join(off, (url as string).slice(SITE_URL.length))))).toEqual({
      width,
      height,
    });
  });
});
