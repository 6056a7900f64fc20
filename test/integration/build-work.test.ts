import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningPortal, startPortal } from "../../src/portal/index.ts";
import { createSyntheticDataset } from "../../src/portal/synthetic-dataset.ts";
import { NOW } from "../helpers/clock.ts";
import { type BuildMetrics, counter, fileTree, meteredBuild } from "../helpers/metered-build.ts";

/**
 * The build's work, counted instead of timed (docs/performance.md): what a
 * regression to per-call parsing, double rendering or needless requests
 * would change fails here, on any machine, without a clock.
 */

const SYNTHETIC = { calendars: 3, eventsPerCalendar: 100 };
const EVENTS = SYNTHETIC.calendars * SYNTHETIC.eventsPerCalendar;

interface Metrics extends BuildMetrics {
  readonly richResults: {
    readonly events: number;
    readonly required: Readonly<Record<string, number>>;
    readonly recommended: Readonly<Record<string, number>>;
  };
}

let portal: RunningPortal;
let work: string;
let builds = 0;

beforeAll(async () => {
  portal = await startPortal({ port: 0, now: NOW, seed: 1, synthetic: SYNTHETIC });
  work = mkdtempSync(join(tmpdir(), "ecp-build-work-"));
});

afterAll(async () => {
  await portal.close();
  rmSync(work, { recursive: true, force: true });
});

/** One build into `output` with --metrics; the API cache is shared by every build of a test. */
async function build(
  output: string,
  env: Record<string, string> = {},
  target: RunningPortal = portal,
): Promise<Metrics> {
  return (await meteredBuild(output, {
    portal: target,
    cacheDir: join(work, "cache", target === portal ? "main" : "other"),
    metricsFile: join(work, `metrics-${++builds}.json`),
    env,
  })) as Metrics;
}

const count = (metrics: Metrics, name: string) => counter(metrics, name);
const tree = fileTree;

function searchIndexFiles(files: Map<string, string>): Map<string, string> {
  return new Map([...files].filter(([file]) => file.startsWith("pagefind/")));
}

