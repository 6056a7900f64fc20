import { generateKeyPairSync } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import fc from "fast-check";
import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import { publishedStateFolder, publishedStatePath } from "../../src/changes/state-location.ts";
import { LISTING_TEMPLATES } from "../../src/eleventy/listing-page-inputs.ts";
import { paths } from "../../src/model/url-scheme.ts";
import { CATEGORIES, PLACES } from "../../src/portal/demo-content.ts";
import {
  createSyntheticDataset,
  type DatasetEvent,
  type EventPatch,
  type PortalDataset,
  type RunningPortal,
  startPortal,
  type WireLocation,
} from "../../src/portal/index.ts";
import { readFileList, writeFileList } from "../../src/publish/output-files.ts";
import { hoursAfterNow, NOW } from "../helpers/clock.ts";
import { DEMO_SITE_URL } from "../helpers/demo-expectations.ts";
import { portalEvent } from "../helpers/events.ts";
import { fileBytesSync, listFilesSync } from "../helpers/files.ts";
import { checkProperty } from "../helpers/hostile-records.ts";
import { serveOnLoopback } from "../helpers/loopback-server.ts";
import { type BuildMetrics, counter, meteredBuild } from "../helpers/metered-build.ts";
import { tempDir } from "../helpers/temp-dir.ts";

/*
 * A build reuses what it can of the last one (docs/performance.md, "What a
 * build keeps between builds"): published files whose inputs are unchanged,
 * feeds by their inputs' digests, normalized events, the search index's
 * parts, share cards, the API's responses, images. Each reuse must be
 * invisible: after any sequence of edits in the portal and later clocks, the
 * build that kept all of that writes, byte for byte, the site a build from
 * scratch writes at the same clock from the same portal with the same
 * history (the previous published state, and nothing else).
 *
 * Every step of a random sequence (fast-check, seeded) edits, adds, deletes,
 * restores or moves events in the reference portal, or moves the clock on
 * by hours (past midnight, past ended events) or weeks, or both; then the
 * site is built twice: incrementally, into the same output folder with the
 * same cache folder as the step before, and from scratch, into a fresh
 * folder with a fresh cache folder that holds a copy of the published state
 * only (the published state, the published files' hashes), reading the
 * previous build state and manifest from the "live site" as a fresh build
 * machine does. The two trees must hold the same files with the same bytes. Beside the bytes, the
 * work is counted, never timed: the incremental build asks the portal for
 * the details of the events the step touched and normalizes those only, its
 * report counts what a comparison of the trees finds, and once nothing
 * changes it writes no file and renders no feed, digest, search part or
 * card. The builds from scratch reuse nothing.
 *
 * The portal's clock stays at NOW while the site's moves on: an edit is
 * stamped at least a second after the one before (src/portal/store.ts), so
 * every edit still changes `updatedAt` and the lists' validators, which is
 * all the reuse keys on; both builds read the same stamps either way.
 */

const SYNTHETIC = { calendars: 3, eventsPerCalendar: 60 };
const CALENDAR_IDS = ["cal-001", "cal-002", "cal-003"];
const ZONE = "Europe/Amsterdam";

/** Portal images (`/media/<name>.svg`, drawn into PNGs by the build): the image store is among the reuse. */
const IMAGES = ["harbour-lights", "park-picnic"];

/** The synthetic dataset at NOW, a few of its events with an image. */
function dataset(seed: number): PortalDataset {
  const data = createSyntheticDataset({ ...SYNTHETIC, seed, now: NOW });
  data.events.forEach((event, index) => {
    if (index % 40 === 3) event.image = image(IMAGES[index % IMAGES.length] ?? "");
  });
  return data;
}

const image = (name: string) => ({
  url: `/media/${name}.svg`,
  alt: `${name.replace("-", " ")} banner`,
  width: 1200,
  height: 630,
});

const TITLES = [
  "Canal concert, moved indoors",
  "Café & Co: <b>open</b> mic",
  "Nachtmarkt Zuid",
  "Zomerfeest 🎉 in het park",
];

const DESCRIPTIONS = [
  "<p>New programme: <strong>three bands</strong> and a late set.</p>",
  "<p>Bring a chair.</p><ul><li>Free entry</li><li>Rain or shine</li></ul>",
  "",
];

