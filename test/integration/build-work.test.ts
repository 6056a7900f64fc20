import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { idleLaunch } from "../../src/cards/drawing-priority.ts";
import { LISTING_TEMPLATES } from "../../src/eleventy/listing-page-inputs.ts";
import { PAGE_RECORD_FILE, PAGE_RECORD_VERSION } from "../../src/eleventy/page-record.ts";
import { type RunningPortal, startPortal } from "../../src/portal/index.ts";
import { createSyntheticDataset, SERIES_LENGTH } from "../../src/portal/synthetic-dataset.ts";
import { OTHER_DATES_SHOWN } from "../../src/series/series-index.ts";
import { endedAtNow, hasCardAtNow, hoursAfterNow, NOW } from "../helpers/clock.ts";
import { isDigestFile, isFeedFile } from "../helpers/demo-expectations.ts";
import { type BuildMetrics, counter, fileTree, meteredBuild } from "../helpers/metered-build.ts";
import { forgetPublishedInputs } from "../helpers/published-inputs.ts";

/**
 * The build's work, counted instead of timed (docs/performance.md): what a
 * regression to per-call parsing, double rendering or needless requests
 * would change fails here, on any machine, without a clock. Among it, the
 * search index in parts (docs/site.md, "Search and filters"): which parts
 * Pagefind indexes is counted, and the files of the parts it does not
 * index must keep every byte, so hosts upload and browsers fetch them once.
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

interface PartsList {
  readonly parts: readonly { readonly key: string; readonly records: number }[];
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

/**
 * One build into `output` with --metrics; the API cache is shared by every build of a test.
 * With the page record on (src/eleventy/page-record.ts), whose work these tests count too.
 */
async function build(
  output: string,
  env: Record<string, string> = {},
  target: RunningPortal = portal,
): Promise<Metrics> {
  return (await meteredBuild(output, {
    portal: target,
    cacheDir: join(work, "cache", target === portal ? "main" : "other"),
    metricsFile: join(work, `metrics-${++builds}.json`),
    env: { PAGE_RECORD: "on", ...env },
  })) as Metrics;
}

const count = (metrics: Metrics, name: string) => counter(metrics, name);

/** An event's page, kept by its inputs when what it shows is unchanged. */
const EVENT_PAGES = "calendars/event.njk";
/** The files of one event each that show that event alone, kept by their inputs when it is unchanged. */
const PER_EVENT_FILES = ["event.ics", "event card", "event oembed"];
/** Every file of one event each that is kept by its inputs. */
const PER_EVENT_GROUPS = [EVENT_PAGES, ...PER_EVENT_FILES];
/** A listing's pages (a calendar's list or month, a category's, a place's...), kept by their inputs. */
const LISTING_PAGES = LISTING_TEMPLATES;
/**
 * The most listing pages one event is shown on in this portal: its calendar's list, its
 * month and the months beside (their days around the month), its categories', its
 * place's, its series' and all events' pages (7 an event on average in this test).
 */
const LISTING_PAGES_PER_EVENT = 10;
const tree = fileTree;

/** The main portal's site, built again and again into `site/`. */
const site = () => join(work, "site");

/** Every file of the site's search index, its bytes by path (relative to the index's folder). */
const indexFiles = () => tree(join(site(), "pagefind"));

/** The top-level names (a part's folder, or a shared file) whose files differ between two builds. */
function touched(before: Map<string, string>, after: Map<string, string>): Set<string> {
  const names = new Set<string>();
  for (const path of new Set([...before.keys(), ...after.keys()])) {
    if (before.get(path) !== after.get(path)) names.add(path.split("/")[0] ?? "");
  }
  return names;
}

/**
 * How many events the site's RSS feeds show, each counted once: an event's
 * item is its page's permalink. Edits of titles change none of them.
 */
async function eventsInFeeds(): Promise<number> {
  const pages = new Set<string>();
  for (const [path, bytes] of await tree(site())) {
    if (!isFeedFile(path) || !path.endsWith("feed.xml")) continue;
    const text = Buffer.from(bytes, "base64").toString("utf8");
    for (const item of text.matchAll(/<guid isPermaLink="true">([^<]+)<\/guid>/g)) {
      pages.add(item[1] ?? "");
    }
  }
  return pages.size;
}

function partsList(): PartsList {
  return JSON.parse(readFileSync(join(site(), "pagefind", "parts.json"), "utf8")) as PartsList;
}

/** The part an event's record is in: the UTC month it starts in, worked out apart from the build. */
const monthOf = (start: string) => new Date(Date.parse(start)).toISOString().slice(0, 7);

/** The synthetic portal's events as the build reads them before any edit. */
const dataset = createSyntheticDataset({ ...SYNTHETIC, seed: 1, now: new Date(NOW) });