describe("build work", () => {
  it("should fetch, parse and render each event once, and nothing again when the portal is unchanged", async () => {
    const cold = await build(join(work, "site"));
    expect(cold.events).toBe(EVENTS);
    // One calendar list page, one 100-event page per calendar, one details call per event.
    expect(count(cold, "fetch.listRequests")).toBe(1 + SYNTHETIC.calendars);
    expect(count(cold, "fetch.detailRequests")).toBe(EVENTS);
    // Each event's times are parsed once for the whole build, whatever uses them.
    expect(count(cold, "eventTimesParsed")).toBe(EVENTS);
    expect(count(cold, "normalize.computed")).toBe(EVENTS);
    // One page and one event.ics per event, each rendered once.
    expect(count(cold, "rendered.calendars/event.njk")).toBe(EVENTS);
    expect(count(cold, "rendered.event.ics")).toBe(EVENTS);
    // A card and its oEmbed answer per event, each rendered once (their times come from the one parse above).
    expect(count(cold, "rendered.event card")).toBe(EVENTS);
    expect(count(cold, "rendered.event oembed")).toBe(EVENTS);
    expect(count(cold, "searchIndexBuilt")).toBe(1);
    // The rich results shares count each event page's JSON-LD once, as it is rendered.
    expect(cold.richResults.events).toBe(count(cold, "rendered.calendars/event.njk"));
    expect(cold.richResults.required).toMatchObject({ name: 1, startDate: 1 });
    // Four share cards per event (drawn while the portal was read), each once.
    expect(count(cold, "cards.rendered")).toBe(count(cold, "rendered.cards"));
    expect(count(cold, "rendered.cards")).toBeGreaterThan(4 * EVENTS);
    const coldIndex = searchIndexFiles(await tree(join(work, "site")));

    const warm = await build(join(work, "site"));
    expect(count(warm, "fetch.detailRequests")).toBe(0);
    expect(count(warm, "fetch.listRequests")).toBe(1 + SYNTHETIC.calendars);
    expect(count(warm, "fetch.notModified")).toBe(count(warm, "fetch.listRequests"));
    expect(count(warm, "normalize.computed")).toBe(0);
    expect(count(warm, "eventTimesParsed")).toBe(EVENTS);
    expect(warm.files).toBe(cold.files);
    // The same records: the last build's index is reused, not indexed again by Pagefind.
    expect(count(warm, "searchIndexBuilt")).toBe(0);
    expect(count(warm, "searchIndexReused")).toBe(1);
    expect(count(warm, "cards.rendered")).toBe(0);
    expect(searchIndexFiles(await tree(join(work, "site")))).toEqual(coldIndex);

    const dataset = createSyntheticDataset({ ...SYNTHETIC, seed: 1, now: new Date(NOW) });
    const edited = dataset.events.filter((_, index) => index % 50 === 7);
    for (const event of edited) {
      portal.updateEvent(event.calendarId, event.id, { title: `${event.title}, moved indoors` });
    }
    const changed = await build(join(work, "site"));
    expect(edited.length).toBe(6);
    expect(count(changed, "fetch.detailRequests")).toBe(edited.length);
    expect(count(changed, "normalize.computed")).toBe(edited.length);
    expect(count(changed, "normalize.reused")).toBe(EVENTS - edited.length);
    expect(count(changed, "searchIndexBuilt")).toBe(1);
    expect(count(changed, "cards.rendered")).toBe(4 * edited.length);
    // The index is in parts by the UTC month events start in: only the edited events' parts.
    const months = new Set(
      edited.map((event) => new Date(Date.parse(event.start)).toISOString().slice(0, 7)),
    );
    expect(count(changed, "searchPartsBuilt")).toBe(months.size);
    expect(count(changed, "searchPartsReused")).toBe(count(cold, "searchPartsBuilt") - months.size);
    expect(searchIndexFiles(await tree(join(work, "site")))).not.toEqual(coldIndex);
    // Three builds of 300 events with their share cards, on two shared cores.
  }, 300_000);

  it("should render a feed again only when what it shows changed, and keep the others as a fresh build writes them", async () => {
    const own = await startPortal({ port: 0, now: NOW, seed: 3, synthetic: SYNTHETIC });
    const site = join(work, "feeds");
    const env = { SHARE_CARDS: "off" };
    try {
      const cold = await build(site, env, own);
      const feeds = count(cold, "rendered.feeds");
      expect(feeds).toBeGreaterThan(3 * SYNTHETIC.calendars);
      expect(count(cold, "reused.feeds")).toBe(0);

      const warm = await build(site, env, own);
      expect(count(warm, "rendered.feeds")).toBe(0);
      expect(count(warm, "reused.feeds")).toBe(feeds);

      // The next event's title: the feeds that show it are rendered, the others kept.
      const dataset = createSyntheticDataset({ ...SYNTHETIC, seed: 3, now: new Date(NOW) });
      const [next] = dataset.events
        .filter((event) => Date.parse(event.start) > Date.parse(NOW))
        .sort((a, b) => Date.parse(a.start) - Date.parse(b.start));
      if (!next) throw new Error("the synthetic portal has no upcoming event");
      own.updateEvent(next.calendarId, next.id, { title: `${next.title}, moved indoors` });
      const edited = await build(site, env, own);
      const again = count(edited, "rendered.feeds");
      // At least the site's and its calendar's three feeds; never all of them.
      expect(again).toBeGreaterThanOrEqual(6);
      expect(again).toBeLessThan(feeds);
      expect(again + count(edited, "reused.feeds")).toBe(feeds);

      // Kept or rendered, every feed is the one a build from scratch writes.
      const fresh = join(work, "feeds-fresh");
      await meteredBuild(fresh, {
        portal: own,
        cacheDir: join(work, "cache", "fresh"),
        metricsFile: join(work, `metrics-${++builds}.json`),
        env,
      });
      const feedFiles = async (root: string) =>
        new Map(
          [...(await tree(root))].filter(([file]) =>
            /(^|\/)(feed\.xml|atom\.xml|feed\.json)$/.test(file),
          ),
        );
      const published = await feedFiles(site);
      expect(published.size).toBe(feeds);
      expect(published).toEqual(await feedFiles(fresh));
    } finally {
      await own.close();
    }
  }, 300_000);

  it("should write two files fewer per event with EVENT_EMBEDS=off, and no card", async () => {
    const on = await build(join(work, "embeds-on"));
    const off = await build(join(work, "embeds-off"), { EVENT_EMBEDS: "off" });
    expect(count(off, "rendered.event card")).toBe(0);
    expect(count(off, "rendered.event oembed")).toBe(0);
    expect(on.files - off.files).toBe(2 * EVENTS);
    const cards = [...(await tree(join(work, "embeds-off"))).keys()].filter((file) =>
      /^(embed|oembed)\/[^/]+\/events\//.test(file),
    );
    expect(cards).toEqual([]);
  });

  it("should render no page through Eleventy that grows with the events: those are streamed one at a time", async () => {
    const double = await startPortal({
      port: 0,
      now: NOW,
      seed: 1,
      synthetic: { ...SYNTHETIC, eventsPerCalendar: 2 * SYNTHETIC.eventsPerCalendar },
    });
    try {
      // About pages, not pictures: without share cards.
      const small = await build(join(work, "small"), { SHARE_CARDS: "off" });
      const large = await build(join(work, "large"), { SHARE_CARDS: "off" }, double);
      expect(large.events).toBe(2 * EVENTS);
      // Eleventy keeps each page it renders until its run ends: it renders the
      // site's few fixed pages, the same number at 300 events or 600.
      expect(count(large, "rendered.eleventy")).toBe(count(small, "rendered.eleventy"));
      expect(count(small, "rendered.eleventy")).toBeLessThan(20);
      // The lists (20 events a page) grow with the events, streamed.
      const lists = (metrics: Metrics) =>
        count(metrics, "rendered.calendars/list.njk") + count(metrics, "rendered.events.njk");
      expect(lists(large)).toBeGreaterThan(lists(small));
      expect(count(large, "rendered.calendars/event.njk")).toBe(2 * EVENTS);
    } finally {
      await double.close();
    }
  });
});