/** A place of the demo's, or one no other event has (its page appears, and goes when it does). */
/** An event's categories after an edit: none, one or two of the portal's, or one it had not had. */
const CATEGORY_CHOICES = [
  [],
  [CATEGORIES.music],
  [CATEGORIES.arts, CATEGORIES.family],
  [{ id: "open-air", name: "Open air" }],
] as const;

const LOCATIONS: readonly WireLocation[] = [
  PLACES.ndsm,
  PLACES.boathouse,
  PLACES.library,
  {
    name: "Pop-up Pavilion",
    address: {
      street: "Javaplein 1",
      locality: "Amsterdam",
      region: null,
      postalCode: "1095 CJ",
      country: "NL",
    },
    geo: null,
  },
];

/** What an edit changes in one event. */
type Edit =
  | { readonly field: "title"; readonly title: number }
  | { readonly field: "description"; readonly description: number }
  | { readonly field: "times"; readonly days: number }
  | { readonly field: "status"; readonly status: DatasetEvent["status"] }
  | { readonly field: "place"; readonly place: number | null }
  | { readonly field: "image"; readonly image: number | null }
  | { readonly field: "categories"; readonly categories: number };

/**
 * Which event a change is made to: the `index`th (modulo their number) of
 * the events the portal has when the change is made, or with `soon` of
 * those that start within two weeks of the site's clock (in its feeds, its
 * digest and its "when" pages), when there are any.
 */
interface Chosen {
  readonly index: number;
  readonly soon: boolean;
}

/** One change in the portal; `to` and `calendar` choose among the calendars. */
type Change =
  | { readonly kind: "edit"; readonly pick: Chosen; readonly edit: Edit }
  | { readonly kind: "add"; readonly calendar: number; readonly day: number; readonly hour: number }
  | { readonly kind: "delete"; readonly pick: Chosen }
  | { readonly kind: "move"; readonly pick: Chosen; readonly to: number }
  /** The last event deleted (if any) back as it was, under its id: a deletion undone. */
  | { readonly kind: "restore" };

/** One step: the clock moved on by `hours` (0: not at all), then the changes made, then the builds. */
interface Step {
  readonly hours: number;
  readonly changes: readonly Change[];
}

const pick: fc.Arbitrary<Chosen> = fc.record({
  index: fc.nat({ max: 10_000 }),
  soon: fc.boolean(),
});

/** Edits that leave an event where it was: its title, its text, its image. */
const titleEdit = fc.record({
  field: fc.constant("title"),
  title: fc.nat({ max: TITLES.length - 1 }),
});
const descriptionEdit = fc.record({
  field: fc.constant("description"),
  description: fc.nat({ max: DESCRIPTIONS.length - 1 }),
});
const imageEdit = fc.record({
  field: fc.constant("image"),
  image: fc.option(fc.nat({ max: IMAGES.length - 1 }), { nil: null }),
});

const edit: fc.Arbitrary<Edit> = fc.oneof(
  titleEdit,
  descriptionEdit,
  // A new date, earlier or later; far enough to leave its day, week or month.
  fc.record({
    field: fc.constant("times"),
    days: fc.oneof(fc.integer({ min: -40, max: -1 }), fc.integer({ min: 1, max: 40 })),
  }),
  fc.record({
    field: fc.constant("status"),
    status: fc.constantFrom("cancelled", "postponed", "scheduled"),
  }),
  fc.record({
    field: fc.constant("place"),
    place: fc.option(fc.nat({ max: LOCATIONS.length - 1 }), { nil: null }),
  }),
  imageEdit,
  fc.record({
    field: fc.constant("categories"),
    categories: fc.nat({ max: CATEGORY_CHOICES.length - 1 }),
  }),
) as fc.Arbitrary<Edit>;

const change: fc.Arbitrary<Change> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant("edit"), pick, edit }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("add"),
      calendar: fc.nat({ max: CALENDAR_IDS.length - 1 }),
      // From yesterday to three weeks ahead of the site's clock, so it is in the feeds.
      day: fc.integer({ min: -1, max: 21 }),
      hour: fc.integer({ min: 9, max: 21 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("delete"), pick }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("restore") }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("move"),
      pick,
      to: fc.nat({ max: CALENDAR_IDS.length - 2 }),
    }),
  },
) as fc.Arbitrary<Change>;