interface Built {
  readonly metrics: Metrics;
  /** The search index's files right after the build. */
  readonly index: Map<string, string>;
}

interface Sequence {
  readonly cold: Built & { readonly parts: PartsList };
  /** From the unchanged portal: the site kept whole (src/publish/unchanged-build.ts). */
  readonly kept: Metrics;
  /** The same, without the last publish's record of its inputs: each output kept by its own. */
  readonly warm: Built;
  /** After a new title for every 50th event (from the 8th on). */
  readonly changed: Built;
  /** The listing pages whose bytes that build changed, by template folder ("places", "series"...). */
  readonly listingsChanged: ReadonlyMap<string, number>;
  readonly edited: readonly (typeof dataset.events)[number][];
}

let sequence: Promise<Sequence> | undefined;

/**
 * The main portal's site with its share cards, built cold, twice again from
 * the unchanged portal (kept whole, then with every output visited), then
 * after six events got a new title: made once, in that order, for the tests
 * that count their work, whichever runs first.
 */
function buildSequence(): Promise<Sequence> {
  sequence ??= (async () => {
    const built = async (): Promise<Built> => {
      const metrics = await build(site());
      return { metrics, index: await indexFiles() };
    };
    const cold = { ...(await built()), parts: partsList() };
    const kept = await build(site());
    forgetPublishedInputs(join(work, "cache", "main"));
    const warm = await built();
    const edited = dataset.events.filter((_, index) => index % 50 === 7);
    for (const event of edited) {
      portal.updateEvent(event.calendarId, event.id, { title: `${event.title}, moved indoors` });
    }
    const before = await tree(site());
    const changed = await built();
    const listingsChanged = new Map<string, number>();
    for (const [path, bytes] of await tree(site())) {
      const folder =
        /^(places|series|categories)\//.exec(path)?.[1] ??
        /^calendars\/[^/]+\/series\//.exec(path)?.[0].split("/")[2];
      if (folder && path.endsWith(".html") && before.get(path) !== bytes) {
        listingsChanged.set(folder, (listingsChanged.get(folder) ?? 0) + 1);
      }
    }
    return { cold, kept, warm, changed, edited, listingsChanged };
  })();
  return sequence;
}

let plain: Promise<Metrics> | undefined;

/**
 * A build of the main portal without share cards, into `plain/`: made once
 * for the tests that compare it with a build of other settings or another
 * size, whichever runs first.
 */
function plainBuild(): Promise<Metrics> {
  plain ??= build(join(work, "plain"), { SHARE_CARDS: "off" });
  return plain;
}

