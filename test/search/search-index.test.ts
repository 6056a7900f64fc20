import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readMetrics } from "../../src/metrics.ts";
import { writeSearchIndex } from "../../src/search/search-index.ts";
import { fixtureSnapshot } from "../fixtures/snapshot.ts";
import { fileBytesSync } from "../helpers/files.ts";

/*
 * The search index written by the real Pagefind, in parts, with and without
 * the cache folder: what a site folder holds, and what the next build takes
 * from the cache instead of indexing again.
 */

const SITE = { lang: "en-GB", uiLanguage: "en", timeZone: "Europe/Amsterdam" };
const work = mkdtempSync(join(tmpdir(), "ecp-search-index-"));

afterAll(() => rmSync(work, { recursive: true, force: true }));

const input = (events = fixtureSnapshot.events) => ({
  calendars: fixtureSnapshot.calendars,
  views: { events },
});

/** Every file of a site's search index folder, its bytes by path. */
const indexFiles = (site: string) => fileBytesSync(join(site, "pagefind"));

let sites = 0;
const nextSite = () => join(work, `site-${++sites}`);

describe("writeSearchIndex", () => {
  it("should give a site without events an index that answers, with no parts", async () => {
    const site = nextSite();
    const stats = await writeSearchIndex(site, input([]), SITE);
    expect(stats.records).toBe(0);
    expect(stats.parts).toEqual([]);
    const files = indexFiles(site);
    expect(JSON.parse(readFileSync(join(site, "pagefind/parts.json"), "utf8")).parts).toEqual([]);
    const entry = JSON.parse(readFileSync(join(site, "pagefind/pagefind-entry.json"), "utf8")) as {
      languages: Record<string, { hash: string; wasm: string; page_count: number }>;
    };
    const [language] = Object.values(entry.languages);
    expect(language?.page_count).toBe(0);
    // What pagefind.js loads: the metadata and WebAssembly the entry names, and its worker.
    for (const name of [
      "pagefind.js",
      "pagefind-worker.js",
      `pagefind.${language?.hash}.pf_meta`,
      `wasm.${language?.wasm}.pagefind`,
    ]) {
      expect(files.has(name), name).toBe(true);
    }
  });

  it("should take unchanged parts from the cache, and Pagefind's script from it too, with the same bytes", async () => {
    const cacheDir = join(work, "cache");
    const first = nextSite();
    const cold = await writeSearchIndex(first, input(), SITE, { cacheDir });
    expect(cold.parts.length).toBeGreaterThan(1);
    expect(cold.parts.every((part) => part.built)).toBe(true);
    expect(cold.parts.reduce((sum, part) => sum + part.records, 0)).toBe(
      fixtureSnapshot.events.length,
    );

    const second = nextSite();
    const warm = await writeSearchIndex(second, input(), SITE, { cacheDir });
    expect(warm.parts.filter((part) => part.built)).toEqual([]);
    expect(indexFiles(second)).toEqual(indexFiles(first));

    // A cache that lost Pagefind's script and WebAssembly but kept the parts:
    // no part is indexed again, and the site gets the same files.
    for (const name of readdirSync(cacheDir)) {
      if (name.startsWith("search-bundle-")) rmSync(join(cacheDir, name));
    }
    const third = nextSite();
    const partial = await writeSearchIndex(third, input(), SITE, { cacheDir });
    expect(partial.parts.filter((part) => part.built)).toEqual([]);
    expect(indexFiles(third)).toEqual(indexFiles(first));

    // One event less: its month's part is indexed again, and no other.
    const [dropped, ...rest] = fixtureSnapshot.events;
    const month = new Date(Date.parse(dropped?.start ?? "")).toISOString().slice(0, 7);
    const fourth = nextSite();
    const fewer = await writeSearchIndex(fourth, input(rest), SITE, { cacheDir });
    expect(fewer.parts.filter((part) => part.built).map((part) => part.key)).toEqual([month]);
    const before = indexFiles(first);
    const after = indexFiles(fourth);
    for (const [path, bytes] of after) {
      if (!path.startsWith(`${month}/`) && path !== "parts.json") {
        expect(before.get(path), path).toBe(bytes);
      }
    }
    // The parts it no longer needs are not kept.
    expect(readdirSync(cacheDir).filter((name) => name.startsWith("search-part-")).length).toBe(
      fewer.parts.length,
    );
  });

  it("should know an unchanged month's parts without making its records, and make them when its plan is lost", async () => {
    const cacheDir = join(work, "months-cache");
    const made = () => readMetrics().counters.searchRecordsMade ?? 0;
    const first = nextSite();
    const before = made();
    await writeSearchIndex(first, input(), SITE, { cacheDir });
    expect(made() - before).toBe(fixtureSnapshot.events.length);

    // The same events, their calendars changed only where a record does not show it
    // (an edit moves a calendar's updatedAt): no record made, and the same files.
    const second = nextSite();
    const warm = made();
    const touched = fixtureSnapshot.calendars.map((calendar) => ({
      ...calendar,
      updatedAt: "2026-03-20T12:34:56Z",
    }));
    await writeSearchIndex(second, { ...input(), calendars: touched }, SITE, { cacheDir });
    expect(made() - warm).toBe(0);
    expect(indexFiles(second)).toEqual(indexFiles(first));

    // One event retitled: the records of its month alone.
    const [edited, ...rest] = fixtureSnapshot.events;
    if (!edited) throw new Error("no event");
    const month = new Date(Date.parse(edited.start)).toISOString().slice(0, 7);
    const inMonth = fixtureSnapshot.events.filter(
      (event) => new Date(Date.parse(event.start)).toISOString().slice(0, 7) === month,
    ).length;
    const edit = made();
    await writeSearchIndex(nextSite(), input([{ ...edited, title: "Renamed" }, ...rest]), SITE, {
      cacheDir,
    });
    expect(made() - edit).toBe(inMonth);

    // A damaged plan file: every record made again, and the same files as a build without it.
    writeFileSync(join(cacheDir, "search-months.json"), "{ not json");
    const third = nextSite();
    const lost = made();
    await writeSearchIndex(third, input(), SITE, { cacheDir });
    expect(made() - lost).toBe(fixtureSnapshot.events.length);
    expect(indexFiles(third)).toEqual(indexFiles(first));
  });

  it("should let the shards of a split build share one cache folder: each keeps the others' parts and drops the old ones", async () => {
    const cacheDir = join(work, "shared-cache");
    const keptParts = () =>
      readdirSync(cacheDir).filter((name) => name.startsWith("search-part-")).length;
    const shards = [1, 2].map((index) => ({ index, count: 2 }));
    // One after the other: Pagefind's Node API has one process per Node process
    // (the shards of a real split build are processes of their own).
    const build = async (events = fixtureSnapshot.events) => {
      const results = [];
      for (const shard of shards) {
        results.push(await writeSearchIndex(nextSite(), input(events), SITE, { cacheDir, shard }));
      }
      return results;
    };
    const first = await build();
    const owned = first.map((shard) => shard.parts.length);
    expect(owned.every((parts) => parts > 0)).toBe(true);
    const all = owned.reduce((sum, parts) => sum + parts, 0);
    expect(keptParts()).toBe(all);

    // Built again with the same events: each shard finds its parts, whatever the other pruned.
    const again = await build();
    expect(again.flatMap((shard) => shard.parts.filter((part) => part.built))).toEqual([]);

    // One event less: its month's part is indexed again by the shard that owns it,
    // and the part it replaces is gone from the folder.
    const [, ...rest] = fixtureSnapshot.events;
    const fewer = await build(rest);
    expect(fewer.flatMap((shard) => shard.parts.filter((part) => part.built))).toHaveLength(1);
    expect(keptParts()).toBe(fewer.reduce((sum, shard) => sum + shard.parts.length, 0));
    // Pagefind's script and WebAssembly, which only the first shard reads, are kept too.
    expect(readdirSync(cacheDir).filter((name) => name.startsWith("search-bundle-"))).toHaveLength(
      1,
    );
  });
});