const step: fc.Arbitrary<Step> = fc.oneof(
  // Edits at the same clock.
  fc.record({ hours: fc.constant(0), changes: fc.array(change, { minLength: 1, maxLength: 3 }) }),
  // A later clock (past midnight at 12 hours or more; a week or more: past the week's and
  // the month's end, and the clock change of 29 March), with or without edits.
  fc.record({
    hours: fc.oneof(fc.integer({ min: 5, max: 60 }), fc.integer({ min: 150, max: 250 })),
    changes: fc.array(change, { minLength: 0, maxLength: 2 }),
  }),
);

/**
 * A step of edits that leave every event where it was (its title, text or
 * image), at the same clock or an hour or two later: what the page record
 * vouches for (src/eleventy/page-record.ts).
 */
const contentStep: fc.Arbitrary<Step> = fc.record({
  hours: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 2 })),
  changes: fc.array(
    fc.record({
      kind: fc.constant("edit"),
      pick,
      edit: fc.oneof(titleEdit, descriptionEdit, imageEdit) as fc.Arbitrary<Edit>,
    }),
    { minLength: 1, maxLength: 3 },
  ),
});

/** What the test knows of an event in the portal: enough to pick it and change its times. */
interface Tracked {
  readonly calendarId: string;
  readonly id: string;
  readonly start: string;
  readonly end: string;
  readonly allDay: boolean;
}

/** The portal and what the test knows of its events, for making the changes a step names. */
class Portal {
  readonly #events = new Map<string, Tracked>();
  /** The events changed or added since the last `touched()`, as they are now. */
  #touched = new Set<string>();
  /** Deleted events, the last one last. */
  readonly #deleted: DatasetEvent[] = [];
  #added = 0;

  constructor(
    readonly running: RunningPortal,
    events: readonly DatasetEvent[],
  ) {
    for (const event of events) this.#track(event);
    this.touched();
  }

  /** The events changed or added since the last call, as "calendar/id", and forgets them. */
  touched(): Set<string> {
    const touched = this.#touched;
    this.#touched = new Set();
    return touched;
  }

  /** Makes a change at the site's clock `now`; returns it in words. */
  apply(change: Change, now: string): string {
    const portal = this.running;
    if (change.kind === "add") {
      const calendarId = CALENDAR_IDS[change.calendar] ?? "";
      const start = DateTime.fromISO(now, { zone: ZONE })
        .startOf("day")
        .plus({ days: change.day, hours: change.hour });
      const added = portal.addEvent(
        portalEvent({
          id: `added-${++this.#added}`,
          calendarId,
          title: `Added event ${this.#added}`,
          start: iso(start),
          end: iso(start.plus({ hours: 2 })),
          location: PLACES.westergas,
          categories: [CATEGORIES.music],
        }),
      );
      this.#track(added);
      return `add ${keyOf(added)} at ${added.start}`;
    }
    if (change.kind === "restore") {
      const deleted = this.#deleted.pop();
      if (!deleted) return "restore: nothing deleted yet";
      // Added again, it gets a first revision and new stamps, as a portal's "undo" would.
      const { revision, updatedAt, createdAt, ...fields } = deleted;
      const restored = portal.addEvent(fields);
      this.#track(restored);
      return `restore ${keyOf(restored)}`;
    }
    const event = this.#pick(change.pick, now);
    this.#events.delete(keyOf(event));
    this.#touched.delete(keyOf(event));
    if (change.kind === "delete") {
      this.#deleted.push(portal.deleteEvent(event.calendarId, event.id));
      return `delete ${keyOf(event)}`;
    }
    if (change.kind === "move") {
      const others = CALENDAR_IDS.filter((id) => id !== event.calendarId);
      const to = others[change.to % others.length] ?? "";
      const moved = portal.moveEvent(event.calendarId, event.id, to);
      this.#track(moved);
      return `move ${keyOf(event)} to ${to}`;
    }
    const patch = patchOf(change.edit, event);
    this.#track(portal.updateEvent(event.calendarId, event.id, patch));
    return `edit ${keyOf(event)}: ${JSON.stringify(patch)}`;
  }