describe("build work", () => {
  it("should fetch, parse and render each event once, and nothing again when the portal is unchanged", async () => {
    const built = await buildSequence();
    const cold = built.cold.metrics;
    expect(cold.events).toBe(EVENTS);
    // One calendar list page, one 100-event page per calendar, one details call per event.
    expect(count(cold, "fetch.listRequests")).toBe(1 + SYNTHETIC.calendars);
    expect(count(cold, "fetch.detailRequests")).toBe(EVENTS);
    // Each event's times are parsed once for the whole build, whatever uses them.
    expect(count(cold, "eventTimesParsed")).toBe(EVENTS);
    // Each event's "when" line made once, though its page, its card and every "when" page
    // that links it show it.
    expect(count(cold, "whenLinesMade")).toBeGreaterThan(0);
    expect(count(cold, "whenLinesMade")).toBeLessThanOrEqual(EVENTS);
    expect(count(cold, "normalize.computed")).toBe(EVENTS);
    // Each on a thread of its own as its details arrived (for its share cards), not on the
    // build's, whose event loop reads the portal's answers meanwhile (NormalizeAside).
    expect(count(cold, "normalize.computedAside")).toBe(EVENTS);
    // Each details body written out and hashed once, as it arrived: its digest, kept with it,
    // keys its event's normalized entry (src/api/details-digest.ts).
    expect(count(cold, "fetch.detailsDigested")).toBe(EVENTS);
    // Each event's records digested once, though asked for twice: as its details arrived (for
    // its share cards), and with the whole snapshot.
    expect(count(cold, "normalize.keyed")).toBe(EVENTS);
    // The parts events have in common (places, categories, organizers) held once: the synthetic
    // calendars draw them from short lists.
    expect(count(cold, "normalize.partsShared")).toBeGreaterThan(EVENTS);
    // One page and one event.ics per event, each rendered once.
    expect(count(cold, "rendered.calendars/event.njk")).toBe(EVENTS);
    expect(count(cold, "rendered.event.ics")).toBe(EVENTS);
    // Each event checked once for a duplicate of its calendar and id, for every feed and
    // calendar file that lists it (six to twelve each), and once more in its own download.
    expect(count(cold, "feeds.eventsCheckedForDuplicates")).toBe(
      EVENTS + count(cold, "rendered.event.ics"),
    );
    // Each event's feed entry made once, however many feeds show it: none let go before its
    // last feed (src/outputs/feed-entry-lifetimes.ts).
    expect(count(cold, "feeds.entriesMade")).toBe(await eventsInFeeds());
    // A card and its oEmbed answer per event, each rendered once (their times come from the one parse above).
    expect(count(cold, "rendered.event card")).toBe(EVENTS);
    expect(count(cold, "rendered.event oembed")).toBe(EVENTS);
    expect(count(cold, "searchIndexBuilt")).toBe(1);
    // The rich results shares count each event page's JSON-LD once, as it is rendered.
    expect(cold.richResults.events).toBe(count(cold, "rendered.calendars/event.njk"));
    expect(cold.richResults.required).toMatchObject({ name: 1, startDate: 1 });
    // Four share cards per event of the next 60 days (drawn while the portal was read), each
    // once; none for one that has ended or starts later.
    const withCards = dataset.events.filter((event) => hasCardAtNow(event)).length;
    const notEnded = dataset.events.filter((event) => !endedAtNow(event)).length;
    expect(withCards).toBeGreaterThan(20);
    expect(withCards).toBeLessThan(notEnded - 20);
    expect(notEnded).toBeLessThan(EVENTS - 20);
    expect(count(cold, "cards.rendered")).toBe(count(cold, "rendered.cards"));
    expect(count(cold, "cards.processStarted")).toBe(1);
    // The drawing process's scheduling policy (src/cards/drawing-priority.ts) changes as the
    // build starts waiting for its cards and as it stops, where it may (else never): a
    // `chrt` each time, so never per card or page.
    expect(count(cold, "cards.policyChanged")).toBe(idleLaunch() === null ? 0 : 2);
    expect(count(cold, "rendered.cards")).toBeGreaterThan(4 * withCards);
    expect(count(cold, "rendered.cards")).toBeLessThan(4 * withCards + 100);

    // Nothing changed: the portal read as before, the site kept whole, nothing rendered
    // or drawn, each file checked by one stat, the manifest alone written.
    const { kept } = built;
    expect((kept as Metrics & { unchanged?: boolean }).unchanged).toBe(true);
    expect(count(kept, "fetch.detailRequests")).toBe(0);
    expect(count(kept, "fetch.notModified")).toBe(1 + SYNTHETIC.calendars);
    expect(count(kept, "normalize.computed")).toBe(0);
    // No event's times read: the cards' dates are the last build's (src/cards/card-dates.ts).
    expect(count(kept, "eventTimesParsed")).toBe(0);
    expect(count(kept, "cards.datesReused")).toBeGreaterThan(0);
    expect(Object.keys(kept.counters).filter((name) => /^(rendered|reused)\./.test(name))).toEqual(
      [],
    );
    expect(count(kept, "cards.rendered")).toBe(0);
    // No card to draw, so no drawing process started (src/cards/card-studio.ts).
    expect(count(kept, "cards.processStarted")).toBe(0);
    expect(count(kept, "searchIndexBuilt") + count(kept, "searchIndexReused")).toBe(0);
    expect(kept.files).toBe(cold.files);
    expect(count(kept, "files.statted")).toBe(kept.files);
    expect(count(kept, "files.rehashed")).toBe(0);
    expect(count(kept, "files.written")).toBe(1);
    // The list of published files: the manifest's line added, the list not written again.
    expect(count(cold, "files.listed")).toBe(cold.files);
    expect(count(kept, "files.listed")).toBe(1);

    const warm = built.warm.metrics;
    expect(count(warm, "fetch.detailRequests")).toBe(0);
    expect(count(warm, "fetch.listRequests")).toBe(1 + SYNTHETIC.calendars);
    expect(count(warm, "fetch.notModified")).toBe(count(warm, "fetch.listRequests"));
    expect(count(warm, "normalize.computed")).toBe(0);
    expect(count(warm, "normalize.keyed")).toBe(EVENTS);
    // The details reused, each keyed by its kept digest: none written out again.
    expect(count(warm, "fetch.detailsReused")).toBe(EVENTS);
    expect(count(warm, "fetch.detailsDigested")).toBe(0);
    // Each event's text hashed once, as it was normalized: read back with it since, an
    // unchanged event is not written out and hashed again for the outputs it is an input of.
    expect(count(cold, "events.digested")).toBe(EVENTS);
    expect(count(warm, "events.digested")).toBe(0);
    // Read back from the last build's file, they are held once again.
    expect(count(warm, "normalize.partsShared")).toBe(count(cold, "normalize.partsShared"));
    expect(count(warm, "feeds.eventsCheckedForDuplicates")).toBe(EVENTS);
    expect(warm.richResults).toEqual(cold.richResults);
    expect(count(cold, "richResults.reused")).toBe(0);
    expect(count(warm, "richResults.reused")).toBe(EVENTS);
    // None: the outputs kept by their inputs need no event's times, the pages rendered in
    // every build read their rows' times from the events' texts (eventWallTimes in
    // src/model/event-times.ts; 20 of the 300 events were parsed for them before), the search
    // records are not made again (over 0.9 of EVENTS with them) and the cards' dates are the
    // last build's (0.62 of EVENTS with them made again).
    expect(count(warm, "eventTimesParsed")).toBe(0);
    expect(warm.files).toBe(cold.files);
    // The report's rich results count the event pages kept as published as their JSON-LD
    // says, as the cold build counted them rendered.
    expect(warm.richResults).toEqual(cold.richResults);
    // The same records: the last build's index is reused, not indexed again by Pagefind.
    expect(count(warm, "searchIndexBuilt")).toBe(0);
    expect(count(warm, "searchIndexReused")).toBe(1);
    expect(count(warm, "cards.rendered")).toBe(0);
    expect(count(warm, "cards.processStarted")).toBe(0);
    // A card's key names its bytes: each published card is kept by it, its file not read again.
    expect(count(warm, "rendered.cards")).toBe(0);
    expect(count(warm, "reused.cards")).toBe(count(cold, "rendered.cards"));
    expect(built.warm.index).toEqual(built.cold.index);
    // Each file kept as published is checked by its signature, and none is read again: by a
    // stat on the build's thread, or by the pass that stats them all on another while the
    // site renders (src/render/signatures-aside.ts; which one depends on the pass's pace).
    expect(count(warm, "files.kept")).toBeGreaterThan(0.9 * warm.files);
    expect(count(warm, "files.statted") + count(warm, "files.checkedAside")).toBe(
      count(warm, "files.kept"),
    );
    expect(count(warm, "files.rehashed")).toBe(0);
    // The subscriptions' QR codes are drawn only when what they encode changes.
    expect(count(cold, "rendered.calendar-qr.svg")).toBeGreaterThan(SYNTHETIC.calendars);
    expect(count(warm, "rendered.calendar-qr.svg")).toBe(0);
    expect(count(warm, "reused.calendar-qr.svg")).toBe(count(cold, "rendered.calendar-qr.svg"));
    // Nor drawn for the list of subscriptions (search), which names each code's file: only
    // the panels of the few pages rendered in every build that renders (the site's pages
    // with their calendars' panels) draw theirs.
    expect(count(warm, "qr.drawn")).toBeGreaterThan(0);
    expect(count(warm, "qr.drawn")).toBeLessThan(count(cold, "rendered.calendar-qr.svg") / 2);
    // An event's download, card and oEmbed answer are kept by their inputs, not rendered again.
    for (const group of PER_EVENT_GROUPS) {
      expect(count(warm, `rendered.${group}`), group).toBe(0);
      expect(count(warm, `reused.${group}`), group).toBe(EVENTS);
    }
    // So are the public JSON's calendar files and "when" files: no calendar's events document
    // is made, and the manifest hashes the calendar files' published bytes.
    expect(count(warm, "rendered.events.json")).toBe(0);
    expect(count(warm, "reused.events.json")).toBe(SYNTHETIC.calendars);
    expect(count(warm, "json.eventsDocuments")).toBe(0);
    expect(count(warm, "json.eventsReadBack")).toBe(SYNTHETIC.calendars);
    expect(count(cold, "rendered.when.json")).toBeGreaterThan(SYNTHETIC.calendars);
    expect(count(warm, "rendered.when.json")).toBe(0);
    expect(count(warm, "reused.when.json")).toBe(count(cold, "rendered.when.json"));

    const { edited } = built;
    const changed = built.changed.metrics;
    expect(edited.length).toBe(6);
    expect(count(changed, "fetch.detailRequests")).toBe(edited.length);
    expect(count(changed, "normalize.computed")).toBe(edited.length);
    expect(count(changed, "fetch.detailsDigested")).toBe(edited.length);
    expect(count(changed, "normalize.reused")).toBe(EVENTS - edited.length);
    expect(count(changed, "events.digested")).toBe(edited.length);
    // What is kept between builds follows the change too: the normalized events (and the
    // other kept maps) add the edited events to a journal; none is written whole again,
    // as the cold build wrote them.
    expect(count(cold, "kept.rewritten")).toBeGreaterThanOrEqual(EVENTS);
    expect(count(changed, "kept.rewritten")).toBe(0);
    expect(count(changed, "kept.journalled")).toBeGreaterThanOrEqual(2 * edited.length);
    // Each edited event's normalized entry, VEVENT size and card date, added and dropped.
    expect(count(changed, "kept.journalled")).toBeLessThanOrEqual(8 * edited.length);
    expect(count(changed, "searchIndexBuilt")).toBe(1);
    // The edited events' cards drawn again, for those with cards of their own.
    const editedAhead = edited.filter((event) => hasCardAtNow(event));
    expect(editedAhead.length).toBeGreaterThan(0);
    expect(editedAhead.length).toBeLessThan(edited.length);
    expect(count(changed, "cards.rendered")).toBe(4 * editedAhead.length);
    expect(count(changed, "cards.processStarted")).toBe(1);
    // The list of published files: each file written is named again (its bytes or its
    // signature moved), in a line added to the list's journal, not the whole list.
    expect(count(changed, "files.listed")).toBeGreaterThanOrEqual(count(changed, "files.written"));
    expect(count(changed, "files.listed")).toBeLessThan(changed.files / 10);
    for (const group of PER_EVENT_FILES) {
      expect(count(changed, `rendered.${group}`), group).toBe(edited.length);
      expect(count(changed, `reused.${group}`), group).toBe(EVENTS - edited.length);
    }
    // Only the calendar files of the edited events' calendars are made again, each once.
    const jsonAgain = count(changed, "rendered.events.json");
    expect(jsonAgain).toBeGreaterThanOrEqual(1);
    expect(jsonAgain).toBeLessThanOrEqual(new Set(edited.map((event) => event.calendarId)).size);
    expect(count(changed, "json.eventsDocuments")).toBe(jsonAgain);
    expect(count(changed, "json.eventsReadBack")).toBe(SYNTHETIC.calendars - jsonAgain);
    // Pages show other dates of their series too, each whole: the edited events' pages,
    // and those of their series that list one of them, are rendered again.
    const pages = count(changed, `rendered.${EVENT_PAGES}`);
    expect(pages).toBeGreaterThanOrEqual(edited.length);
    expect(pages).toBeLessThanOrEqual(edited.length * (2 + OTHER_DATES_SHOWN));
    expect(pages + count(changed, `reused.${EVENT_PAGES}`)).toBe(EVENTS);
    // Every event page counted for the rich results, as it is asked what it shows: an event
    // the portal did not change by what its JSON-LD met when it was last made, not made again;
    // the cold build's shares (the edits changed titles only).
    expect(changed.richResults).toEqual(cold.richResults);
    expect(count(changed, "richResults.reused")).toBe(EVENTS - edited.length);
    // A listing's page is rendered when nothing it shows changed, only those that show an
    // edited event are rendered again (the edits changed titles: no page moved).
    const listings = (metrics: Metrics, kind: "rendered" | "reused") =>
      LISTING_PAGES.reduce((sum, template) => sum + count(metrics, `${kind}.${template}`), 0);
    const allListings = listings(cold, "rendered");
    expect(allListings).toBeGreaterThan(100);
    expect(listings(cold, "reused")).toBe(0);
    expect(listings(warm, "rendered")).toBe(0);
    expect(listings(warm, "reused")).toBe(allListings);
    expect(listings(changed, "rendered")).toBeGreaterThanOrEqual(edited.length);
    expect(listings(changed, "rendered")).toBeLessThanOrEqual(
      LISTING_PAGES_PER_EVENT * edited.length,
    );
    expect(listings(changed, "rendered") + listings(changed, "reused")).toBe(allListings);
    // The page record (src/eleventy/page-record.ts): each build keeps what every streamed
    // page's inputs read; after the edits (titles: no event moved), the build trusted it
    // and made the inputs only of the pages that read an edited event, a scope one is in,
    // or a series a title took an event out of; every other page was kept by the digest it
    // was last rendered from, its inputs not made.
    const streamed = [EVENT_PAGES, ...LISTING_PAGES];
    const asked = (metrics: Metrics) =>
      streamed.reduce(
        (sum, template) =>
          sum +
          count(metrics, `rendered.${template}`) +
          count(metrics, `reused.${template}`) -
          count(metrics, `vouched.${template}`),
        0,
      );
    const streamedPages = EVENTS + allListings;
    expect(count(cold, "pageRecord.trusted")).toBe(0);
    expect(asked(cold)).toBe(streamedPages);
    expect(count(changed, "pageRecord.trusted")).toBe(1);
    // The edited events, and the dates of each series a new title took one out of.
    const editedEvents = count(changed, "pageRecord.editedEvents");
    expect(editedEvents).toBeGreaterThanOrEqual(edited.length);
    expect(editedEvents).toBeLessThanOrEqual(edited.length * (SERIES_LENGTH + 1));
    const eventPagesAsked =
      pages + count(changed, `reused.${EVENT_PAGES}`) - count(changed, `vouched.${EVENT_PAGES}`);
    expect(eventPagesAsked).toBeGreaterThanOrEqual(pages);
    expect(eventPagesAsked).toBeLessThanOrEqual(editedEvents);
    // Listings: those of the edited events' calendars, categories and series (their share
    // cards and subscriptions' trims are their events'), and those that show an edited event.
    expect(asked(changed) - eventPagesAsked).toBeLessThan(allListings);
    // A page that names a place or a category shows its lists' lengths, not each of their
    // events (src/eleventy/listing-page-inputs.ts, shownSummary): the pages rendered again are
    // those whose bytes change, and at most one more per edit (a row's inputs are its event
    // and series whole). Before, every page of an edited event's place was (14 for 7 changed).
    for (const [template, folder] of [
      ["places/place.njk", "places"],
      ["series/series.njk", "series"],
      ["categories/category.njk", "categories"],
    ] as const) {
      const rendered = count(changed, `rendered.${template}`);
      const bytesChanged = built.listingsChanged.get(folder) ?? 0;
      expect(rendered, template).toBeLessThanOrEqual(bytesChanged + edited.length);
    }
    // A scope's calendar file is kept while its plan and events are unchanged, and the plans
    // take each VEVENT's size from the last build: no VEVENT is made at all when nothing changed.
    const calendars = count(cold, "rendered.calendar.ics");
    expect(calendars).toBeGreaterThan(10);
    expect(count(cold, "ics.vevents")).toBeGreaterThan(0);
    expect(count(warm, "ics.vevents")).toBe(0);
    // Nor a calendar's head, which the plans take the size of (measured once per scope, cold).
    expect(count(cold, "ics.headSizesReused")).toBe(0);
    expect(count(warm, "ics.headSizesReused")).toBe(calendars);
    expect(count(warm, "rendered.calendar.ics")).toBe(0);
    expect(count(warm, "reused.calendar.ics")).toBe(calendars);
    // After the edits: only the calendars that hold an edited event, each made whole again.
    const again = count(changed, "rendered.calendar.ics");
    expect(again).toBeGreaterThanOrEqual(1);
    expect(again).toBeLessThan(calendars / 2);
    expect(again + count(changed, "reused.calendar.ics")).toBe(calendars);
    // Their VEVENTs: the edited events' made again (once each, for their downloads too), the
    // others' read from their downloads, kept as published (src/outputs/ics.ts).
    expect(count(changed, "ics.vevents")).toBe(edited.length);
    expect(count(changed, "ics.veventsReadBack")).toBeGreaterThan(again);
    // The index is in parts by the UTC month events start in: only the edited events' parts.
    const months = new Set(edited.map((event) => monthOf(event.start)));
    expect(count(changed, "searchPartsBuilt")).toBe(months.size);
    expect(count(changed, "searchPartsReused")).toBe(count(cold, "searchPartsBuilt") - months.size);
    expect(built.changed.index).not.toEqual(built.cold.index);
    // Only those parts' files change, and the list of parts, which names their new entries.
    expect(touched(built.cold.index, built.changed.index)).toEqual(
      new Set([...months, "parts.json"]),
    );
  });

  it("should index every search part when cold, none when nothing changed, and only the parts of edited events", async () => {
    const { cold, warm, changed } = await buildSequence();
    const { parts } = cold.parts;
    // One part per UTC month the events start in, together holding every event.
    expect(parts.map((part) => part.key)).toEqual(
      [...new Set(dataset.events.map((event) => monthOf(event.start)))].sort(),
    );
    expect(parts.length).toBeGreaterThan(5);
    expect(parts.reduce((sum, part) => sum + part.records, 0)).toBe(EVENTS);
    expect(count(cold.metrics, "searchPartsBuilt")).toBe(parts.length);
    expect(count(cold.metrics, "searchPartsReused")).toBe(0);
    expect(count(cold.metrics, "searchRecordsIndexed")).toBe(EVENTS);
    expect(count(cold.metrics, "searchRecordsMade")).toBe(EVENTS);

    expect(count(warm.metrics, "searchPartsBuilt")).toBe(0);
    expect(count(warm.metrics, "searchPartsReused")).toBe(parts.length);
    expect(count(warm.metrics, "searchRecordsIndexed")).toBe(0);
    // Each month's parts known from the last build by its inputs: no record made.
    expect(count(warm.metrics, "searchRecordsMade")).toBe(0);
    expect(count(warm.metrics, "searchMonthsKept")).toBe(parts.length);
    expect(warm.index).toEqual(cold.index);

    // A new title: the event's part alone is indexed again, and only its files
    // and the list of parts (which names the part's new entry) change.
    const edited = dataset.events[17];
    if (!edited) throw new Error("no event to edit");
    portal.updateEvent(edited.calendarId, edited.id, { title: `${edited.title}, moved indoors` });
    const retitled = await build(site());
    // The page record: one new title that moves no event; its page, its calendar's lists
    // and months (whose share cards and subscription trims are their events'), and the few
    // listings that show it or say when the site last changed are asked; every other
    // streamed page is kept by the digest it was last rendered from.
    expect(count(retitled, "pageRecord.trusted")).toBe(1);
    expect(count(retitled, "pageRecord.editedEvents")).toBe(1);
    const asked = (template: string) =>
      count(retitled, `rendered.${template}`) +
      count(retitled, `reused.${template}`) -
      count(retitled, `vouched.${template}`);
    expect(asked("calendars/event.njk")).toBe(1);
    const calendarPages = ["calendars/list.njk", "calendars/month.njk"].reduce(
      (sum, template) => sum + count(cold.metrics, `rendered.${template}`),
      0,
    );
    const listingsAsked = LISTING_PAGES.reduce((sum, template) => sum + asked(template), 0);
    expect(listingsAsked).toBeGreaterThanOrEqual(1);
    expect(listingsAsked).toBeLessThanOrEqual(
      calendarPages / SYNTHETIC.calendars + 2 * LISTING_PAGES_PER_EVENT,
    );
    const editedPart = parts.find((part) => part.key === monthOf(edited.start));
    expect(count(retitled, "searchPartsBuilt")).toBe(1);
    expect(count(retitled, "searchPartsReused")).toBe(parts.length - 1);
    expect(count(retitled, "searchRecordsIndexed")).toBe(editedPart?.records);
    expect(count(retitled, "searchRecordsMade")).toBe(editedPart?.records);
    const retitledIndex = await indexFiles();
    expect(touched(changed.index, retitledIndex)).toEqual(new Set([editedPart?.key, "parts.json"]));

    // A new date a month and a half later: the part it left and the part it
    // joined, and no other.
    const moved = dataset.events.find(
      (event) =>
        !event.allDay &&
        monthOf(event.start) !== monthOf(edited.start) &&
        monthOf(new Date(Date.parse(event.start) - 45 * 86_400_000).toISOString()) !==
          monthOf(edited.start) &&
        Date.parse(event.start) - 45 * 86_400_000 > Date.parse(NOW) - 30 * 86_400_000,
    );
    if (!moved) throw new Error("no event to move");
    const earlier = (iso: string) => new Date(Date.parse(iso) - 45 * 86_400_000).toISOString();
    portal.updateEvent(moved.calendarId, moved.id, {
      start: earlier(moved.start),
      end: earlier(moved.end),
    });
    // A damaged record is left aside: the build asks every page, and keeps a new record.
    // Its head (the first line) is whole and says this code and clock; its body is cut short.
    const record = join(work, "cache", "main", PAGE_RECORD_FILE);
    const [head = "", body = ""] = readFileSync(record, "utf8").split("\n");
    expect(JSON.parse(head).version).toBe(PAGE_RECORD_VERSION);
    writeFileSync(record, `${head}\n${body.slice(0, body.length >> 1)}`);
    const rescheduled = await build(site());
    expect(count(rescheduled, "pageRecord.distrusted.none")).toBe(1);
    const rewritten = readFileSync(record, "utf8").split("\n")[1] ?? "";
    expect(JSON.parse(rewritten).events).toHaveLength(EVENTS);
    const expected = new Set([monthOf(moved.start), monthOf(earlier(moved.start))]);
    expect(expected.size).toBe(2);
    expect(count(rescheduled, "searchPartsBuilt")).toBe(2);
    expect(count(rescheduled, "searchPartsReused")).toBe(parts.length - 2);
    expect(touched(retitledIndex, await indexFiles())).toEqual(
      new Set([...expected, "parts.json"]),
    );
  });

  it("should render a feed again only when what it shows changed, and keep the others as a fresh build writes them", async () => {
    const own = await startPortal({ port: 0, now: NOW, seed: 3, synthetic: SYNTHETIC });
    const feedsSite = join(work, "feeds");
    const env = { SHARE_CARDS: "off" };
    try {
      const cold = await build(feedsSite, env, own);
      const feeds = count(cold, "rendered.feeds");
      expect(feeds).toBeGreaterThan(3 * SYNTHETIC.calendars);
      expect(count(cold, "reused.feeds")).toBe(0);

      // The weekly digests' files (src/digest) too: three for the site, each calendar and category.
      const digestFiles = ["digest/feed.xml", "digest/latest.html", "digest/latest.txt"];
      const digest = (metrics: Metrics, what: "rendered" | "reused") =>
        digestFiles.reduce((sum, name) => sum + count(metrics, `${what}.${name}`), 0);
      const digests = digest(cold, "rendered");
      expect(digests).toBeGreaterThan(3 * SYNTHETIC.calendars);

      // Every output visited, not the site kept whole: each feed kept by its own inputs.
      forgetPublishedInputs(join(work, "cache", "other"));
      const warm = await build(feedsSite, env, own);
      expect(count(warm, "rendered.feeds")).toBe(0);
      expect(count(warm, "reused.feeds")).toBe(feeds);
      expect(digest(warm, "rendered")).toBe(0);
      expect(digest(warm, "reused")).toBe(digests);
      // Kept by what they are made from: no scope's digests made at all.
      expect(count(cold, "digest.scopesMade")).toBe(digests / 3);
      expect(count(warm, "digest.scopesMade")).toBe(0);

      // The next event's title: the feeds that show it are rendered, the others kept.
      const ownEvents = createSyntheticDataset({
        ...SYNTHETIC,
        seed: 3,
        now: new Date(NOW),
      }).events;
      const [next] = ownEvents
        .filter((event) => Date.parse(event.start) > Date.parse(NOW))
        .sort((a, b) => Date.parse(a.start) - Date.parse(b.start));
      if (!next) throw new Error("the synthetic portal has no upcoming event");
      own.updateEvent(next.calendarId, next.id, { title: `${next.title}, moved indoors` });
      const edited = await build(feedsSite, env, own);
      const again = count(edited, "rendered.feeds");
      // At least the site's and its calendar's three feeds; never all of them.
      expect(again).toBeGreaterThanOrEqual(6);
      expect(again).toBeLessThan(feeds);
      expect(again + count(edited, "reused.feeds")).toBe(feeds);
      expect(digest(edited, "rendered") + digest(edited, "reused")).toBe(digests);
      // The edited event's scopes (the site's, its calendar's, ...): their three files
      // rendered together, from digests made once; the other scopes' digests not made.
      expect(digest(edited, "rendered")).toBeGreaterThanOrEqual(6);
      expect(digest(edited, "rendered")).toBeLessThan(digests);
      expect(count(edited, "digest.scopesMade") * 3).toBe(digest(edited, "rendered"));

      // Kept or rendered, every feed is the one a build from scratch writes.
      const fresh = join(work, "feeds-fresh");
      await meteredBuild(fresh, {
        portal: own,
        cacheDir: join(work, "cache", "fresh"),
        metricsFile: join(work, `metrics-${++builds}.json`),
        env,
      });
      const filesOf = async (root: string, kind: (file: string) => boolean) =>
        new Map([...(await tree(root))].filter(([file]) => kind(file)));
      const published = await filesOf(feedsSite, isFeedFile);
      expect(published.size).toBe(feeds);
      expect(published).toEqual(await filesOf(fresh, isFeedFile));
      const publishedDigests = await filesOf(feedsSite, isDigestFile);
      expect(publishedDigests.size).toBe(digests);
      expect(publishedDigests).toEqual(await filesOf(fresh, isDigestFile));
    } finally {
      await own.close();
    }
  });

  it("should render, the day after, only the listing pages whose bytes the day changes", async () => {
    const days = join(work, "days");
    const env = { SHARE_CARDS: "off" };
    await build(days, env);
    const before = await tree(days);
    const dayAfter = await build(days, { ...env, SITE_NOW: hoursAfterNow(24) });
    const after = await tree(days);
    const changedPages = (pattern: RegExp) =>
      [...after].filter(([path, bytes]) => pattern.test(path) && before.get(path) !== bytes).length;
    // The navigation and the filter form name the calendars and the "when" pages, not
    // their events (src/eleventy/listing-page-inputs.ts, siteParts): a month's page changes
    // with the day only where it shows today, a series' page only where one of its dates
    // passed or its next date moved. Before, all of them were rendered again.
    for (const [template, pattern] of [
      ["calendars/month.njk", /^calendars\/[^/]+\/\d{4}\/\d{2}\/index\.html$/],
      ["series/series.njk", /^calendars\/[^/]+\/series\/.+\.html$/],
    ] as const) {
      const pages = count(dayAfter, `rendered.${template}`) + count(dayAfter, `reused.${template}`);
      const changed = changedPages(pattern);
      expect(changed, template).toBeLessThan(pages / 2);
      expect(count(dayAfter, `rendered.${template}`), template).toBe(changed);
    }
    // The calendar files whose window moved are made again, of VEVENTs read from the events'
    // downloads, which the clock does not change (src/outputs/ics.ts): none is made.
    expect(count(dayAfter, "rendered.calendar.ics")).toBeGreaterThan(0);
    expect(count(dayAfter, "reused.event.ics")).toBe(EVENTS);
    expect(count(dayAfter, "ics.veventsReadBack")).toBeGreaterThan(0);
    expect(count(dayAfter, "ics.vevents")).toBe(0);
  });

  it("should write two files fewer per event with EVENT_EMBEDS=off, and no card", async () => {
    const on = await plainBuild();
    const off = await build(join(work, "embeds-off"), { EVENT_EMBEDS: "off", SHARE_CARDS: "off" });
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
      const small = await plainBuild();
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
