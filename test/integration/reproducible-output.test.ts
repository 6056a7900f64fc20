import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { paths } from "../../src/model/url-scheme.ts";
import { type RunningPortal, startPortal } from "../../src/portal/index.ts";
import { createSyntheticDataset } from "../../src/portal/synthetic-dataset.ts";
import { readFileList } from "../../src/publish/output-files.ts";
import { contentHash } from "../../src/render/published-files.ts";
import { hoursAfterNow, NOW, NOW_MS } from "../helpers/clock.ts";
import { runScript } from "../helpers/demo-build.ts";
import { listFilesSync } from "../helpers/files.ts";
import { forgetPublishedInputs } from "../helpers/published-inputs.ts";

/*
 * A rebuild writes only what changed (docs/deploy.md, "Only what changed"):
 * from an unchanged portal at a later clock, every file but the manifest
 * (the one build-info file) is byte-identical, the search index included;
 * one edited event changes a few dozen files of a 2,000-event site (more
 * than ten thousand files: what an edit touches does not grow with the
 * site; `npm run bench` builds 10,000 events and more); and the report's
 * counts of new, changed and removed files are what a comparison of the two
 * trees finds.
 */

interface Metrics {
  readonly files: number;
  readonly filesKept: number;
  readonly filesNew: number | null;
  readonly filesChanged: number | null;
  readonly filesRemoved: number | null;
}

interface TreeDiff {
  readonly added: string[];
  readonly changed: string[];
  readonly removed: string[];
}

/** Path -> MD5 of every file, read independently of the build's own hashing. */
function snapshotTree(root: string): Map<string, string> {
  return new Map(
    listFilesSync(root).map((file) => [
      file,
      createHash("md5")
        .update(readFileSync(join(root, file)))
        .digest("hex"),
    ]),
  );
}

function diffTrees(before: Map<string, string>, after: Map<string, string>): TreeDiff {
  return {
    added: [...after.keys()].filter((file) => !before.has(file)),
    changed: [...after]
      .filter(([file, hash]) => before.has(file) && before.get(file) !== hash)
      .map(([file]) => file),
    removed: [...before.keys()].filter((file) => !after.has(file)),
  };
}

/** The next moment a date-relative output changes, from the published build state. */
function nextChangeAt(site: string): number {
  const state = JSON.parse(readFileSync(join(site, "api", "build-state.json"), "utf8")) as {
    nextChange: { at: string } | null;
  };
  return state.nextChange ? Date.parse(state.nextChange.at) : Number.POSITIVE_INFINITY;
}

interface SyntheticSize {
  readonly calendars: number;
  readonly eventsPerCalendar: number;
}

class Builds {
  readonly work = mkdtempSync(join(tmpdir(), "ecp-reproducible-"));
  readonly site = join(this.work, "site");
  #count = 0;

  /** `settings`: what every build of the site has in its environment. */
  constructor(
    readonly portal: RunningPortal,
    readonly settings: Record<string, string>,
  ) {}

  /** One build of the site at `now`, sharing the fetch cache (and published state) with the others. */
  async build(now: string): Promise<Metrics> {
    const metricsFile = join(this.work, `metrics-${++this.#count}.json`);
    const run = await runScript(
      "src/cli/build.ts",
      ["--output", this.site, "--metrics", metricsFile],
      {
        SITE_NOW: now,
        EVENT_API_URL: this.portal.url,
        EVENT_API_TOKEN: this.portal.token,
        EVENT_API_CACHE_DIR: join(this.work, "cache"),
        EVENT_API_PAGE_SIZE_PARAM: "limit",
        EVENT_API_PAGE_SIZE: "100",
        ...this.settings,
      },
    );
    expect(run.status, run.log).toBe(0);
    return JSON.parse(readFileSync(metricsFile, "utf8")) as Metrics;
  }

  /**
   * Forgets the last publish's record of its inputs: the next build visits
   * every output rather than keeping the site whole, as it does when
   * nothing changed (test/integration/unchanged-build.test.ts).
   */
  forgetInputs(): void {
    forgetPublishedInputs(join(this.work, "cache"));
  }