  #pick({ index, soon }: Chosen, now: string): Tracked {
    const all = [...this.#events.values()];
    const from = Date.parse(now) - DAY_MS;
    const near = all.filter((e) => startMs(e) >= from && startMs(e) < from + 15 * DAY_MS);
    const events = soon && near.length > 0 ? near : all;
    const event = events[index % events.length];
    if (!event) throw new Error("the portal has no event left to change");
    return event;
  }

  #track(event: DatasetEvent): void {
    const { calendarId, id, start, end, allDay } = event;
    this.#events.set(keyOf(event), { calendarId, id, start, end, allDay });
    this.#touched.add(keyOf(event));
  }
}

const keyOf = (event: Pick<Tracked, "calendarId" | "id">) => `${event.calendarId}/${event.id}`;

const DAY_MS = 86_400_000;

/** When an event starts, an all-day one at its first midnight in the zone. */
const startMs = (event: Tracked) => DateTime.fromISO(event.start, { zone: ZONE }).toMillis();

const iso = (time: DateTime) => time.toISO({ suppressMilliseconds: true }) ?? "";

/** The portal's fields an edit sets. */
function patchOf(edit: Edit, event: Tracked): EventPatch {
  switch (edit.field) {
    case "title":
      return { title: TITLES[edit.title] ?? "" };
    case "description":
      return { description: DESCRIPTIONS[edit.description] ?? "" };
    case "times": {
      // The same wall-clock time (or the same dates) `days` earlier or later, in the event's zone.
      const shift = (time: string) =>
        event.allDay
          ? (DateTime.fromISO(time, { zone: ZONE }).plus({ days: edit.days }).toISODate() ?? "")
          : iso(DateTime.fromISO(time, { zone: ZONE }).plus({ days: edit.days }));
      return { start: shift(event.start), end: shift(event.end) };
    }
    case "status":
      return { status: edit.status };
    case "place":
      return edit.place === null
        ? {
            location: null,
            attendanceMode: "online",
            onlineUrl: `https://meet.example.org/${event.id}`,
          }
        : { location: LOCATIONS[edit.place] ?? null, attendanceMode: "offline", onlineUrl: null };
    case "image":
      return { image: edit.image === null ? null : image(IMAGES[edit.image] ?? "") };
    case "categories":
      return { categories: [...(CATEGORY_CHOICES[edit.categories] ?? [])] };
  }
}

/**
 * The published site's files a build from scratch may read besides the
 * published state: what a fresh build machine reads of the live site. The
 * build state's feed hashes say which feeds this build changed
 * (`feedsChanged` in the manifest, src/rebuild/write-build-state.ts), and the
 * manifest is what the shrink guard compares with.
 */
const LIVE_FILES = [paths.apiManifest(), paths.buildState()];

/** The builds of one sequence: the incremental site and its cache, and a fresh pair per step. */
class Builds {
  readonly work = tempDir("ecp-incremental-");
  readonly site = join(this.work, "site");
  readonly cache = join(this.work, "cache");
  #count = 0;

  constructor(
    readonly portal: RunningPortal,
    /** SHARE_CARDS and whatever else every build of the sequence gets. */
    readonly env: Record<string, string>,
    /** The address of the live site the builds from scratch read (LIVE_FILES). */
    readonly live: string,
  ) {}

  /** A build of the incremental site at `now`. */
  incremental(now: string): Promise<BuildMetrics> {
    return this.#build(this.site, this.cache, now, {});
  }

  /**
   * A build from scratch at `now`, into a fresh folder, with a cache folder
   * that holds the incremental site's published state and the published
   * files' hashes, and nothing else; returns its folder and metrics.
   */
  async fromScratch(now: string): Promise<{ folder: string; site: string; metrics: BuildMetrics }> {
    const folder = join(this.work, `fresh-${this.#count}`);
    const site = join(folder, "site");
    const cache = join(folder, "cache");
    const state = publishedStatePath(this.cache, this.site, DEMO_SITE_URL);
    if (existsSync(state)) {
      const copy = publishedStatePath(cache, site, DEMO_SITE_URL);
      mkdirSync(dirname(copy), { recursive: true });
      copyFileSync(state, copy);
    }
    // The published files' hashes, and not what the list keeps for reuse (each file's inputs
    // and signature on disk, which only serve with the published folder beside them).
    const list = readFileList(fileListPath(this.cache, this.site));
    if (list) writeFileList(fileListPath(cache, site), list.hashes);
    const metrics = await this.#build(site, cache, now, {
      PREVIOUS_MANIFEST_URL: `${this.live}${paths.apiManifest()}`,
    });
    return { folder, site, metrics };
  }

  #build(
    site: string,
    cache: string,
    now: string,
    env: Record<string, string>,
  ): Promise<BuildMetrics> {
    return meteredBuild(site, {
      portal: this.portal,
      cacheDir: cache,
      metricsFile: join(this.work, `metrics-${++this.#count}.json`),
      env: { SITE_NOW: now, EVENT_API_PAGE_SIZE: "100", ...this.env, ...env },
    });
  }
}

