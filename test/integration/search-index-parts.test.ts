import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningPortal, startPortal } from "../../src/portal/index.ts";
import { createSyntheticDataset } from "../../src/portal/synthetic-dataset.ts";
import { NOW } from "../helpers/clock.ts";
import { type BuildMetrics, counter, fileTree, meteredBuild } from "../helpers/metered-build.ts";

/*
 * The search index in parts (docs/site.md, "Search and filters"), built
 * through the real CLI with --metrics: which parts Pagefind indexes is
 * counted, and the files of the parts it does not index must keep every
 * byte, so hosts upload and browsers fetch them once.
 */

const SYNTHETIC = { calendars: 3, eventsPerCalendar: 100 };
const EVENTS = SYNTHETIC.calendars * SYNTHETIC.eventsPerCalendar;

interface PartsList {
  readonly parts: readonly { readonly key: string; readonly records: number }[];
}

let portal: RunningPortal;
let work: string;
let builds = 0;

beforeAll(async () => {
  portal = await startPortal({ port: 0, now: NOW, seed: 1, synthetic: SYNTHETIC });
  work = mkdtempSync(join(tmpdir(), "ecp-search-parts-"));
});

afterAll(async () => {
  await portal.close();
  rmSync(work, { recursive: true, force: true });
});

const site = () => join(work, "site");

function build(): Promise<BuildMetrics> {
  return meteredBuild(site(), {
    portal,
    cacheDir: join(work, "cache"),
    metricsFile: join(work, `metrics-${++builds}.json`),
  });
}

const count = counter;

/** Every file of the search index's folder, its bytes by path (relative to the folder). */
const indexFiles = () => fileTree(join(site(), "pagefind"));

/** The top-level names (a part's folder, or a shared file) whose files differ between two builds. */
function touched(before: Map<string, string>, after: Map<string, string>): Set<string> {
  const names = new Set<string>();
  for (const path of new Set([...before.keys(), ...after.keys()])) {
    if (before.get(path) !== after.get(path)) names.add(path.split("/")[0] ?? "");
  }
  return names;
}

function partsList(): PartsList {
  return JSON.parse(readFileSync(join(site(), "pagefind", "parts.json"), "utf8")) as PartsList;
}

/** The part an event's record is in: the UTC month it starts in, worked out apart from the build. */
const monthOf = (start: string) => new Date(Date.parse(start)).toISOString().slice(0, 7);

describe("the search index in parts", () => {
  it("should index every part when cold, none when nothing changed, and only the parts of edited events", async () => {
    const dataset = createSyntheticDataset({ ...SYNTHETIC, seed: 1, now: new Date(NOW) });

    const cold = await build();
    const { parts } = partsList();
    // One part per UTC month the events start in, together holding every event.
    expect(parts.map((part) => part.key)).toEqual(
      [...new Set(dataset.events.map((event) => monthOf(event.start)))].sort(),
    );
    expect(parts.length).toBeGreaterThan(5);
    expect(parts.reduce((sum, part) => sum + part.records, 0)).toBe(EVENTS);
    expect(count(cold, "searchPartsBuilt")).toBe(parts.length);
    expect(count(cold, "searchPartsReused")).toBe(0);
    expect(count(cold, "searchRecordsIndexed")).toBe(EVENTS);
    const coldFiles = await indexFiles();

    const warm = await build();
    expect(count(warm, "searchPartsBuilt")).toBe(0);
    expect(count(warm, "searchPartsReused")).toBe(parts.length);
    expect(count(warm, "searchRecordsIndexed")).toBe(0);
    expect(await indexFiles()).toEqual(coldFiles);

    // A new title: the event's part alone is indexed again, and only its files
    // and the list of parts (which names the part's new entry) change.
    const edited = dataset.events[17];
    if (!edited) throw new Error("no event to edit");
    portal.updateEvent(edited.calendarId, edited.id, { title: `${edited.title}, moved indoors` });
    const changed = await build();
    const editedPart = parts.find((part) => part.key === monthOf(edited.start));
    expect(count(changed, "searchPartsBuilt")).toBe(1);
    expect(count(changed, "searchPartsReused")).toBe(parts.length - 1);
    expect(count(changed, "searchRecordsIndexed")).toBe(editedPart?.records);
    const changedFiles = await indexFiles();
    expect(touched(coldFiles, changedFiles)).toEqual(new Set([editedPart?.key, "parts.json"]));

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
    const rescheduled = await build();
    const expected = new Set([monthOf(moved.start), monthOf(earlier(moved.start))]);
    expect(expected.size).toBe(2);
    expect(count(rescheduled, "searchPartsBuilt")).toBe(2);
    expect(count(rescheduled, "searchPartsReused")).toBe(parts.length - 2);
    expect(touched(changedFiles, await indexFiles())).toEqual(new Set([...expected, "parts.json"]));
  }, 300_000);
});
