import { cpSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningPortal } from "../../src/portal/index.ts";
import { NOW } from "../helpers/clock.ts";
import { runScript } from "../helpers/demo-build.ts";
import {
  type BuildMetrics,
  counter,
  fileTree,
  type MeteredBuildOptions,
  meteredBuild,
} from "../helpers/metered-build.ts";
import { startSyntheticPortal } from "../helpers/synthetic-portal.ts";
import { tempDir } from "../helpers/temp-dir.ts";

/*
 * A build split over machines (docs/performance.md, "A build over several
 * machines"): `npm run build -- --shard I/N` renders one share each,
 * `npm run merge-shards` puts them together, and the merged site is the
 * single build's, byte for byte. The shards run one after the other here
 * (as separate jobs would, each with the same clock and data).
 */

const SYNTHETIC = { calendars: 3, eventsPerCalendar: 60 };
const EVENTS = SYNTHETIC.calendars * SYNTHETIC.eventsPerCalendar;
// Small parts, so that the search index has parts for every shard to own.
const settings = { SHARE_CARDS: "og", SITE_NOW: NOW };

let portal: RunningPortal;
let work: string;
let runs = 0;
let single: Map<string, string>;
let singleMetrics: BuildMetrics;

const options = (cache: string, extra: Partial<MeteredBuildOptions> = {}): MeteredBuildOptions => ({
  portal,
  cacheDir: join(work, cache),
  metricsFile: join(work, `metrics-${++runs}.json`),
  env: settings,
  ...extra,
});

beforeAll(async () => {
  portal = await startSyntheticPortal(SYNTHETIC.calendars, SYNTHETIC.eventsPerCalendar, {
    seed: 1,
  });
  work = tempDir("ecp-shards-");
  singleMetrics = await meteredBuild(join(work, "single"), options("cache-single"));
  single = await fileTree(join(work, "single"));
});

afterAll(() => portal.close());

interface SplitBuild {
  readonly shards: { folder: string; metrics: BuildMetrics; files: Map<string, string> }[];
  readonly merged: string;
  readonly log: string;
}

const splits = new Map<number, Promise<SplitBuild>>();

/**
 * The build split into `count` shards and merged, made once for the tests
 * that read it (the merge's and the refusals'), whichever runs first.
 */
function splitBuild(count: number): Promise<SplitBuild> {
  const made = splits.get(count) ?? buildSplit(count);
  splits.set(count, made);
  return made;
}

/** Builds every shard of `count` into its own folder, then merges them; returns each shard's figures. */
async function buildSplit(count: number): Promise<SplitBuild> {
  const cache = `cache-${count}`;
  const merged = join(work, `merged-${count}`);
  const shards = [];
  for (let index = 1; index <= count; index++) {
    const folder = join(work, `shard-${count}-${index}`);
    const metrics = await meteredBuild(
      folder,
      options(cache, { args: ["--shard", `${index}/${count}`, "--target", merged] }),
    );
    shards.push({ folder, metrics, files: await fileTree(folder) });
  }
  const run = await merge(
    merged,
    cache,
    shards.map((shard) => shard.folder),
  );
  expect(run.status, run.log).toBe(0);
  return { shards, merged, log: run.log };
}

function merge(output: string, cache: string, folders: readonly string[]) {
  return runScript("src/cli/merge-shards.ts", ["--output", output, ...folders], {
    EVENT_API_CACHE_DIR: join(work, cache),
    ...settings,
  });
}

/** A shard's own files: its record (.shard/) is not part of the site. */
const siteFiles = (files: Map<string, string>) =>
  [...files.keys()].filter((file) => !file.startsWith(".shard/"));