/** Where a site's published files are listed (src/publish/publish-site.ts). */
const fileListPath = (cache: string, site: string) =>
  join(publishedStateFolder(cache, site, DEMO_SITE_URL), "files.json");

/** Every file of a site: its bytes (base64) by its path. */
type Tree = ReadonlyMap<string, string>;

/**
 * The files of two builds that are not the same, in words: at most 10 (then
 * how many more), so that the report of a failure (4,000 characters,
 * checkProperty) keeps the steps that led to it.
 */
function differences(a: Tree, b: Tree): string[] {
  const found: string[] = [];
  for (const path of new Set([...a.keys(), ...b.keys()])) {
    const left = a.get(path);
    const right = b.get(path);
    if (left === right) continue;
    if (right === undefined) found.push(`${path}: only in the incremental build`);
    else if (left === undefined) found.push(`${path}: only in the build from scratch`);
    else found.push(`${path}: ${firstDifference(left, right)}`);
  }
  return found.length > 10 ? [...found.slice(0, 10), `and ${found.length - 10} more`] : found;
}

/** Where two files' texts part (from base64), with a little of each around it. */
function firstDifference(left: string, right: string): string {
  const a = Buffer.from(left, "base64").toString("utf8");
  const b = Buffer.from(right, "base64").toString("utf8");
  let at = 0;
  while (at < a.length && a[at] === b[at]) at++;
  const around = (text: string) => JSON.stringify(text.slice(Math.max(0, at - 40), at + 60));
  return `from character ${at}, incremental ${around(a)}, from scratch ${around(b)}`;
}

/** What the report counts against the last publish (--metrics), and the files written. */
interface FileCounts {
  readonly new: number | null;
  readonly changed: number | null;
  readonly removed: number | null;
  readonly written: number;
}

function countsOf(metrics: BuildMetrics): FileCounts {
  const { filesNew, filesChanged, filesRemoved } = metrics as BuildMetrics & {
    readonly [name in "filesNew" | "filesChanged" | "filesRemoved"]: number | null;
  };
  return {
    new: filesNew,
    changed: filesChanged,
    removed: filesRemoved,
    written: metrics.files - metrics.filesKept,
  };
}

/** The same counts from two trees: only new and changed files are written. */
function countsBetween(before: Tree, after: Tree): FileCounts {
  const added = [...after.keys()].filter((path) => !before.has(path)).length;
  const changed = [...after].filter(
    ([path, bytes]) => before.has(path) && before.get(path) !== bytes,
  ).length;
  const removed = [...before.keys()].filter((path) => !after.has(path)).length;
  return { new: added, changed, removed, written: added + changed };
}

/** Each file's identity on disk and modification time: what rsync and `aws s3 sync` compare. */
function identities(root: string): Map<string, string> {
  return new Map(
    listFilesSync(root).map((path) => {
      const stat = statSync(join(root, path));
      return [path, `${stat.ino} ${stat.mtimeMs}`];
    }),
  );
}

/**
 * Runs one sequence of steps against a new portal; fails naming the steps
 * made so far and the files that differ, or the count that is off.
 */