  /** Forgets the kept search index: the next build has Pagefind index again. */
  forgetSearchIndex(): void {
    const cache = join(this.work, "cache");
    for (const name of readdirSync(cache)) {
      if (/^search-(part|bundle)-/.test(name)) rmSync(join(cache, name));
    }
  }

  remove(): void {
    rmSync(this.work, { recursive: true, force: true });
  }
}

function expectCountsOf(diff: TreeDiff, metrics: Metrics): void {
  expect({
    filesNew: metrics.filesNew,
    filesChanged: metrics.filesChanged,
    filesRemoved: metrics.filesRemoved,
    // Only new and changed files are written; every other one is kept as published.
    filesWritten: metrics.files - metrics.filesKept,
  }).toEqual({
    filesNew: diff.added.length,
    filesChanged: diff.changed.length,
    filesRemoved: diff.removed.length,
    filesWritten: diff.added.length + diff.changed.length,
  });
}

/** A file's identity on disk and its modification time: what rsync and `aws s3 sync` compare. */
function identity(path: string): string {
  const stat = statSync(path);
  return `${stat.ino} ${stat.mtimeMs}`;
}

/**
 * A synthetic portal (seed 1) and the builds of its site, for the tests of
 * one describe block (call it in the block): from before them to after them.
 */
function useBuilds(synthetic: SyntheticSize, settings: Record<string, string>): () => Builds {
  let portal: RunningPortal | undefined;
  let builds: Builds | undefined;
  beforeAll(async () => {
    portal = await startPortal({ port: 0, now: NOW, seed: 1, synthetic });
    builds = new Builds(portal, settings);
  });
  afterAll(async () => {
    await portal?.close();
    builds?.remove();
  });
  return () => {
    if (!builds) throw new Error("the portal starts before the tests");
    return builds;
  };
}