describe("a build split over shards", () => {
  for (const count of [1, 2, 4]) {
    it(`should merge ${count} shard${count > 1 ? "s" : ""} into exactly the single build's files, each file written by one shard`, async () => {
      const { shards, merged, log } = await splitBuild(count);
      expect(await fileTree(merged)).toEqual(single);
      expect(log).toContain(`Merged ${count} shards: ${single.size} files.`);
      // Disjoint shares that add up to the site.
      const written = shards.flatMap((shard) => siteFiles(shard.files));
      expect(new Set(written).size).toBe(written.length);
      expect(written.length).toBe(single.size);
      // Each event's page, .ics, card and oEmbed answer is rendered by one shard, once.
      for (const name of [
        "rendered.calendars/event.njk",
        "rendered.event.ics",
        "rendered.event card",
        "rendered.event oembed",
      ]) {
        const total = shards.reduce((sum, shard) => sum + counter(shard.metrics, name), 0);
        expect(total, name).toBe(counter(singleMetrics, name));
      }
      const pages = shards.map((shard) => counter(shard.metrics, "rendered.calendars/event.njk"));
      expect(pages.reduce((a, b) => a + b, 0)).toBe(EVENTS);
      // Every search part indexed by one shard.
      const parts = shards.reduce(
        (sum, shard) => sum + counter(shard.metrics, "searchPartsBuilt"),
        0,
      );
      expect(parts).toBe(counter(singleMetrics, "searchPartsBuilt"));
      expect(parts).toBeGreaterThan(1);
      // The shards share one cache folder and each prunes it: none removed
      // another's cards or search parts, and it keeps nothing the site lacks.
      const cacheDir = join(work, `cache-${count}`);
      const siteCards = [...single.keys()]
        .filter((path) => path.startsWith("cards/"))
        .map((path) => path.slice("cards/".length));
      expect(readdirSync(join(cacheDir, "cards")).sort()).toEqual(siteCards.sort());
      const index = JSON.parse(readFileSync(join(merged, "pagefind/parts.json"), "utf8"));
      expect(readdirSync(cacheDir).filter((name) => name.startsWith("search-part-"))).toHaveLength(
        index.parts.length,
      );
      if (count > 1) {
        // Shares of a fair size: no shard without event pages, but the first
        // of three or more, which renders the site-wide files only.
        const eventShards = count >= 3 ? pages.slice(1) : pages;
        expect(Math.min(...eventShards)).toBeGreaterThan(0);
        if (count >= 3) expect(pages[0]).toBe(0);
        // Only shard 1 renders Eleventy's site-wide pages, feeds and assets.
        for (const shard of shards.slice(1)) {
          const files = siteFiles(shard.files);
          expect(counter(shard.metrics, "rendered.eleventy")).toBe(0);
          expect(files).not.toContain("index.html");
          expect(files).not.toContain("feed.xml");
          expect(files.filter((file) => file.startsWith("assets/"))).toEqual([]);
          expect(files.some((file) => /^calendars\/[^/]+\/events\//.test(file))).toBe(true);
        }
      }
    });
  }

  it("should refuse shards that are not the shares of one build, and publish nothing", async () => {
    const cache = "cache-refusals";
    const folder = (name: string) => join(work, `refusal-${name}`);
    const target = folder("site");
    // The two shares of the split build, and a second share made at another clock.
    const [a, b] = (await splitBuild(2)).shards.map((shard) => shard.folder);
    if (!a || !b) throw new Error("the split build has no two shards");
    await meteredBuild(
      folder("b-later"),
      options(cache, {
        args: ["--shard", "2/2", "--target", target],
        env: { ...settings, SITE_NOW: "2026-11-22T13:00:00Z" },
      }),
    );

    const missing = await merge(target, cache, [a]);
    expect(missing.status).toBe(1);
    expect(missing.log).toContain("shard 2/2 missing");
    const twice = await merge(target, cache, [a, a]);
    expect(twice.log).toContain("are both shard 1/2");
    const clock = await merge(target, cache, [a, folder("b-later")]);
    expect(clock.stderr).toContain(
      `SITE_NOW: 2026-11-22T13:00:00.000Z in ${folder("b-later")}, 2026-03-20T12:00:00.000Z in ${a}`,
    );
    const notShard = await merge(target, cache, [a, join(work, "single")]);
    expect(notShard.log).toContain("is not the output of `npm run build -- --shard I/N`");
    for (const run of [twice, clock, notShard]) expect(run.status).toBe(1);
    // Nothing was published by the refused merges.
    await expect(fileTree(target)).rejects.toThrow();

    const ok = await merge(target, cache, [b, a]);
    expect(ok.status, ok.log).toBe(0);
    expect((await fileTree(target)).size).toBe(single.size);
  });
});

/*
 * Shards that are not the shares of one build: another setting, other data,
 * a folder changed since the shard wrote it. A small portal of its own, so
 * that every variant is a quick build; each refusal is one line and
 * publishes nothing.
 */
describe("merging shards that were not built alike", () => {
  let small: RunningPortal;
  let area: string;
  const folder = (name: string) => join(area, name);
  const target = () => folder("site");
  const cache = () => folder("cache");
  const EDITED = { calendarId: "cal-002", eventId: "cal-002-e000003" };

  const shard = (
    name: string,
    share: string,
    env: Record<string, string> = {},
    args: string[] = [],
  ) =>
    meteredBuild(folder(name), {
      portal: small,
      cacheDir: cache(),
      metricsFile: folder(`metrics-${name}.json`),
      env: { ...settings, ...env },
      args: ["--shard", share, "--target", target(), ...args],
    });
  const mergeOf = (...names: string[]) =>
    runScript("src/cli/merge-shards.ts", ["--output", target(), ...names.map(folder)], {
      EVENT_API_CACHE_DIR: cache(),
      ...settings,
    });
  /** A refused merge: exit 1, one line, nothing published. */
  const refused = async (...names: string[]) => {
    const run = await mergeOf(...names);
    expect(run.status, run.log).toBe(1);
    expect(run.stderr.trim().split("\n"), run.stderr).toHaveLength(1);
    await expect(fileTree(target())).rejects.toThrow();
    return run.stderr.trim();
  };
  /** A copy of a shard's folder, to damage. */
  const copyOf = (name: string, copy: string) => {
    cpSync(folder(name), folder(copy), { recursive: true });
    return folder(copy);
  };

  beforeAll(async () => {
    small = await startSyntheticPortal(2, 8, { seed: 2 });
    area = tempDir("ecp-shards-apart-");
    await shard("a", "1/2");
    await shard("b", "2/2");
  }, 300_000);

  afterAll(() => small.close());

  it("should keep the settings that shape the output in each shard's record, and no secret", () => {
    const record = readFileSync(join(folder("b"), ".shard/shard.json"), "utf8");
    expect(record).toContain('["SITE_LANG","en-GB"]');
    expect(record).toContain('["DEPLOY_TARGET","netlify"]');
    expect(record).not.toContain(small.token);
    expect(record).not.toContain(small.url);
  });

  it("should refuse shards built with another setting, naming it with both values and folders", async () => {
    const variants: [name: string, env: Record<string, string>, args: string[], says: string][] = [
      [
        "b-nl",
        { SITE_LANG: "nl" },
        [],
        `SITE_LANG: nl in ${folder("b-nl")}, en-GB in ${folder("a")}`,
      ],
      [
        "b-title",
        { SITE_TITLE: "Other" },
        [],
        `SITE_TITLE: Other in ${folder("b-title")}, Events in ${folder("a")}`,
      ],
      [
        "b-pages",
        { DEPLOY_TARGET: "github-pages" },
        [],
        `DEPLOY_TARGET: github-pages in ${folder("b-pages")}, netlify in ${folder("a")}`,
      ],
      [
        "b-cards",
        { SHARE_CARDS: "off" },
        [],
        `SHARE_CARDS: off in ${folder("b-cards")}, og in ${folder("a")}`,
      ],
      [
        "b-target",
        {},
        ["--target", folder("elsewhere")],
        `--target: ${folder("elsewhere")} in ${folder("b-target")}, ${target()} in ${folder("a")}`,
      ],
    ];
    for (const [name, env, args, says] of variants) {
      await shard(name, "2/2", env, args);
      expect(await refused("a", name), name).toContain(`error: merge-shards: ${says}`);
    }
    // The pages of a shard for GitHub Pages carry their policy: a merge with the others' would lose it on half of them.
    const pages = [...(await fileTree(folder("b-pages"))).keys()].filter((file) =>
      file.endsWith(".html"),
    );
    expect(pages.length).toBeGreaterThan(0);
    for (const page of pages) {
      expect(readFileSync(join(folder("b-pages"), page), "utf8"), page).toContain(
        '<meta http-equiv="Content-Security-Policy"',
      );
    }
  }, 300_000);

  it("should refuse shards built from other data, naming the first event that differs", async () => {
    small.updateEvent(EDITED.calendarId, EDITED.eventId, { title: "Renamed between two shards" });
    await shard("b-edited", "2/2");
    expect(await refused("a", "b-edited")).toContain(
      `events differ, first at ${EDITED.calendarId}/${EDITED.eventId}`,
    );
  }, 300_000);

  it("should refuse in one line a shard with a file missing, or changed since the shard wrote it", async () => {
    const files = [...(await fileTree(folder("b"))).keys()].filter(
      (file) => !file.startsWith(".shard/"),
    );
    const page = files.find((file) => /^calendars\/[^/]+\/events\/.+\.html$/.test(file)) as string;
    expect(page).toBeDefined();

    rmSync(join(copyOf("b", "b-missing"), page));
    expect(await refused("a", "b-missing")).toBe(
      `error: merge-shards: ${folder("b-missing")} has no ${page}, which its record lists: copy the shard's whole folder again, or build it again.`,
    );

    // The same size, other bytes: in a copy (another inode) and in place (the shard's own file).
    const sameSize = (path: string) => {
      const bytes = readFileSync(path);
      bytes[bytes.length - 2] = bytes[bytes.length - 2] === 0x41 ? 0x42 : 0x41;
      writeFileSync(path, bytes);
    };
    sameSize(join(copyOf("b", "b-copied"), page));
    expect(await refused("a", "b-copied")).toContain(
      `${page} in ${folder("b-copied")} is not the file the shard wrote`,
    );
    const size = statSync(join(folder("b"), page)).size;
    const original = readFileSync(join(folder("b"), page));
    sameSize(join(folder("b"), page));
    expect(statSync(join(folder("b"), page)).size).toBe(size);
    expect(await refused("a", "b")).toContain(
      `${page} in ${folder("b")} is not the file the shard wrote`,
    );
    writeFileSync(join(folder("b"), page), original);
  }, 300_000);
});