async function holdsFor(
  steps: readonly Step[],
  env: Record<string, string>,
  seed: number,
): Promise<void> {
  const data = dataset(seed);
  const running = await startPortal({ port: 0, now: NOW, dataset: data });
  let published: ReadonlyMap<string, Buffer> = new Map();
  const live = await serveOnLoopback((req, res) => {
    const body = published.get(new URL(req.url ?? "/", "http://x").pathname);
    if (body === undefined) res.writeHead(404).end();
    else res.writeHead(200, { "Content-Type": "application/json" }).end(body);
  });
  try {
    const portal = new Portal(running, data.events);
    const builds = new Builds(running, env, live.origin);
    let now = NOW;
    let elapsed = 0;
    await builds.incremental(now);
    let tree = fileBytesSync(builds.site);
    const done: string[] = [];
    for (const [index, { hours, changes }] of steps.entries()) {
      elapsed += hours;
      now = hoursAfterNow(elapsed);
      const made = changes.map((each) => portal.apply(each, now));
      const touched = portal.touched();
      done.push(
        `step ${index + 1}: ${hours > 0 ? `${hours} h later (${now})` : "same clock"}${made.map((said) => `; ${said}`).join("")}`,
      );
      const story = done.join("\n");
      published = new Map(
        LIVE_FILES.map((path) => [path, readFileSync(join(builds.site, path.slice(1)))]),
      );
      const fresh = await builds.fromScratch(now);
      const metrics = await builds.incremental(now);
      const after = fileBytesSync(builds.site);
      const differ = differences(after, fileBytesSync(fresh.site));
      rmSync(fresh.folder, { recursive: true, force: true });
      expect(differ, `files that differ:\n${differ.join("\n")}\nafter\n${story}`).toEqual([]);
      // The build from scratch reused nothing.
      expect(counter(fresh.metrics, "fetch.detailRequests"), story).toBe(running.eventCount);
      expect(counter(fresh.metrics, "normalize.reused"), story).toBe(0);
      expect(fresh.metrics.filesKept, story).toBe(0);
      // The incremental one asked for the details of the events the step touched, and
      // normalized those, only; it wrote the new and changed files, only, and said so.
      expect(counter(metrics, "fetch.detailRequests"), story).toBe(touched.size);
      expect(counter(metrics, "normalize.computed"), story).toBe(touched.size);
      if (env.PAGE_RECORD === "verify" && hours === 0) {
        // Every event where it was, at the same clock: the record was trusted, and every
        // page it vouched for was asked all the same and had the inputs it vouched for.
        expect(counter(metrics, "pageRecord.trusted"), story).toBe(1);
        expect(counter(metrics, "pageRecord.vouched"), story).toBeGreaterThan(0);
      }
      const [counted, found] = [countsOf(metrics), countsBetween(tree, after)];
      expect(
        counted,
        `${story}\ncounted ${JSON.stringify(counted)}, found ${JSON.stringify(found)}`,
      ).toEqual(found);
      tree = after;
    }
    // Then nothing changes: once a build has said so (no feed and no page changed since the
    // last), the next keeps the site whole (src/publish/unchanged-build.ts), writes no file
    // at all, and does none of the work that reuse saves.
    await builds.incremental(now);
    const before = identities(builds.site);
    const settled = await builds.incremental(now);
    const story = `${done.join("\n")}\nthen nothing, twice`;
    expect((settled as { unchanged?: boolean }).unchanged, story).toBe(true);
    const work = (name: string) => counter(settled, name);
    const busy = Object.entries({
      ...countsOf(settled),
      details: work("fetch.detailRequests"),
      normalized: work("normalize.computed"),
      feeds: work("rendered.feeds"),
      digests: DIGEST_FILES.reduce((sum, name) => sum + work(`rendered.${name}`), 0),
      eventFiles: EVENT_FILES.reduce((sum, name) => sum + work(`rendered.${name}`), 0),
      listings: LISTING_PAGES.reduce((sum, name) => sum + work(`rendered.${name}`), 0),
      calendars: work("rendered.calendar.ics"),
      vevents: work("ics.vevents"),
      searchParts: work("searchPartsBuilt"),
      cards: work("cards.rendered"),
    }).filter(([, figure]) => figure !== 0);
    expect(busy, `${story}\nwork done: ${JSON.stringify(Object.fromEntries(busy))}`).toEqual([]);
    const rewritten = [...identities(builds.site)]
      .filter(([path, is]) => before.get(path) !== is)
      .map(([path]) => path);
    expect(rewritten, `${story}\nwritten again: ${rewritten.join(", ")}`).toEqual([]);
  } finally {
    await live.close();
    await running.close();
  }
}