describe("a rebuild from an unchanged portal", () => {
  // With one share card per event (the link preview): cards are among the files that keep their bytes.
  const site = useBuilds({ calendars: 3, eventsPerCalendar: 100 }, { SHARE_CARDS: "og" });

  it("should write the same bytes up to an hour and a half later, but for the manifest, even when the search index is built again", async () => {
    const builds = site();
    const first = await builds.build(NOW);
    expect(first.filesNew).toBeNull();
    const before = snapshotTree(builds.site);
    // Two later clocks, up to an hour and a half, that cross no date-relative moment
    // (an event ending, a day changing): only the clock differs.
    const next = nextChangeAt(builds.site);
    expect(next).toBeGreaterThan(NOW_MS + 10 * 60_000);
    const span = Math.min(next - NOW_MS, Date.parse(hoursAfterNow(1.5)) - NOW_MS);
    const later = new Date(NOW_MS + Math.floor((span * 2) / 3)).toISOString();
    const latest = new Date(NOW_MS + span - 60_000).toISOString();

    // Each rebuild visits every output: kept whole, the site would say nothing of what they write.
    builds.forgetInputs();
    const second = await builds.build(later);
    const afterRebuild = snapshotTree(builds.site);
    const diff = diffTrees(before, afterRebuild);
    expect(diff).toEqual({ added: [], changed: ["api/manifest.json"], removed: [] });
    expectCountsOf(diff, second);
    // The kept list says what each published file holds, the manifest too
    // (rewritten by the build state after it was first written).
    const [listFile] = readdirSync(join(builds.work, "cache", "published")).map((key) =>
      join(builds.work, "cache", "published", key, "files.json"),
    );
    const list = readFileList(listFile ?? "")?.hashes;
    expect(list?.size).toBe(afterRebuild.size);
    const wrong = [...(list ?? [])].filter(
      ([file, hash]) => contentHash(readFileSync(join(builds.site, file))) !== hash,
    );
    expect(wrong).toEqual([]);

    builds.forgetSearchIndex();
    builds.forgetInputs();
    const third = await builds.build(latest);
    const reindexed = diffTrees(afterRebuild, snapshotTree(builds.site));
    expect(reindexed).toEqual({ added: [], changed: ["api/manifest.json"], removed: [] });
    expectCountsOf(reindexed, third);
    expect(
      [...before.keys()].filter((file) => /^pagefind\/[^/]+\/filter\//.test(file)).length,
    ).toBeGreaterThan(3);
  });
});

describe("one event edited in a 2,000-event site", () => {
  const SYNTHETIC = { calendars: 10, eventsPerCalendar: 200 };
  const EVENTS = SYNTHETIC.calendars * SYNTHETIC.eventsPerCalendar;
  // Without share cards, which would be 8,000 files to draw here: what an edit
  // does to them is held by test/integration/share-cards.test.ts.
  const site = useBuilds(SYNTHETIC, { SHARE_CARDS: "off" });

  it("should change its page, its .ics, its card to embed, the lists and month that show it, its feeds and calendars, the search index and the JSON that holds it: a few dozen files", async () => {
    const builds = site();
    const { portal } = builds;
    const first = await builds.build(NOW);
    // Over five files an event: an edit's few dozen are a small share of them.
    expect(first.files).toBeGreaterThan(5 * EVENTS);
    const before = snapshotTree(builds.site);
    // A later clock that crosses no date-relative moment: only the edit makes a difference.
    const later = Math.min(Date.parse(hoursAfterNow(1)), nextChangeAt(builds.site) - 60_000);
    expect(later).toBeGreaterThan(Date.parse(NOW));

    const dataset = createSyntheticDataset({ ...SYNTHETIC, seed: 1, now: new Date(NOW) });
    // The first event two days ahead: in its scopes' feeds as well as in their calendars.
    const event = dataset.events
      .filter((e) => Date.parse(e.start) > Date.parse(NOW) + 2 * 86_400_000)
      .sort((a, b) => Date.parse(a.start) - Date.parse(b.start))[0];
    if (!event) throw new Error("the synthetic dataset has no event ahead");
    // Every file's identity on disk before the edit.
    const identities = new Map(
      listFilesSync(builds.site).map((file) => [file, identity(join(builds.site, file))]),
    );
    portal.updateEvent(event.calendarId, event.id, { title: `${event.title}, moved indoors` });
    const second = await builds.build(new Date(later).toISOString());
    const diff = diffTrees(before, snapshotTree(builds.site));
    expectCountsOf(diff, second);
    // Only what changed was written: every changed file is a new one on disk,
    // every unchanged one (Eleventy's pages, streamed pages, files) the very
    // file published before.
    const misfits = listFilesSync(builds.site).filter((file) => {
      const before = identities.get(file);
      if (before === undefined) return false;
      const same = identity(join(builds.site, file)) === before;
      return diff.changed.includes(file) ? same : !same;
    });
    expect(misfits).toEqual([]);
    // Only the search index names files by their content: its renamed files are the new and removed ones.
    expect(
      [...diff.added, ...diff.removed].filter((file) => !file.startsWith("pagefind/")),
    ).toEqual([]);
    const eventPage = `${paths.event(event.calendarId, event.id).slice(1)}index.html`;
    expect(diff.changed).toEqual(
      expect.arrayContaining([
        eventPage,
        paths.eventIcs(event).slice(1),
        // Its card and the card's oEmbed answer (the title is in both).
        `${paths.embedEvent(event.calendarId, event.id).slice(1)}index.html`,
        paths.oembedEvent(event.calendarId, event.id).slice(1),
        `${paths.calendar(event.calendarId).slice(1)}calendar.ics`,
        `${paths.calendar(event.calendarId).slice(1)}feed.xml`,
        `api/calendars/${event.calendarId}/events.json`,
        "api/manifest.json",
        "sitemap.xml",
      ]),
    );
    expect(diff.added.some((file) => /^pagefind\/[^/]+\/fragment\//.test(file))).toBe(true);
    // The index is in parts by the UTC month events start in: only the event's part, and the
    // list of parts naming its new entry, change; the other parts keep every byte.
    const month = new Date(Date.parse(event.start)).toISOString().slice(0, 7);
    const touched = [...diff.added, ...diff.changed, ...diff.removed]
      .filter((file) => file.startsWith("pagefind/"))
      .map((file) => file.split("/")[1]);
    expect(new Set(touched)).toEqual(new Set([month, "parts.json"]));
    // A few dozen files, whatever the site's size (docs/deploy.md, "Only what changed").
    const uploaded = [...diff.added, ...diff.changed];
    expect(uploaded.length, uploaded.join("\n")).toBeLessThanOrEqual(80);
  });
});