/** An event's page, download, card and oEmbed answer: kept by their inputs, each counted by its name. */
const EVENT_FILES = ["calendars/event.njk", "event.ics", "event card", "event oembed"];

/** A listing's pages (a calendar's list or month, a category's, a place's...), kept by their inputs. */
const LISTING_PAGES = LISTING_TEMPLATES;

/** The weekly digest's files of a scope (src/digest/digest-files.ts), each counted by its name. */
const DIGEST_FILES = ["digest/feed.xml", "digest/latest.html", "digest/latest.txt"];

/**
 * Outputs that follow the published state besides the changes: the pages a
 * publish changed, for IndexNow (in the manifest), and the fediverse
 * account's outbox (what recent publishes did to events).
 */
const HISTORY_OUTPUTS = {
  INDEXNOW_KEY: "incremental-check-key",
  AP_PUBLIC_KEY: generateKeyPairSync("rsa", { modulusLength: 2048 })
    .publicKey.export({ type: "spki", format: "pem" })
    .toString(),
};

/**
 * The property over sequences of `steps` steps, each built with `env` (and
 * HISTORY_OUTPUTS), on the synthetic dataset of a drawn seed; seeded, and
 * reported by its seed and path (checkProperty): shrinking would build every
 * smaller sequence again, so a failure ends the run.
 */
function holds(
  env: Record<string, string>,
  steps: { readonly minLength: number; readonly maxLength: number },
  parameters: { readonly seed: number; readonly numRuns: number },
  each: fc.Arbitrary<Step> = step,
): Promise<void> {
  const sequence = fc.record({
    seed: fc.integer({ min: 1, max: 1000 }),
    steps: fc.array(each, steps),
  });
  return checkProperty(
    fc.asyncProperty(sequence, ({ seed, steps }) =>
      holdsFor(steps, { ...env, ...HISTORY_OUTPUTS }, seed),
    ),
    parameters,
  );
}

/** The drawn sequences: the builds' settings, how many steps, and fast-check's seed and runs. */
const SEQUENCES: readonly {
  readonly name: string;
  readonly env: Record<string, string>;
  readonly steps: { readonly minLength: number; readonly maxLength: number };
  readonly parameters: { readonly seed: number; readonly numRuns: number };
  /** What one step does (default: any change, any clock). */
  readonly each?: fc.Arbitrary<Step>;
}[] = [
  {
    name: "should write, after any edits and later clocks, the bytes a build from scratch with the same history writes",
    // Without share cards, the costliest part of a small build: the last case has them.
    // With the page record on: a page it keeps must be the one a build from scratch writes.
    env: { SHARE_CARDS: "off", PAGE_RECORD: "on" },
    steps: { minLength: 3, maxLength: 4 },
    parameters: { seed: 20260320, numRuns: 2 },
  },
  {
    name: "should draw, after any edits and later clocks, the share cards a build from scratch draws",
    // One card per event (the link preview's), kept by their inputs like the other files.
    env: { SHARE_CARDS: "og" },
    steps: { minLength: 2, maxLength: 3 },
    parameters: { seed: 20260321, numRuns: 1 },
  },
  {
    name: "should ask again every page whose inputs an edit that moves no event changed, as the page record vouches",
    // Every page asked all the same: a page the record vouched for with other inputs fails the build.
    env: { SHARE_CARDS: "off", PAGE_RECORD: "verify" },
    steps: { minLength: 3, maxLength: 4 },
    parameters: { seed: 20261204, numRuns: 2 },
    each: contentStep,
  },
];

describe("an incremental build", () => {
  for (const { name, env, steps, parameters, each } of SEQUENCES) {
    it(name, () => holds(env, steps, parameters, each), 600_000);
  }

  it("should show a change to the whole site's navigation on pages that do not show the changed event", async () => {
    // A category no event had: every listing's filter form offers it, and a new category
    // page opens, while the pages that show the event are few (src/eleventy/listing-page-inputs.ts).
    const edit = { field: "categories", categories: CATEGORY_CHOICES.length - 1 } as const;
    await holdsFor(
      [{ hours: 0, changes: [{ kind: "edit", pick: { index: 5, soon: true }, edit }] }],
      { SHARE_CARDS: "off", ...HISTORY_OUTPUTS },
      1,
    );
  }, 600_000);
});
